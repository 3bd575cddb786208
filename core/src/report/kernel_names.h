// What a kernel is, judged from its name: the rules need to know element-wise
// kernels, GEMMs and additions, and the report needs short labels for names
// that run to hundreds of characters of C++ templates.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"
#include "gapscope/report/report.h"

namespace gapscope::report {

// PyTorch's TensorIterator kernels ("...elementwise_kernel<...>") and
// Inductor's pointwise Triton kernels ("triton_poi_...").
bool isElementwiseKernel(std::string_view name);

// cuBLAS/cuBLASLt/CUTLASS GEMMs: "gemm" in any case ("sm80_xmma_gemm_...",
// "ampere_sgemm_...", "cutlass::Kernel<...gemm...>"), Hopper's "nvjet_*"
// cuBLASLt kernels, and Inductor's Triton matmul templates ("triton_tem_fused_mm");
// not cuDNN's implicit-GEMM convolutions ("conv", "fprop", "dgrad", "wgrad").
bool isGemmKernel(std::string_view name);

// The CPU op that launched a GEMM already adds a term to its product
// (aten::addmm, aten::addbmm, aten::addmv, aten::baddbmm): a second add
// after it cannot be folded into the same call.
bool opAlreadyAddsToGemm(std::string_view opName);

// The GEMM already applies a bias in its epilogue ("..._bias_..." in the name).
bool gemmHasBiasEpilogue(std::string_view name);

// An element-wise addition: PyTorch's CUDAFunctor_add / AddFunctor, or an
// Inductor pointwise kernel whose fused op list contains "add".
bool isAddKernel(std::string_view name);

// kernelLabel() is public: gapscope/report/report.h.

// The three predicates above for interned names, each name judged once: the
// rules ask per kernel, and traces repeat a handful of names millions of times.
class KernelClassifier {
 public:
  explicit KernelClassifier(const Trace& trace) : trace_(trace), flags_(trace.strings.size(), 0) {}
  bool isElementwise(StringId name) { return flags(name) & kElementwise; }
  bool isGemmWithoutBias(StringId name) { return flags(name) & kGemmNoBias; }
  bool isAdd(StringId name) { return flags(name) & kAdd; }

 private:
  static constexpr std::uint8_t kKnown = 1, kElementwise = 2, kGemmNoBias = 4, kAdd = 8;
  std::uint8_t flags(StringId name);
  const Trace& trace_;
  std::vector<std::uint8_t> flags_;  // by StringId
};

}  // namespace gapscope::report
