// Which API calls become records: every call CUPTI's RUNTIME and DRIVER
// kinds take, less the queries (api_queries.h). Kineto leaves four of them
// out (cudaGetDevice, cuKernelGetAttribute, cuDevicePrimaryCtxGetState,
// cuCtxGetCurrent) for the same reason; naming the rule instead of a list
// keeps new API versions covered.
#include <cupti.h>

#include <cstdlib>
#include <cstring>

#include "activity_parse.h"
#include "gapscope/gpu/api_queries.h"

namespace gapscope::gpu::cuda {

namespace {

template <class Enable>
void leaveOutQueries(CUpti_CallbackDomain domain, CUpti_CallbackId end, Enable enable) {
  for (CUpti_CallbackId id = 1; id < end; ++id) {
    const char* name = nullptr;
    if (cuptiGetCallbackName(domain, id, &name) == CUPTI_SUCCESS && name && isApiQuery(name)) enable(id, 0);
  }
}

}  // namespace

ApiRecording apiRecordingFromEnvironment() {
  const char* v = std::getenv("GAPSCOPE_RECORD_API");
  if (v && std::strcmp(v, "all") == 0) return ApiRecording::All;
  if (v && std::strcmp(v, "runtime") == 0) return ApiRecording::RuntimeOnly;
  return ApiRecording::WithoutQueries;
}

void applyApiRecording(ApiRecording how) {
  if (how == ApiRecording::All) return;
  // Failures are harmless (a CUPTI without per-call control records every
  // call, as before), so they are not errors.
  leaveOutQueries(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, cuptiActivityEnableRuntimeApi);
  if (how == ApiRecording::RuntimeOnly) {
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER);
    return;
  }
  leaveOutQueries(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, cuptiActivityEnableDriverApi);
}

}  // namespace gapscope::gpu::cuda
