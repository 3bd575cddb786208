// mlp: three linear layers, N -> 4N -> 4N -> N on 256 rows of bf16, GELU
// after the first two. "unfused" runs each layer as a GEMM, a bias kernel
// and a GELU kernel (eight launches a step); "fused" lets cuBLASLt apply the
// bias and GELU in the GEMM epilogue (GELU_BIAS, then BIAS: three launches).
#include <array>
#include <cmath>

#include "device_buffer.h"
#include "gemm.h"
#include "host_copy.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

namespace {

using bf16 = __nv_bfloat16;
constexpr int kRows = 256;
constexpr int kLayers = 3;

class Mlp final : public Workload {
 public:
  Mlp(int width, bool fused) : fused_(fused), dims_{width, 4 * width, 4 * width, width} {}

  void setup(DeviceContext& ctx) override {
    for (int l = 0; l <= kLayers; ++l) act_[l] = DeviceBuffer<bf16>(std::size_t(kRows) * dims_[l]);
    fillUniform(act_[0].get(), act_[0].size(), 10, 1.f, ctx.stream);
    for (int l = 0; l < kLayers; ++l) {
      w_[l] = DeviceBuffer<bf16>(std::size_t(dims_[l]) * dims_[l + 1]);
      b_[l] = DeviceBuffer<bf16>(dims_[l + 1]);
      fillUniform(w_[l].get(), w_[l].size(), 11 + l, 1.f / std::sqrt(float(dims_[l])), ctx.stream);
      fillUniform(b_[l].get(), b_[l].size(), 21 + l, 0.5f, ctx.stream);
      if (fused_) {
        auto epilogue = l + 1 < kLayers ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
        lt_[l] = std::make_unique<LtMatmul>(ctx, CUDA_R_16BF, kRows, dims_[l + 1], dims_[l], epilogue);
      }
    }
  }

  void step(DeviceContext& ctx) override {
    for (int l = 0; l < kLayers; ++l) {
      bool activation = l + 1 < kLayers;
      if (fused_) {
        auto op = ctx.op(activation ? "linear_gelu" : "linear");
        lt_[l]->run(ctx, act_[l].get(), w_[l].get(), b_[l].get(), act_[l + 1].get());
        continue;
      }
      std::size_t n = std::size_t(kRows) * dims_[l + 1];
      {
        auto op = ctx.op("matmul");
        gemmRowMajor(ctx.blas, CUDA_R_16BF, kRows, dims_[l + 1], dims_[l], act_[l].get(), w_[l].get(),
                     act_[l + 1].get());
      }
      {
        auto op = ctx.op("bias_add");
        biasAddKernel<<<blocksFor(n, 256), 256, 0, ctx.stream>>>(act_[l + 1].get(), b_[l].get(), kRows,
                                                                  dims_[l + 1]);
        GS_CHECK_LAUNCH("biasAddKernel");
      }
      if (activation) {
        auto op = ctx.op("gelu");
        geluKernel<<<blocksFor(n, 256), 256, 0, ctx.stream>>>(act_[l + 1].get(), n);
        GS_CHECK_LAUNCH("geluKernel");
      }
    }
  }

  std::string check(DeviceContext&) override {
    std::array<std::vector<float>, kLayers> w, b;
    for (int l = 0; l < kLayers; ++l) {
      w[l] = toHostFloats(w_[l]);
      b[l] = toHostFloats(b_[l]);
    }
    auto x = toHostFloats(act_[0]);
    auto y = toHostFloats(act_[kLayers]);
    // Every layer rounds its output to bf16 (8 mantissa bits).
    Comparison cmp(5e-2, 5e-2);
    for (std::size_t row : sampleRows(kRows)) {
      std::vector<float> h(x.begin() + row * dims_[0], x.begin() + (row + 1) * dims_[0]);
      for (int l = 0; l < kLayers; ++l) {
        auto out = matmulRow(h, w[l], 0, dims_[l], dims_[l + 1]);
        h.assign(out.size(), 0.f);
        for (std::size_t j = 0; j < out.size(); ++j) {
          float v = static_cast<float>(out[j] + b[l][j]);
          h[j] = l + 1 < kLayers ? geluTanh(v) : v;
        }
      }
      for (int j = 0; j < dims_[kLayers]; ++j)
        cmp.expect("output", row * dims_[kLayers] + j, y[row * dims_[kLayers] + j], h[j]);
    }
    return cmp.result();
  }

 private:
  bool fused_;
  std::array<int, kLayers + 1> dims_;
  std::array<DeviceBuffer<bf16>, kLayers + 1> act_;
  std::array<DeviceBuffer<bf16>, kLayers> w_, b_;
  std::array<std::unique_ptr<LtMatmul>, kLayers> lt_;
};

}  // namespace

std::unique_ptr<Workload> makeMlp(const WorkloadSpec& spec) {
  return std::make_unique<Mlp>(spec.size, spec.variant == "fused");
}

}  // namespace gapscope::gpu::cuda
