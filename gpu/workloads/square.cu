// square: b = a * a elementwise on an N x N fp32 matrix, three ways, for
// comparing kernel times on the same work:
//   naive       a 2-D kernel whose threads walk down columns: neighbouring
//               threads touch addresses N floats apart (uncoalesced)
//   vectorized  16-byte loads and stores (float4), grid-stride
//   library     thrust::transform (CCCL), the "library call"
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "device_buffer.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

__global__ void squareNaiveKernel(const float* a, float* b, int n) {
  // threadIdx.x walks rows on purpose: this is the slow way.
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    std::size_t i = std::size_t(row) * n + col;
    b[i] = a[i] * a[i];
  }
}

__global__ void squareVectorizedKernel(const float4* a, float4* b, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::size_t{gridDim.x} * blockDim.x) {
    float4 v = a[i];
    b[i] = make_float4(v.x * v.x, v.y * v.y, v.z * v.z, v.w * v.w);
  }
}

struct Square {
  __host__ __device__ float operator()(float v) const { return v * v; }
};

class SquareWorkload final : public Workload {
 public:
  SquareWorkload(int n, std::string variant) : n_(n), variant_(std::move(variant)) {}

  void setup(DeviceContext& ctx) override {
    std::size_t nn = std::size_t(n_) * n_;
    a_ = DeviceBuffer<float>(nn);
    b_ = DeviceBuffer<float>(nn);
    fillUniform(a_.get(), nn, 40, 4.f, ctx.stream);
    // Grid-stride: a few waves of blocks over all SMs is enough.
    vecBlocks_ = static_cast<unsigned>(ctx.prop.multiProcessorCount) * 8u;
  }

  void step(DeviceContext& ctx) override {
    bool all = variant_ == "all";
    std::size_t nn = std::size_t(n_) * n_;
    if (all || variant_ == "naive") {
      auto op = ctx.op("square_naive");
      dim3 block(16, 16);
      dim3 grid((n_ + 15) / 16, (n_ + 15) / 16);
      squareNaiveKernel<<<grid, block, 0, ctx.stream>>>(a_.get(), b_.get(), n_);
      GS_CHECK_LAUNCH("squareNaiveKernel");
    }
    if (all || variant_ == "vectorized") {
      auto op = ctx.op("square_vectorized");
      // nn is a multiple of 4: n >= 256 is even, so n * n is divisible by 4.
      squareVectorizedKernel<<<vecBlocks_, 256, 0, ctx.stream>>>(reinterpret_cast<const float4*>(a_.get()),
                                                                 reinterpret_cast<float4*>(b_.get()), nn / 4);
      GS_CHECK_LAUNCH("squareVectorizedKernel");
    }
    if (all || variant_ == "library") {
      auto op = ctx.op("square_library");
      thrust::transform(thrust::cuda::par_nosync.on(ctx.stream), a_.get(), a_.get() + nn, b_.get(), Square{});
      GS_CHECK_LAUNCH("thrust::transform");
    }
  }

  std::string check(DeviceContext&) override {
    auto a = a_.toHost();
    auto b = b_.toHost();
    Comparison cmp(1e-6, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) cmp.expect("b", i, b[i], double(a[i]) * a[i]);
    return cmp.result();
  }

 private:
  int n_;
  std::string variant_;
  unsigned vecBlocks_ = 0;
  DeviceBuffer<float> a_, b_;
};

}  // namespace

std::unique_ptr<Workload> makeSquare(const WorkloadSpec& spec) {
  return std::make_unique<SquareWorkload>(spec.size, spec.variant);
}

}  // namespace gapscope::gpu::cuda
