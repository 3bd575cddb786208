// compareTraces() on generated pairs with known differences: kernels fused
// into one, launch gaps removed, a CUDA graph replacing launches, different
// step counts, step fallbacks, operator and annotation matching.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "compare/compare_detail.h"
#include "gapscope/compare/compare.h"
#include "run_maker.h"

namespace gapscope::compare {
namespace {

using testing::OpSpec;
using testing::RunMaker;

const std::string kCat = "CatArrayBatchedCopy";
const std::string kAdd = "vectorized_elementwise_kernel<add>";
const std::string kFused = "triton_poi_fused_add_cat_0";

const KernelDelta* row(const Comparison& c, const std::string& name) {
  auto it = std::find_if(c.kernels.begin(), c.kernels.end(), [&](const KernelDelta& k) { return k.name == name; });
  return it == c.kernels.end() ? nullptr : &*it;
}

const OpDelta* op(const Comparison& c, const std::string& name) {
  auto it = std::find_if(c.ops.begin(), c.ops.end(), [&](const OpDelta& o) { return o.name == name; });
  return it == c.ops.end() ? nullptr : &*it;
}

// Eager: aten::cat launches 2 copies of the cat kernel, aten::add one add kernel.
std::vector<OpSpec> eagerStep() {
  return {{"aten::cat", {kCat, kCat}}, {"aten::add", {kAdd}}};
}
// Compiled: one Triton kernel launched through the driver inside Inductor's call.
std::vector<OpSpec> compiledStep() {
  return {{"Torch-Compiled Region", {kFused}, 2000, "cuLaunchKernel"}};
}

Comparison compareRuns(RunMaker& a, RunMaker& b) {
  auto ra = a.analysis("a.json");
  auto rb = b.analysis("b.json");
  return compareTraces(*ra, *rb);
}

TEST(Compare, FusedKernelReplacesEagerKernels) {
  RunMaker a, b;
  for (int i = 0; i < 3; ++i) {
    a.step(eagerStep());
    b.step(compiledStep());
  }
  const Comparison c = compareRuns(a, b);
  EXPECT_EQ(c.runs[0].steps, 3u);
  EXPECT_EQ(c.runs[1].steps, 3u);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 3.0);
  EXPECT_DOUBLE_EQ(c.runs[1].kernelsPerStep, 1.0);
  EXPECT_DOUBLE_EQ(c.runs[0].launchesPerStep, 3.0);
  EXPECT_DOUBLE_EQ(c.runs[1].launchesPerStep, 1.0);
  ASSERT_EQ(c.groups.size(), 1u);
  const KernelGroup& g = c.groups[0];
  EXPECT_EQ(g.matchedBy, KernelMatch::FusedOps);
  EXPECT_EQ(g.key, "aten::add, aten::cat");
  std::vector<std::string> eager = g.kernelsA;
  std::sort(eager.begin(), eager.end());
  EXPECT_EQ(eager, (std::vector<std::string>{kCat, kAdd}));
  EXPECT_EQ(g.kernelsB, std::vector<std::string>{kFused});
  EXPECT_EQ(g.countA, 9u);  // 3 per step over 3 steps
  EXPECT_EQ(g.countB, 3u);
  EXPECT_EQ(g.timeA, 9 * 2000);
  EXPECT_EQ(g.timeB, 3 * 2000);
  ASSERT_NE(row(c, kCat), nullptr);
  EXPECT_EQ(row(c, kCat)->countA, 6u);
  EXPECT_EQ(row(c, kCat)->countB, 0u);
  EXPECT_EQ(row(c, kCat)->matchedBy, KernelMatch::FusedOps);
  EXPECT_EQ(row(c, kFused)->countB, 3u);
  EXPECT_EQ(row(c, kFused)->group, 0);
  EXPECT_NE(c.verdict.find("3 kernels per step became 1"), std::string::npos) << c.verdict;
}

// Inductor fuses aten::copy_'s copy kernels, never a copy from the host
// that the same operator makes (x.cuda()): that memcpy stays out of the group.
TEST(Compare, AFusedKernelDoesNotTakeAMemcpyOfItsOperator) {
  const std::string memcpy = "Memcpy HtoD (Pageable -> Device)";
  RunMaker a, b;
  for (int i = 0; i < 3; ++i) {
    a.step({{"aten::copy_", {memcpy}}, {"aten::add", {kAdd}}});
    b.step({{"Torch-Compiled Region", {"triton_poi_fused_add_copy_0"}, 2000, "cuLaunchKernel"}});
  }
  const Comparison c = compareRuns(a, b);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].matchedBy, KernelMatch::FusedOps);
  EXPECT_EQ(c.groups[0].kernelsA, std::vector<std::string>{kAdd});
  ASSERT_NE(row(c, memcpy), nullptr);
  EXPECT_EQ(row(c, memcpy)->group, -1);
}

