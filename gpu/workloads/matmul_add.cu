// matmul_add: C = A * W (cuBLAS GEMM), then C += bias in a kernel of its
// own: two launches per step. At --size 64 both kernels take a few
// microseconds and the GPU mostly waits for launches; at 8192 the GEMM
// dominates and the GPU is busy.
#include "biased_matmul.h"
#include "gemm.h"
#include "kernels.cuh"

namespace gapscope::gpu::cuda {

namespace {

template <class T>
class MatmulAdd final : public BiasedMatmul<T> {
  // Members of a dependent base need naming.
  using BiasedMatmul<T>::n_, BiasedMatmul<T>::a_, BiasedMatmul<T>::w_, BiasedMatmul<T>::c_, BiasedMatmul<T>::bias_;

 public:
  using BiasedMatmul<T>::BiasedMatmul;

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
};

}  // namespace

std::unique_ptr<Workload> makeMatmulAdd(const WorkloadSpec& spec) {
  if (spec.variant == "fp32") return std::make_unique<MatmulAdd<float>>(spec.size);
  return std::make_unique<MatmulAdd<__nv_bfloat16>>(spec.size);
}

}  // namespace gapscope::gpu::cuda
