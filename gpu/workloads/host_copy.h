// Device buffers of float or bf16 as host floats, for the CPU references.
#pragma once

#include <cuda_bf16.h>

#include <vector>

#include "device_buffer.h"
#include "kernels.cuh"

namespace gapscope::gpu::cuda {

template <class T>
std::vector<float> toHostFloats(const DeviceBuffer<T>& d) {
  std::vector<T> h = d.toHost();
  std::vector<float> f(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) f[i] = toFloat(h[i]);
  return f;
}

template <class T>
constexpr cudaDataType_t cudaTypeOf() {
  return sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_16BF;
}

}  // namespace gapscope::gpu::cuda
