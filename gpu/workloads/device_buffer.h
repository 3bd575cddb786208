// Owning device allocation (plain cudaMalloc) and deterministic inputs.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda_check.h"

namespace gapscope::gpu::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    GS_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

  // Whole buffer to the host (synchronous; for checks only).
  std::vector<T> toHost() const {
    std::vector<T> h(count_);
    GS_CHECK(cudaMemcpy(h.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Fills with uniform values in [-scale, scale) from a hash of the index, so
// inputs are the same on every run and need no host transfer.
void fillUniform(float* p, std::size_t n, unsigned seed, float scale, cudaStream_t s);
void fillUniform(__nv_bfloat16* p, std::size_t n, unsigned seed, float scale, cudaStream_t s);
void fillConstant(float* p, std::size_t n, float value, cudaStream_t s);

}  // namespace gapscope::gpu::cuda