TEST(Compare, LaunchGapsRemovedAndStepTimes) {
  // A: three 2 us kernels launched one after the other (1 us launch gaps
  // between them); B: one kernel per step (no gap inside the step). Both
  // warm up first, as a profiled loop does: so every step's window opens
  // with its annotation (none before the device's first kernel).
  RunMaker a, b;
  a.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);
  b.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);
  for (int i = 0; i < 2; ++i) {
    a.step({{"aten::mul", {"mul_kernel", "mul_kernel", "mul_kernel"}}});
    b.step({{"aten::mul", {"mul_kernel"}}});
  }
  const Comparison c = compareRuns(a, b);
  const RunFigures& ra = c.runs[0];
  const RunFigures& rb = c.runs[1];
  using analysis::GapCause;
  // A step's window runs from its annotation's start to its last kernel's
  // end. Each opens with 4.2 us of lead-in before its first kernel (0.2 us
  // of the annotation's margin, 1 us of lead, the 3 us launch): launch
  // overhead. A then runs 3 kernels of 2 us with 2 gaps of 1 us (each kernel
  // waits for its 3 us launch while the previous one ran 2 us); B one kernel.
  const TimeNs leadIn = 200 + RunMaker::kOpLeadNs + RunMaker::kLaunchNs;
  EXPECT_EQ(ra.activePerStep, leadIn + 3 * 2000 + 2 * 1000);
  EXPECT_EQ(ra.idlePerStep[GapCause::LaunchOverhead], leadIn + 2 * 1000);
  EXPECT_EQ(ra.busyPerStep, 3 * 2000);
  EXPECT_EQ(rb.idlePerStep.total(), leadIn);
  EXPECT_EQ(rb.activePerStep, leadIn + 2000);
  // Step annotation: 1 us lead + launches + 0.5 us + 0.5 us + 1 us tail + 0.4 us of margin.
  EXPECT_EQ(ra.stepTimeMedian, 1000 + 3 * 3000 + 1000 + 1000 + 400);
  EXPECT_EQ(rb.stepTimeMedian, 1000 + 1 * 3000 + 1000 + 1000 + 400);
  EXPECT_DOUBLE_EQ(c.speedup, static_cast<double>(ra.stepTimeMedian) / static_cast<double>(rb.stepTimeMedian));
  EXPECT_NE(c.verdict.find("B is 1.9x faster per step"), std::string::npos) << c.verdict;
  // B's idle per step fell by the two launch gaps, but its GPU work shrank
  // more: the lead-in is a larger share of its windows (4.2 of 6.2 us
  // against 6.2 of 12.2 us).
  EXPECT_NE(c.verdict.find("launch overhead idle rose from 50.8% to 67.7%"), std::string::npos) << c.verdict;
  const KernelDelta* mul = row(c, "mul_kernel");
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->matchedBy, KernelMatch::Name);
  EXPECT_EQ(mul->countA, 6u);
  EXPECT_EQ(mul->countB, 2u);
}

