// The CUDA module's one exported symbol: the backend table gapscope_gpu
// looks up after dlopen.
#include <cuda_runtime.h>

#include "backend_api.h"
#include "device_info.h"
#include "probe.h"
#include "runner.h"

namespace {

gapscope::gpu::Availability probe(int device, bool cupti) { return gapscope::gpu::cuda::probeDevice(device, cupti); }

void run(const gapscope::gpu::detail::ResolvedOptions& options, const gapscope::gpu::ProgressCallback& progress,
         const std::atomic<bool>* cancel, gapscope::gpu::detail::BackendResult& out) {
  gapscope::gpu::cuda::runWorkload(options, progress, cancel, out);
}

void describeDevices(std::vector<gapscope::gpu::DeviceInfo>& out) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) == cudaSuccess) out.push_back(gapscope::gpu::cuda::deviceInfoOf(d, prop));
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const gapscope::gpu::detail::BackendApi* gapscope_gpu_backend_v1() {
  static const gapscope::gpu::detail::BackendApi api{gapscope::gpu::detail::kBackendAbi,
                                                     sizeof(gapscope::gpu::detail::BackendResult),
                                                     sizeof(gapscope::gpu::detail::ResolvedOptions), &probe, &run,
                                                     &describeDevices};
  return &api;
}
