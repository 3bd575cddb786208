// Can this process record? Driver, device, CUPTI — each failure gets its
// own reason, worded for a tooltip or stderr.
#include "probe.h"

#include <cuda_runtime.h>
#include <cupti.h>
#include <dlfcn.h>

#include <string>

#include "cuda_check.h"

namespace gapscope::gpu::cuda {

namespace {

std::string versionText(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

Availability unavailable(Unavailable why, std::string reason) {
  Availability a;
  a.available = false;
  a.why = why;
  a.reason = std::move(reason);
  return a;
}

}  // namespace

std::string privilegesHint() {
  return "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: GPU profiling is restricted to administrators on this "
         "machine; run as root or set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0";
}

Availability probeDevice(int device, bool cupti) {
  // libcuda comes with the driver, not the toolkit: without it nothing runs.
  if (!dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL))
    return unavailable(Unavailable::NoDriver, "no NVIDIA driver found (libcuda.so.1 is not installed)");
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  if (driver == 0) return unavailable(Unavailable::NoDriver, "the NVIDIA driver did not answer (cudaDriverGetVersion)");
  if (driver < runtime) {
    return unavailable(Unavailable::NoDriver, "the NVIDIA driver supports CUDA " + versionText(driver) +
                                                  " but the recorder was built with CUDA " + versionText(runtime) +
                                                  "; update the driver");
  }
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0))
    return unavailable(Unavailable::NoDevice, "no CUDA device found (driver " + versionText(driver) + ")");
  if (err != cudaSuccess) {
    return unavailable(Unavailable::NoDevice,
                       std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(err) + " (" +
                           cudaGetErrorName(err) + ")");
  }
  if (device >= count) {
    return unavailable(Unavailable::NoDevice, "CUDA device " + std::to_string(device) + " does not exist (" +
                                                  std::to_string(count) + " found)");
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return unavailable(Unavailable::NoDevice, "cudaGetDeviceProperties failed for device " + std::to_string(device));

  Availability a;
  a.available = true;
  a.why = Unavailable::None;
  a.deviceName = prop.name;
  if (!cupti) return a;

  std::uint32_t version = 0;
  if (CUptiResult r = cuptiGetVersion(&version); r != CUPTI_SUCCESS)
    return unavailable(Unavailable::CuptiFailed, "cuptiGetVersion failed: " + cuptiResultText(r));
  CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) return unavailable(Unavailable::InsufficientPrivileges, privilegesHint());
  if (r != CUPTI_SUCCESS) {
    return unavailable(Unavailable::CuptiFailed,
                       "cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) failed: " + cuptiResultText(r));
  }
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  return a;
}

}  // namespace gapscope::gpu::cuda
