// The rule that leaves query calls out of recordings (api_queries.h): the
// calls PyTorch makes around each launch are queries; no call that gives
// the GPU work, copies, allocates or waits is one, checked over every API
// name in CUPTI's own callback-id headers where the toolkit is installed.
#include "gapscope/gpu/api_queries.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace gapscope::gpu {
namespace {

TEST(ApiQueries, TheCallsPyTorchMakesAroundEachLaunchAreQueries) {
  // As counted per kernel in a recording of PyTorch 2.11 with every call kept.
  for (const char* name : {"cudaGetDevice_v3020", "cudaGetLastError_v3020", "cuDevicePrimaryCtxGetState",
                           "cuKernelGetName", "cuCtxGetCurrent", "cuKernelGetAttribute", "cudaPeekAtLastError",
                           "cuStreamIsCapturing_ptsz", "cudaStreamGetCaptureInfo_v2_ptsz_v11030", "cuCtxSetCurrent",
                           "cuCtxPushCurrent_v2", "cuGetProcAddress_v2"})
    EXPECT_TRUE(isApiQuery(name)) << name;
}

TEST(ApiQueries, WorkCopiesAllocationsWaitsAndPollsAreNot) {
  for (const char* name :
       {"cudaLaunchKernel_v7000", "cuLaunchKernel", "cuLaunchKernelEx_ptsz", "cudaGraphLaunch_v10000",
        "cudaMemcpyAsync_v3020", "cuMemsetD32Async", "cudaStreamSynchronize_v3020", "cuCtxSynchronize",
        "cudaEventSynchronize_v3020", "cudaEventQuery_v3020", "cudaStreamQuery_v3020", "cudaStreamWaitEvent_v3020",
        "cudaEventRecord_v3020", "cudaMalloc_v3020", "cuMemFreeAsync", "cudaFuncSetAttribute_v9000",
        "cuModuleLoadData", "cudaGraphicsGLRegisterImage_v3020", "cuInit", "cu", "cuda", "cuda_v3020", "nvtxRangePushA",
        "Get", ""})
    EXPECT_FALSE(isApiQuery(name)) << name;
}

// Every name in a CUPTI callback-id header: the CUPTI_*_TRACE_CBID_<name> enumerators.
std::vector<std::string> callbackNames(const std::string& header, const std::string& prefix) {
  std::ifstream in(header);
  std::vector<std::string> names;
  std::regex enumerator(prefix + "([A-Za-z0-9_]+)\\s*=");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, enumerator) && m[1] != "INVALID" && m[1] != "SIZE" && m[1] != "FORCE_INT")
      names.push_back(m[1]);
  }
  return names;
}

bool givesWorkOrWaits(const std::string& n) {
  static const std::regex work(
      "^cu(da)?(Launch|GraphLaunch|Memcpy|Memset|Malloc|MemAlloc|Free|MemFree|EventRecord|StreamWaitEvent|"
      "StreamSynchronize|EventSynchronize|CtxSynchronize|DeviceSynchronize|ThreadSynchronize|StreamQuery|EventQuery)");
  return std::regex_search(n, work);
}

TEST(ApiQueries, NoCallInCuptisHeadersThatWorksOrWaitsIsAQuery) {
  const char* cuda = std::getenv("CUDA_PATH");
  std::string include = std::string(cuda ? cuda : "/usr/local/cuda") + "/include/";
  std::vector<std::string> runtime = callbackNames(include + "cupti_runtime_cbid.h", "CUPTI_RUNTIME_TRACE_CBID_");
  std::vector<std::string> driver = callbackNames(include + "cupti_driver_cbid.h", "CUPTI_DRIVER_TRACE_CBID_");
  if (runtime.empty() || driver.empty()) GTEST_SKIP() << "no CUPTI headers under " << include;
  int working = 0, queries = 0;
  for (const auto* names : {&runtime, &driver}) {
    for (const std::string& n : *names) {
      if (givesWorkOrWaits(n)) {
        ++working;
        EXPECT_FALSE(isApiQuery(n)) << n;
      }
      queries += isApiQuery(n);
    }
  }
  // The headers hold hundreds of each; a rule that matched nothing (or
  // everything) would pass the loop above.
  EXPECT_GT(working, 200);
  EXPECT_GT(queries, 100);
  EXPECT_LT(queries, static_cast<int>(runtime.size() + driver.size()) / 2);
}

}  // namespace
}  // namespace gapscope::gpu
