// linear: the matmul_add computation with the bias fused into the GEMM's
// epilogue (cuBLASLt CUBLASLT_EPILOGUE_BIAS): one kernel per step where
// matmul_add needs two.
#include "biased_matmul.h"
#include "gemm.h"

namespace gapscope::gpu::cuda {

namespace {

template <class T>
class Linear final : public BiasedMatmul<T> {
  // Members of a dependent base need naming.
  using BiasedMatmul<T>::n_, BiasedMatmul<T>::a_, BiasedMatmul<T>::w_, BiasedMatmul<T>::c_, BiasedMatmul<T>::bias_;

 public:
  using BiasedMatmul<T>::BiasedMatmul;

  void setup(DeviceContext& ctx) override {
    BiasedMatmul<T>::setup(ctx);
    matmul_ = std::make_unique<LtMatmul>(ctx, cudaTypeOf<T>(), n_, n_, n_, CUBLASLT_EPILOGUE_BIAS);
  }

  void step(DeviceContext& ctx) override {
    auto op = ctx.op("linear");
    matmul_->run(ctx, a_.get(), w_.get(), bias_.get(), c_.get());
  }

 private:
  std::unique_ptr<LtMatmul> matmul_;
};

}  // namespace

std::unique_ptr<Workload> makeLinear(const WorkloadSpec& spec) {
  if (spec.variant == "fp32") return std::make_unique<Linear<float>>(spec.size);
  return std::make_unique<Linear<__nv_bfloat16>>(spec.size);
}

}  // namespace gapscope::gpu::cuda