TEST(Compare, BusyAndTheLargestGapAreTheSteps) {
  // B warms up with one kernel, idles 500 us, then runs two steps of three
  // 2 us kernels with 1 us launch gaps between them (as in the test above).
  RunMaker a, b;
  b.outsideSteps({{"aten::mul", {"mul_kernel"}}}, 500'000);
  for (int i = 0; i < 2; ++i) {
    a.step({{"aten::mul", {"mul_kernel"}}});
    b.step({{"aten::mul", {"mul_kernel", "mul_kernel", "mul_kernel"}}});
  }
  const Comparison c = compareRuns(a, b);
  const RunFigures& rb = c.runs[1];
  // In the steps' windows: 6 us busy of 12.2 us in each (from the
  // annotation's start: 4.2 us of lead-in, then 8 us of kernels and launch
  // gaps); the whole trace, with the warm-up's 500 us and more of idle, is
  // far less busy. A has no warm-up: its first step's window opens with the
  // device's first kernel (2 us, all busy), its second with its annotation
  // (6.2 us, 2 busy).
  EXPECT_DOUBLE_EQ(rb.gpuBusyPct, 100.0 * 12000 / 24400);
  EXPECT_DOUBLE_EQ(c.runs[0].gpuBusyPct, 100.0 * 4000 / 8200);
  // The largest gap left is a step's own 1 us launch gap: not the warm-up's
  // idle, nor the 14 us between the steps (it begins before step 2's
  // window: only gaps wholly inside the steps' windows count).
  EXPECT_EQ(rb.largestGap.dur, 1000);
  EXPECT_EQ(rb.largestGap.cause, analysis::GapCause::LaunchOverhead);
  EXPECT_NE(c.verdict.find("the largest gap left in B is 1 µs of launch overhead"), std::string::npos) << c.verdict;
}

TEST(Compare, GraphReplacesLaunches) {
  const std::vector<std::string> kernels{"k0", "k1", "k2", "k3"};
  RunMaker a, b;
  a.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);  // every step's window opens with its annotation
  b.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);
  for (int i = 0; i < 3; ++i) {
    a.step({{"aten::forward", kernels}});
    b.graphStep(kernels);
  }
  const Comparison c = compareRuns(a, b);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 4.0);
  EXPECT_DOUBLE_EQ(c.runs[1].kernelsPerStep, 4.0);  // the graph's kernels, expanded
  EXPECT_DOUBLE_EQ(c.runs[0].launchesPerStep, 4.0);
  EXPECT_DOUBLE_EQ(c.runs[1].launchesPerStep, 1.0);
  EXPECT_TRUE(c.groups.empty());
  for (const auto& k : kernels) {
    ASSERT_NE(row(c, k), nullptr) << k;
    EXPECT_EQ(row(c, k)->matchedBy, KernelMatch::Name);
    EXPECT_EQ(row(c, k)->countA, 3u);
    EXPECT_EQ(row(c, k)->countB, 3u);
  }
  // Graph kernels back to back: B's only idle is each step's lead-in to its graph launch.
  EXPECT_EQ(c.runs[1].idlePerStep.total(), 200 + RunMaker::kOpLeadNs + RunMaker::kLaunchNs);
  EXPECT_NE(c.verdict.find("kernels per step unchanged (4)"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("4 kernel launches per step became 1"), std::string::npos) << c.verdict;
  // The idle between B's steps is in no step.
  EXPECT_EQ(c.runs[1].largestGap.dur, 0);
  EXPECT_NE(c.verdict.find("B has no listed GPU idle gap left in its steps"), std::string::npos) << c.verdict;
}

