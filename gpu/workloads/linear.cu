// linear: the matmul_add computation with the bias fused into the GEMM's
// epilogue (cuBLASLt CUBLASLT_EPILOGUE_BIAS): one kernel per step where
// matmul_add needs two.
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
class Linear final : public Workload {
 public:
  explicit Linear(int n) : n_(n) {}

  void setup(DeviceContext& ctx) override {
    std::size_t nn = std::size_t(n_) * n_;
    a_ = DeviceBuffer<T>(nn);
    w_ = DeviceBuffer<T>(nn);
    c_ = DeviceBuffer<T>(nn);
    bias_ = DeviceBuffer<T>(n_);
    fillUniform(a_.get(), nn, 1, 1.f, ctx.stream);
    fillUniform(w_.get(), nn, 2, 1.f / std::sqrt(float(n_)), ctx.stream);
    fillUniform(bias_.get(), n_, 3, 1.f, ctx.stream);
    matmul_ = std::make_unique<LtMatmul>(ctx, cudaTypeOf<T>(), n_, n_, n_, CUBLASLT_EPILOGUE_BIAS);
  }

  void step(DeviceContext& ctx) override {
    auto op = ctx.op("linear");
    matmul_->run(ctx, a_.get(), w_.get(), bias_.get(), c_.get());
  }

  std::string check(DeviceContext&) override {
    auto a = toHostFloats(a_);
    auto w = toHostFloats(w_);
    auto bias = toHostFloats(bias_);
    auto c = toHostFloats(c_);
    bool bf16 = sizeof(T) == 2;
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
  std::unique_ptr<LtMatmul> matmul_;
};

}  // namespace

std::unique_ptr<Workload> makeLinear(const WorkloadSpec& spec) {
  if (spec.variant == "fp32") return std::make_unique<Linear<float>>(spec.size);
  return std::make_unique<Linear<__nv_bfloat16>>(spec.size);
}

}  // namespace gapscope::gpu::cuda
