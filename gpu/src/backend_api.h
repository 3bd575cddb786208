// The boundary between gapscope_gpu (no CUDA) and the CUDA module
// (libgapscope_gpu_cuda.so: CUPTI, cuBLAS, the workload kernels), which is
// loaded with dlopen on first use so that gapscope runs where CUDA is absent.
// Both sides are built together by this project, so C++ types may cross; the
// ABI number and the struct sizes guard against a stale module.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/gpu/recorder.h"
#include "gapscope/gpu/records.h"

namespace gapscope::gpu::detail {

inline constexpr std::uint32_t kBackendAbi = 2;
inline constexpr const char* kBackendEntryPoint = "gapscope_gpu_backend_v1";

// RecordOptions with every default resolved and validated by the caller.
struct ResolvedOptions {
  std::string workload;
  std::string variant;
  int size = 0;
  int steps = 0;
  int warmupSteps = 0;
  int device = 0;
  bool trace = true;
  bool check = false;
  bool syncEachStep = false;
  std::size_t bufferPoolBytes = 0;
};

struct BackendResult {
  RecordSet records;
  RecordStats stats;
  std::string error;
  bool cancelled = false;
  std::vector<std::string> warnings;
};

struct BackendApi {
  std::uint32_t abi = kBackendAbi;
  std::size_t resultSize = sizeof(BackendResult);
  std::size_t optionsSize = sizeof(ResolvedOptions);
  // `cupti` false: driver and device only (untraced runs never touch CUPTI).
  Availability (*probe)(int device, bool cupti) = nullptr;
  void (*run)(const ResolvedOptions& options, const ProgressCallback& progress,
              const std::atomic<bool>* cancel, BackendResult& out) = nullptr;
  // Every CUDA device this process sees (none without a driver).
  void (*describeDevices)(std::vector<DeviceInfo>& out) = nullptr;
};

}  // namespace gapscope::gpu::detail

extern "C" {
using GapscopeGpuBackendEntry = const gapscope::gpu::detail::BackendApi* (*)();
}
