// What matmul_add and linear share: C = A * W + bias on n x n matrices, the
// buffers, their filling, and the check against the CPU reference. The two
// differ only in how a step computes it (two kernels or one fused GEMM).
#pragma once

#include <cmath>
#include <string>

#include "device_buffer.h"
#include "host_copy.h"
#include "kernels.cuh"
#include "reference.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

template <class T>
class BiasedMatmul : public Workload {
 public:
  explicit BiasedMatmul(int n) : n_(n) {}

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

 protected:
  int n_;
  DeviceBuffer<T> a_, w_, c_, bias_;
};

}  // namespace gapscope::gpu::cuda
