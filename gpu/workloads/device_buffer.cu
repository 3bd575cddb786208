#include <cuda_bf16.h>

#include "device_buffer.h"
#include "kernels.cuh"

namespace gapscope::gpu::cuda {

namespace {

__host__ __device__ inline float hashUniform(std::size_t i, unsigned seed) {
  // splitmix64 finaliser: cheap and well mixed.
  unsigned long long z = i + 0x9e3779b97f4a7c15ull * (seed + 1ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * (2.f / 16777216.f) - 1.f;  // [-1, 1)
}

template <class T>
__global__ void fillUniformKernel(T* p, std::size_t n, unsigned seed, float scale) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = fromFloat<T>(scale * hashUniform(i, seed));
}

__global__ void fillConstantKernel(float* p, std::size_t n, float v) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    p[i] = v;
}

}  // namespace

void fillUniform(float* p, std::size_t n, unsigned seed, float scale, cudaStream_t s) {
  fillUniformKernel<<<blocksFor(n, 256), 256, 0, s>>>(p, n, seed, scale);
  GS_CHECK_LAUNCH("fillUniformKernel<float>");
}

void fillUniform(__nv_bfloat16* p, std::size_t n, unsigned seed, float scale, cudaStream_t s) {
  fillUniformKernel<<<blocksFor(n, 256), 256, 0, s>>>(p, n, seed, scale);
  GS_CHECK_LAUNCH("fillUniformKernel<bf16>");
}

void fillConstant(float* p, std::size_t n, float value, cudaStream_t s) {
  fillConstantKernel<<<blocksFor(n, 256), 256, 0, s>>>(p, n, value);
  GS_CHECK_LAUNCH("fillConstantKernel");
}

}  // namespace gapscope::gpu::cuda
