// Errors from CUDA, CUPTI and cuBLAS become one exception type whose message
// names the call that failed and the library's own text for the result, e.g.
// "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER) failed: CUPTI_ERROR_...".
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cupti.h>

#include <stdexcept>
#include <string>

namespace gapscope::gpu::cuda {

class CudaFailure : public std::runtime_error {
 public:
  CudaFailure(std::string message, bool insufficientPrivileges = false)
      : std::runtime_error(std::move(message)), insufficientPrivileges_(insufficientPrivileges) {}
  bool insufficientPrivileges() const { return insufficientPrivileges_; }

 private:
  bool insufficientPrivileges_;
};

inline std::string cuptiResultText(CUptiResult r) {
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text) return "CUPTI error " + std::to_string(r);
  return text;
}

inline void throwIfFailed(cudaError_t r, const char* call) {
  if (r == cudaSuccess) return;
  throw CudaFailure(std::string(call) + " failed: " + cudaGetErrorString(r) + " (" + cudaGetErrorName(r) + ")");
}

inline void throwIfFailed(CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return;
  throw CudaFailure(std::string(call) + " failed: " + cuptiResultText(r),
                    r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
}

inline void throwIfFailed(cublasStatus_t r, const char* call) {
  if (r == CUBLAS_STATUS_SUCCESS) return;
  throw CudaFailure(std::string(call) + " failed: " + cublasGetStatusString(r) + " (" +
                    cublasGetStatusName(r) + ")");
}

}  // namespace gapscope::gpu::cuda

// Checks a CUDA runtime, CUPTI or cuBLAS(Lt) call; throws CudaFailure naming it.
#define GS_CHECK(call) ::gapscope::gpu::cuda::throwIfFailed((call), #call)
// For kernel launches: picks up launch errors (bad configuration, no image).
#define GS_CHECK_LAUNCH(what) ::gapscope::gpu::cuda::throwIfFailed(cudaGetLastError(), what)
