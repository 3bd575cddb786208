// Device kernels shared by the workloads. Element types are float or
// __nv_bfloat16; arithmetic is always in float.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>

namespace gapscope::gpu::cuda {

__host__ __device__ inline float toFloat(float v) { return v; }
__host__ __device__ inline float toFloat(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T>
__host__ __device__ inline T fromFloat(float v);
template <>
__host__ __device__ inline float fromFloat<float>(float v) { return v; }
template <>
__host__ __device__ inline __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

// GELU, tanh approximation: what cuBLASLt's GELU epilogues compute.
__host__ __device__ inline float geluTanh(float x) {
  const float k = 0.7978845608028654f;  // sqrt(2 / pi)
  return 0.5f * x * (1.f + tanhf(k * (x + 0.044715f * x * x * x)));
}

inline unsigned blocksFor(std::size_t n, unsigned threads, unsigned cap = 65535u * 8u) {
  std::size_t b = (n + threads - 1) / threads;
  return static_cast<unsigned>(b < cap ? (b ? b : 1) : cap);
}

// Row-major c[rows, cols] += bias[col].
template <class T>
__global__ void biasAddKernel(T* c, const T* bias, std::size_t rows, std::size_t cols) {
  std::size_t n = rows * cols;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    c[i] = fromFloat<T>(toFloat(c[i]) + toFloat(bias[i % cols]));
}

template <class T>
__global__ void geluKernel(T* x, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = fromFloat<T>(geluTanh(toFloat(x[i])));
}

}  // namespace gapscope::gpu::cuda