TEST(Compare, DifferentStepCountsNormalisePerStep) {
  RunMaker a, b;
  a.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);  // every step alike: none holds the device's first kernel
  b.outsideSteps({{"", {"warmup_kernel"}}}, 100'000);
  for (int i = 0; i < 2; ++i) a.step(eagerStep());
  for (int i = 0; i < 5; ++i) b.step(eagerStep());
  const Comparison c = compareRuns(a, b);
  EXPECT_EQ(c.runs[0].steps, 2u);
  EXPECT_EQ(c.runs[1].steps, 5u);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, c.runs[1].kernelsPerStep);
  EXPECT_EQ(c.runs[0].idlePerStep.ns, c.runs[1].idlePerStep.ns);
  EXPECT_EQ(c.runs[0].stepTimeMedian, c.runs[1].stepTimeMedian);
  // Rows count the whole trace.
  EXPECT_EQ(row(c, kCat)->countA, 4u);
  EXPECT_EQ(row(c, kCat)->countB, 10u);
  EXPECT_EQ(op(c, "aten::cat")->callsA, 2);
  EXPECT_EQ(op(c, "aten::cat")->callsB, 5);
  EXPECT_NE(c.verdict.find("B takes as long per step as A"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("idle time by cause is about the same"), std::string::npos) << c.verdict;
}

TEST(Compare, RepeatedAnnotationIsTheStepWithoutProfilerSteps) {
  RunMaker a("train_step");
  RunMaker b("train_step");
  for (int i = 0; i < 4; ++i) a.step(eagerStep());
  for (int i = 0; i < 2; ++i) b.step(compiledStep());
  const Comparison c = compareRuns(a, b);
  EXPECT_EQ(c.runs[0].stepSource, analysis::StepSource::RepeatedAnnotation);
  EXPECT_EQ(c.runs[0].stepName, "train_step");
  // Each step from one train_step to the next: the last only ends the one before.
  EXPECT_EQ(c.runs[0].steps, 3u);
  EXPECT_EQ(c.runs[1].steps, 1u);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 3.0);
  EXPECT_TRUE(c.warnings.empty());
}

// A first step that repeats the usual step's work `times` times.
std::vector<OpSpec> repeatedStep(int times) {
  std::vector<OpSpec> ops;
  for (int i = 0; i < times; ++i)
    for (const OpSpec& op : eagerStep()) ops.push_back(op);
  return ops;
}

TEST(Compare, AFirstStepOverFiveTimesTheOthersIsAWarmUpLeftOut) {
  RunMaker a;  // the first step does 8 steps' work (7.5x the others' time)
  RunMaker b;  // 4 steps' work (3.8x): a step like the others
  a.step(repeatedStep(8));
  b.step(repeatedStep(4));
  for (int i = 0; i < 3; ++i) {
    a.step(eagerStep());
    b.step(eagerStep());
  }
  auto ra = a.analysis("a.json");
  auto rb = b.analysis("b.json");
  const Comparison c = compareTraces(*ra, *rb);
  const auto& stepsA = ra->gaps().steps;
  ASSERT_EQ(stepsA.size(), 4u);
  EXPECT_EQ(c.runs[0].steps, 3u);
  EXPECT_EQ(c.runs[0].warmUpStepTime, stepsA[0].cpuNs());
  EXPECT_TRUE(stepsA[0].warmUp);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 3.0);
  EXPECT_EQ(c.runs[0].busyPerStep,
            std::llround(static_cast<double>(analysis::totalsOverSteps({stepsA[1], stepsA[2], stepsA[3]}).busy) / 3.0));
  EXPECT_EQ(c.runs[1].steps, 4u);
  EXPECT_EQ(c.runs[1].warmUpStepTime, 0);
  EXPECT_DOUBLE_EQ(c.runs[1].kernelsPerStep, (12.0 + 9.0) / 4.0);
  // The kernel rows count the whole trace, the warm-up too: per step of all 4.
  const KernelDelta* cat = row(c, kCat);
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->countA, 2u * (8 + 3));
  EXPECT_DOUBLE_EQ(c.changePerStep(cat->timeA, cat->timeB),
                   static_cast<double>(cat->timeB) / 4.0 - static_cast<double>(cat->timeA) / 4.0);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("A's first step, "), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings[0].find("is left out of its per-step figures"), std::string::npos) << c.warnings[0];
}

