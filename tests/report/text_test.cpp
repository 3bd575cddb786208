// The small text helpers behind every report: kernel labels and kernel
// classification, and the HTML checker the other tests rely on. (Escaping
// and number formats: tests/format.)
#include <gtest/gtest.h>

#include "gapscope/report/report.h"
#include "html_check.h"
#include "loop_trace.h"
#include "report/kernel_names.h"

namespace gapscope::report {
namespace {

using testing::kAdd;
using testing::kGemm;
using testing::kGemmBias;
using testing::kLayerNorm;
using testing::kMul;
using testing::kTanh;

TEST(KernelNames, LabelsAreShortAndNameTheFunctor) {
  EXPECT_EQ(kernelLabel(kTanh), "elementwise: tanh_kernel_cuda");
  EXPECT_EQ(kernelLabel(kAdd), "elementwise: CUDAFunctor_add");
  EXPECT_EQ(kernelLabel(kMul), "elementwise: MulFunctor");
  EXPECT_EQ(kernelLabel(kLayerNorm),
            "at::native::vectorized_layer_norm_kernel<float, float, false>");
  EXPECT_EQ(kernelLabel(kGemmBias), kGemmBias);
  // The functor named third (a non-vectorised kernel), and one named by the
  // function it comes from: never the bare number of a template argument.
  EXPECT_EQ(kernelLabel("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
                        "at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
                        "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, ...)"),
            "elementwise: CUDAFunctor_add");
  EXPECT_EQ(kernelLabel("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
                        "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
                        "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda(float)#1}, "
                        "std::array<char*, 2ul> >(int, ...)"),
            "elementwise: launch_clamp_scalar");
  // A copy's or a set's kind in parentheses is part of its name.
  EXPECT_EQ(kernelLabel("Memcpy HtoD (Pageable -> Device)"), "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(kernelLabel("Memset (Device)"), "Memset (Device)");
  EXPECT_EQ(kernelLabel("void kernel_a(int, float*)"), "kernel_a");
  std::string longName(300, 'x');
  std::string label = kernelLabel(longName, 40);
  EXPECT_EQ(label.size(), 40u);
  EXPECT_NE(label.find("..."), std::string::npos);
}

TEST(KernelNames, ClassifiesElementwiseGemmAndAdd) {
  EXPECT_TRUE(isElementwiseKernel(kTanh));
  EXPECT_TRUE(isElementwiseKernel("triton_poi_fused_add_mul_0"));
  EXPECT_FALSE(isElementwiseKernel(kLayerNorm));
  EXPECT_TRUE(isGemmKernel(kGemm));
  EXPECT_TRUE(isGemmKernel(kGemmBias));
  EXPECT_TRUE(isGemmKernel("nvjet_sm90_tst_64x8_64x16_1x4_h_bz_NNT"));
  EXPECT_TRUE(isGemmKernel("ampere_sgemm_128x64_tn"));
  EXPECT_FALSE(isGemmKernel(kTanh));
  EXPECT_FALSE(isGemmKernel("void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>"));
  EXPECT_FALSE(isGemmKernel("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw"));
  EXPECT_TRUE(opAlreadyAddsToGemm("aten::addmm"));
  EXPECT_TRUE(opAlreadyAddsToGemm("aten::baddbmm"));
  EXPECT_FALSE(opAlreadyAddsToGemm("aten::mm"));
  EXPECT_TRUE(gemmHasBiasEpilogue(kGemmBias));
  EXPECT_FALSE(gemmHasBiasEpilogue(kGemm));
  EXPECT_TRUE(isAddKernel(kAdd));
  EXPECT_TRUE(isAddKernel("triton_poi_fused_add_0"));
  EXPECT_FALSE(isAddKernel(kMul));
  EXPECT_FALSE(isAddKernel(kTanh));
}

TEST(HtmlCheck, AcceptsWellFormedAndRejectsBroken) {
  using testing::checkWellFormedHtml;
  EXPECT_EQ(checkWellFormedHtml("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/><style>a>b{}</style></head>"
                                "<body><p class=\"x\">a &amp; b &#39;</p><br/></body></html>\n"),
            "");
  EXPECT_NE(checkWellFormedHtml("<html><p></html>"), "");
  EXPECT_NE(checkWellFormedHtml("<html><p>a < b</p></html>"), "");
  EXPECT_NE(checkWellFormedHtml("<html><p>AT&T</p></html>"), "");
  EXPECT_NE(checkWellFormedHtml("<html><p title=x>a</p></html>"), "");
  EXPECT_NE(checkWellFormedHtml("<html><meta charset=\"utf-8\"></html>"), "");  // void element not closed
  EXPECT_NE(checkWellFormedHtml("<html></html><html></html>"), "");
  EXPECT_NE(checkWellFormedHtml("<html><p title=\"a\"b\">x</p></html>"), "");
}

}  // namespace
}  // namespace gapscope::report
