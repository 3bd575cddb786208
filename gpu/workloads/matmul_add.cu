// matmul_add: C = A * W (cuBLAS GEMM), then C += bias in a kernel of its
// own: two launches per step. At --size 64 both kernels take a few
// microseconds and the GPU mostly waits for launches; at 8192 the GEMM
// dominates and the GPU is busy.
#include <cmath>

#include "device_buffer.h"
#include "gemm.h"
#include "host_copy.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

template <class T>
class MatmulAdd final : public Workload {
 public:
  explicit MatmulAdd(int n) : n_(n) {}

  void setup(DeviceContext& ctx) override {
    std::size_t nn = std::size_t(n_) * n_;
    a_ = DeviceBuffer<T>(nn);
    w_ = DeviceBuffer<T>(nn);
    c_ = DeviceBuffer<T>(nn);
    bias_ = DeviceBuffer<T>(n_);
    fillUniform(a_.get(), nn, 1, 1.f, ctx.stream);
    fillUniform(w_.get(), nn, 2, 1.f / std::sqrt(float(n_)), ctx.stream);
    fillUniform(bias_.get(), n_, 3, 1.f, ctx.stream);
  }

  void step(DeviceContext& ctx) override {
    {
      auto op = ctx.op("matmul");
      gemmRowMajor(ctx.blas, cudaTypeOf<T>(), n_, n_, n_, a_.get(), w_.get(), c_.get());
    }
    auto op = ctx.op("bias_add");
    std::size_t nn = std::size_t(n_) * n_;
    biasAddKernel<<<blocksFor(nn, 256), 256, 0, ctx.stream>>>(c_.get(), bias_.get(), n_, n_);
    GS_CHECK_LAUNCH("biasAddKernel");
  }

  std::string check(DeviceContext&) override {
    auto a = toHostFloats(a_);
    auto w = toHostFloats(w_);
    auto bias = toHostFloats(bias_);
    auto c = toHostFloats(c_);
    bool bf16 = sizeof(T) == 2;
    // Outputs are O(1); bf16 keeps 8 bits of mantissa and rounds twice.
    Comparison cmp(bf16 ? 2e-2 : 1e-4, bf16 ? 2e-2 : 1e-4);
    for (std::size_t row : sampleRows(n_)) {
      auto ref = matmulRow(a, w, row, n_, n_);
      for (int j = 0; j < n_; ++j) cmp.expect("C", row * n_ + j, c[row * n_ + j], ref[j] + bias[j]);
    }
    return cmp.result();
  }

 private:
  int n_;
  DeviceBuffer<T> a_, w_, c_, bias_;
};

}  // namespace

std::unique_ptr<Workload> makeMatmulAdd(const WorkloadSpec& spec) {
  if (spec.variant == "fp32") return std::make_unique<MatmulAdd<float>>(spec.size);
  return std::make_unique<MatmulAdd<__nv_bfloat16>>(spec.size);
}

}  // namespace gapscope::gpu::cuda
