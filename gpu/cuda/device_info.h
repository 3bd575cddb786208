// cudaDeviceProp -> DeviceInfo (records.h): the bundled workloads' recorder
// and the injection library describe devices the same way.
#pragma once

#include <cuda_runtime.h>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::cuda {

DeviceInfo deviceInfoOf(int id, const cudaDeviceProp& p);

}  // namespace gapscope::gpu::cuda
