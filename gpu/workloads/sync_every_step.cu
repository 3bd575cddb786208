// sync_every_step: a chain of small kernels, and after each one the host
// waits for the GPU, as code that reads a value back each time does
// (tensor.item(): a 4-byte device-to-host copy, then a stream sync). The
// GPU idles while the host wakes up and launches the next kernel: the
// synchronisation case of the gap analysis.
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "device_buffer.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

constexpr int kKernelsPerStep = 8;

__global__ void scaleShiftKernel(const float* x, float* y, std::size_t n, float scale, float shift) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    y[i] = x[i] * scale + shift;
}

float scaleOf(int k) { return 0.5f + 0.0625f * k; }
float shiftOf(int k) { return 1.f - 0.125f * k; }

class SyncEveryStep final : public Workload {
 public:
  SyncEveryStep(int n, bool item) : n_(n), item_(item) {}
  ~SyncEveryStep() override {
    if (hostValue_) cudaFreeHost(hostValue_);
  }

  void setup(DeviceContext& ctx) override {
    for (auto& b : bufs_) b = DeviceBuffer<float>(n_);
    fillUniform(bufs_[0].get(), n_, 50, 1.f, ctx.stream);
    GS_CHECK(cudaMallocHost(reinterpret_cast<void**>(&hostValue_), sizeof(float)));
  }

  void step(DeviceContext& ctx) override {
    for (int k = 0; k < kKernelsPerStep; ++k) {
      {
        auto op = ctx.op("scale_shift");
        const float* in = k == 0 ? bufs_[0].get() : result(k - 1);
        scaleShiftKernel<<<blocksFor(n_, 256), 256, 0, ctx.stream>>>(in, result(k), n_, scaleOf(k), shiftOf(k));
        GS_CHECK_LAUNCH("scaleShiftKernel");
      }
      auto op = ctx.op(item_ ? "item" : "stream_sync");
      if (item_) {
        GS_CHECK(cudaMemcpyAsync(hostValue_, result(k), sizeof(float), cudaMemcpyDeviceToHost, ctx.stream));
      }
      GS_CHECK(cudaStreamSynchronize(ctx.stream));
    }
  }

  std::string check(DeviceContext&) override {
    auto x = bufs_[0].toHost();
    auto y = hostCopy(result(kKernelsPerStep - 1));
    Comparison cmp(1e-5, 1e-5);
    for (int i = 0; i < n_; ++i) {
      double v = x[i];
      for (int k = 0; k < kKernelsPerStep; ++k) v = v * scaleOf(k) + shiftOf(k);
      cmp.expect("y", i, y[i], v);
    }
    if (item_) cmp.expect("item", 0, *hostValue_, y[0]);
    return cmp.result();
  }

 private:
  // Kernel k reads the previous result and writes the other scratch buffer;
  // the input (bufs_[0]) is never overwritten, so every step computes the same.
  float* result(int k) const { return bufs_[1 + k % 2].get(); }

  std::vector<float> hostCopy(const float* p) const {
    std::vector<float> h(n_);
    GS_CHECK(cudaMemcpy(h.data(), p, sizeof(float) * n_, cudaMemcpyDeviceToHost));
    return h;
  }

  int n_;
  bool item_;
  DeviceBuffer<float> bufs_[3];
  float* hostValue_ = nullptr;
};

}  // namespace

std::unique_ptr<Workload> makeSyncEveryStep(const WorkloadSpec& spec) {
  return std::make_unique<SyncEveryStep>(spec.size, spec.variant == "item");
}

}  // namespace gapscope::gpu::cuda