TEST(Compare, WholeTraceIsOneStepWithoutAnnotations) {
  RunMaker a("-");
  RunMaker b;
  for (int i = 0; i < 3; ++i) {
    a.step(eagerStep());
    b.step(eagerStep());
  }
  const Comparison c = compareRuns(a, b);
  EXPECT_EQ(c.runs[0].stepSource, analysis::StepSource::WholeTrace);
  EXPECT_EQ(c.runs[0].steps, 1u);
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 9.0);
  EXPECT_DOUBLE_EQ(c.runs[0].launchesPerStep, 9.0);
  EXPECT_DOUBLE_EQ(c.runs[1].kernelsPerStep, 3.0);
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[0].find("define a step differently"), std::string::npos);
  EXPECT_NE(c.warnings[1].find("run A has no steps"), std::string::npos);
}

TEST(Compare, KernelVariantMatchedByItsOperator) {
  RunMaker a, b;
  a.step({{"aten::mm", {"sm90_xmma_gemm_f16_128x128"}}, {"aten::relu", {"relu_kernel"}}});
  b.step({{"aten::mm", {"cutlass_gemm_f16_256x128"}}, {"aten::gelu", {"gelu_kernel"}}});
  const Comparison c = compareRuns(a, b);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].matchedBy, KernelMatch::Operator);
  EXPECT_EQ(c.groups[0].key, "aten::mm");
  EXPECT_EQ(c.groups[0].kernelsA, std::vector<std::string>{"sm90_xmma_gemm_f16_128x128"});
  EXPECT_EQ(c.groups[0].kernelsB, std::vector<std::string>{"cutlass_gemm_f16_256x128"});
  EXPECT_EQ(row(c, "relu_kernel")->matchedBy, KernelMatch::None);
  EXPECT_EQ(row(c, "gelu_kernel")->matchedBy, KernelMatch::None);
  EXPECT_EQ(row(c, "gelu_kernel")->group, -1);
  EXPECT_EQ(op(c, "aten::relu")->callsA, 1);
  EXPECT_EQ(op(c, "aten::relu")->callsB, 0);
  EXPECT_EQ(op(c, "aten::gelu")->callsB, 1);
}

TEST(Compare, KernelsMatchedByTheirAnnotation) {
  RunMaker a, b;
  a.step({{"", {"attention_v1"}, 2000, "cudaLaunchKernel", "attention"}});
  b.step({{"", {"flash_fwd_kernel"}, 2000, "cudaLaunchKernel", "attention"}});
  const Comparison c = compareRuns(a, b);
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].matchedBy, KernelMatch::Annotation);
  EXPECT_EQ(c.groups[0].key, "attention");
}

TEST(Compare, FusedListNamesWholeOperatorTokens) {
  using detail::fusedListNames;
  using detail::fusedOpList;
  EXPECT_EQ(fusedOpList("triton_poi_fused_add_cat_0"), "add_cat");
  EXPECT_EQ(fusedOpList("triton_red_fused__to_copy_add_mean_12"), "_to_copy_add_mean");
  EXPECT_EQ(fusedOpList("triton_per_fused_native_layer_norm_tanh_1"), "native_layer_norm_tanh");
  EXPECT_EQ(fusedOpList("ampere_sgemm_128x64"), "");
  EXPECT_TRUE(fusedListNames("add_cat", "aten::cat"));
  EXPECT_TRUE(fusedListNames("add_cat", "aten::add_"));
  EXPECT_TRUE(fusedListNames("_to_copy_add_mean", "aten::_to_copy"));
  EXPECT_TRUE(fusedListNames("native_layer_norm_tanh", "aten::native_layer_norm"));
  EXPECT_FALSE(fusedListNames("addmm_relu", "aten::add"));
  EXPECT_FALSE(fusedListNames("", "aten::add"));
}

}  // namespace
}  // namespace gapscope::compare
