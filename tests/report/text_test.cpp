// The small text helpers behind every report: escaping per format, human
// durations, kernel labels and kernel classification, and the HTML checker
// the other tests rely on.
#include <gtest/gtest.h>

#include "gapscope/report/report.h"
#include "html_check.h"
#include "loop_trace.h"
#include "report/kernel_names.h"
#include "report/text_escape.h"
#include "report/text_format.h"

namespace gapscope::report {
namespace {

using testing::kAdd;
using testing::kGemm;
using testing::kGemmBias;
using testing::kLayerNorm;
using testing::kMul;
using testing::kTanh;

TEST(TextEscape, HtmlEscapesMarkupAndQuotes) {
  EXPECT_EQ(escapeHtml("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(escapeHtml("a & \"b\" 'c'"), "a &amp; &quot;b&quot; &#39;c&#39;");
}

TEST(TextEscape, CleanTextReplacesInvalidUtf8AndControls) {
  EXPECT_EQ(cleanText("a\nb\tc\r"), "a b c ");
  EXPECT_EQ(cleanText(std::string("x\x01y", 3)), "x\xEF\xBF\xBDy");
  EXPECT_EQ(cleanText("\xff"), "\xEF\xBF\xBD");
  EXPECT_EQ(cleanText("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(cleanText("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(cleanText("\xC2\xB5s \xE2\x9C\x93"), "\xC2\xB5s \xE2\x9C\x93");  // "µs ✓" stays
}

TEST(TextEscape, MarkdownEscapesTablePipesAndMarkup) {
  EXPECT_EQ(escapeMarkdown("a|b"), "a\\|b");
  EXPECT_EQ(escapeMarkdown("`code` *x* _y_ [l](u)"), "\\`code\\` \\*x\\* \\_y\\_ \\[l\\](u)");
  EXPECT_EQ(escapeMarkdown("<b>&amp;"), "\\<b\\>\\&amp;");
  EXPECT_EQ(escapeMarkdown("two\nlines"), "two lines");
  EXPECT_EQ(escapeMarkdown("back\\slash"), "back\\\\slash");
}

TEST(TextEscape, CsvQuotesAndDefusesFormulas) {
  EXPECT_EQ(csvText("plain"), "plain");
  EXPECT_EQ(csvText("a,b"), "\"a,b\"");
  EXPECT_EQ(csvText("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvText("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csvText("=1+2"), "'=1+2");
  EXPECT_EQ(csvText("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csvText("-x"), "'-x");
}

TEST(TextFormat, DurationsPickAUnitAndThreeDigits) {
  EXPECT_EQ(formatDuration(0), "0 ns");
  EXPECT_EQ(formatDuration(850), "850 ns");
  EXPECT_EQ(formatDuration(1000), "1.00 \xC2\xB5s");
  EXPECT_EQ(formatDuration(12345), "12.3 \xC2\xB5s");
  EXPECT_EQ(formatDuration(999'960), "1.00 ms");  // rounding carries into the next unit
  EXPECT_EQ(formatDuration(1'234'567), "1.23 ms");
  EXPECT_EQ(formatDuration(2'345'000'000), "2.35 s");
  EXPECT_EQ(formatDuration(-1500), "-1.50 \xC2\xB5s");
}

TEST(TextFormat, CompactDurationsDropTrailingZeros) {
  EXPECT_EQ(formatDurationCompact(1000), "1 \xC2\xB5s");
  EXPECT_EQ(formatDurationCompact(2500), "2.5 \xC2\xB5s");
  EXPECT_EQ(formatDurationCompact(100'000), "100 \xC2\xB5s");
  EXPECT_EQ(formatDurationCompact(10'000'000), "10 ms");
  EXPECT_EQ(formatDurationCompact(999), "999 ns");
}

TEST(TextFormat, ExactMicroseconds) {
  EXPECT_EQ(exactUs(1920), "1.92");
  EXPECT_EQ(exactUs(1000), "1");
  EXPECT_EQ(exactUs(-5), "-0.005");
  EXPECT_EQ(exactUs(4472706015647769), "4472706015647.769");
  EXPECT_EQ(formatPct(0.01), "<0.1%");
  EXPECT_EQ(formatPct(12.345), "12.3%");
}

TEST(KernelNames, LabelsAreShortAndNameTheFunctor) {
  EXPECT_EQ(kernelLabel(kTanh), "elementwise: tanh_kernel_cuda");
  EXPECT_EQ(kernelLabel(kAdd), "elementwise: CUDAFunctor_add");
  EXPECT_EQ(kernelLabel(kMul), "elementwise: MulFunctor");
  EXPECT_EQ(kernelLabel(kLayerNorm),
            "at::native::vectorized_layer_norm_kernel<float, float, false>");
  EXPECT_EQ(kernelLabel(kGemmBias), kGemmBias);
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
