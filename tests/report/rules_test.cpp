// Each rule triggered by a small built trace and passed by one that does not
// trigger it; the clean trace passes every rule.
#include <gtest/gtest.h>

#include "gapscope/report/report.h"
#include "report_of.h"
#include "loop_trace.h"

namespace gapscope::report {
namespace {

using namespace gapscope::testing;

const Finding& findingOf(const Report& r, std::string_view id) {
  const Finding* f = r.finding(id);
  EXPECT_NE(f, nullptr) << id;
  static const Finding kMissing;
  return f ? *f : kMissing;
}

// Text of column `columnId` in row `row` of a finding's evidence.
std::string evidenceText(const Finding& f, std::size_t row, std::string_view columnId) {
  int c = f.evidence.column(columnId);
  if (c < 0 || row >= f.evidence.rows.size()) return "<missing>";
  const Cell& cell = f.evidence.rows[row][static_cast<std::size_t>(c)];
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  return "<other>";
}

void expectTriggered(const Report& r, std::string_view id) {
  const Finding& f = findingOf(r, id);
  EXPECT_FALSE(f.passed) << id << ": " << f.summary;
  EXPECT_FALSE(f.evidence.rows.empty()) << id;
  EXPECT_FALSE(f.advice.empty()) << id;
  EXPECT_FALSE(f.threshold.empty()) << id;
  EXPECT_EQ(f.evidence.id, id);
}

void expectPassed(const Report& r, std::string_view id) {
  const Finding& f = findingOf(r, id);
  EXPECT_TRUE(f.passed) << id << ": " << f.summary;
  EXPECT_TRUE(f.evidence.rows.empty()) << id;
  EXPECT_FALSE(f.summary.empty()) << id;
}

TEST(Rules, EveryRuleHasAFindingInRegistryOrder) {
  Report r = reportOf(cleanTrace());
  ASSERT_EQ(r.findings.size(), reportRules().size());
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    EXPECT_EQ(r.findings[i].id, reportRules()[i].id);
    EXPECT_EQ(r.findings[i].title, reportRules()[i].title);
  }
}

TEST(Rules, CleanTracePassesEveryRule) {
  Report r = reportOf(cleanTrace());
  for (const RuleInfo& rule : reportRules()) expectPassed(r, rule.id);
  EXPECT_EQ(r.verdict.kind, "gpu_bound") << r.verdict.line;
}

// Tiny kernels launched one per op: the GPU waits for the CPU all the time.
Trace launchBoundTrace() {
  LoopTrace t;
  t.beginStep();
  for (int i = 0; i < 30; ++i) t.op("aten::relu", kSoftmax, 2 * kUs, {.cpuBefore = 15 * kUs});
  t.endStep();
  return t.finish();
}

TEST(Rules, LaunchOverheadBoundTriggersWhenTheGpuWaitsForLaunches) {
  Report r = reportOf(launchBoundTrace());
  expectTriggered(r, "launch-overhead-bound");
  const Finding& f = findingOf(r, "launch-overhead-bound");
  EXPECT_EQ(evidenceText(f, 0, "device"), "0");
  EXPECT_GT(f.estimatedSavingNs, 0);
  EXPECT_NE(f.summary.find("aten::relu"), std::string::npos) << f.summary;  // the CPU work blamed
}

// The launching thread frees device memory between ops: the GPU waits for
// it as for launches, but a CUDA graph would not remove it, and the advice
// says so first, with the time: 4 calls of 200 us, each whole inside a gap
// (the kernel before it is done 0.5 us before its op ends).
TEST(Rules, LaunchOverheadSpentAllocatingSaysSoFirst) {
  LoopTrace t;
  t.beginStep();
  for (int i = 0; i < 10; ++i) {
    t.op("aten::relu", kSoftmax, 2 * kUs, {.cpuBefore = 15 * kUs, .cpuAfter = 3 * kUs});
    if (i % 2 == 1 && i < 9) t.runtimeCall(i == 3 ? "cudaMalloc_v2" : "cudaFree", 200 * kUs);
  }
  t.endStep();
  Report r = reportOf(t.finish());
  expectTriggered(r, "launch-overhead-bound");
  const Finding& f = findingOf(r, "launch-overhead-bound");
  ASSERT_FALSE(f.advice.empty());
  EXPECT_EQ(f.advice.front().rfind("800 µs of it the launching threads spent allocating or freeing memory "
                                   "(cudaFree 600 µs, cudaMalloc_v2 200 µs)", 0),
            0u)
      << f.advice.front();
  // Without it, the graph advice leads.
  EXPECT_EQ(findingOf(reportOf(launchBoundTrace()), "launch-overhead-bound").advice.front().rfind("Capture the step", 0),
            0u);
}

// The rule measures the steps' GPU windows: a 1 ms cudaMalloc before the
// first step is none of their idle, and neither the advice nor the summary
// speaks of it ("1.00 ms of it" of 300 us, before).
TEST(Rules, AllocationBeforeTheStepsIsNotBlamedForTheirIdle) {
  LoopTrace t;
  t.op("aten::relu", kSoftmax, 2 * kUs, {.cpuBefore = 15 * kUs, .cpuAfter = 3 * kUs});
  t.runtimeCall("cudaMalloc", 1000 * kUs);
  for (int s = 0; s < 3; ++s) {
    t.beginStep();
    for (int i = 0; i < 10; ++i) t.op("aten::relu", kSoftmax, 2 * kUs, {.cpuBefore = 15 * kUs});
    t.endStep();
  }
  Report r = reportOf(t.finish());
  expectTriggered(r, "launch-overhead-bound");
  const Finding& f = findingOf(r, "launch-overhead-bound");
  EXPECT_NE(f.summary.find("of its steps' GPU windows"), std::string::npos) << f.summary;
  EXPECT_EQ(f.summary.find("cudaMalloc"), std::string::npos) << f.summary;
  EXPECT_EQ(f.advice.front().rfind("Capture the step", 0), 0u) << f.advice.front();
}

TEST(Rules, LaunchOverheadBoundHonoursItsThreshold) {
  ReportOptions options;
  options.thresholds.launchOverheadIdlePct = 99.9;
  expectPassed(reportOf(launchBoundTrace(), options), "launch-overhead-bound");
}

TEST(Rules, LaunchDominatedKernelsTriggersOnKernelsShorterThanTheirLaunch) {
  Report r = reportOf(launchBoundTrace());
  expectTriggered(r, "launch-dominated-kernels");
  const Finding& f = findingOf(r, "launch-dominated-kernels");
  EXPECT_EQ(evidenceText(f, 0, "kernel"), kSoftmax);
  EXPECT_EQ(evidenceText(f, 0, "short_launches"), "30");
}

TEST(Rules, LaunchDominatedKernelsNeedsEnoughOfThem) {
  LoopTrace t;
  for (int i = 0; i < 9; ++i) t.op("aten::relu", kSoftmax, 2 * kUs);  // 9 < 10 launches
  for (int i = 0; i < 9; ++i) t.op("aten::mm", kGemm, 300 * kUs);
  expectPassed(reportOf(t.finish()), "launch-dominated-kernels");
}

// split_stack in miniature: per slice a LayerNorm and a tanh, 16 times.
Trace splitStackTrace(int slices, int othersBetween) {
  LoopTrace t;
  for (int i = 0; i < slices; ++i) {
    t.op("aten::native_layer_norm", kLayerNorm, 3 * kUs, {.occupancy = 3.f, .gridX = 64});
    for (int k = 0; k < othersBetween; ++k) t.op("aten::tanh", kTanh, 1 * kUs, {.occupancy = 2.f, .gridX = 32});
  }
  return t.finish();
}

TEST(Rules, SmallKernelsSameOpTriggersOnRepeatedSmallKernels) {
  Report r = reportOf(splitStackTrace(16, 1));
  expectTriggered(r, "small-kernels-same-op");
  const Finding& f = findingOf(r, "small-kernels-same-op");
  ASSERT_EQ(f.evidence.rows.size(), 2u);  // the LayerNorm and the tanh both repeat
  EXPECT_EQ(evidenceText(f, 0, "kernels"), "16");
  EXPECT_EQ(evidenceText(f, 0, "longest_run"), "16");
  EXPECT_EQ(evidenceText(f, 0, "runs"), "1");
  std::string ops = evidenceText(f, 0, "cpu_op") + evidenceText(f, 1, "cpu_op");
  EXPECT_NE(ops.find("aten::native_layer_norm"), std::string::npos);
  EXPECT_NE(ops.find("aten::tanh"), std::string::npos);
}

TEST(Rules, SmallKernelsSameOpPassesBelowTheRepeatCount) {
  expectPassed(reportOf(splitStackTrace(7, 1)), "small-kernels-same-op");
}

TEST(Rules, SmallKernelsSameOpPassesWhenRepeatsAreFarApart) {
  // Three other kernels between two LayerNorms (the limit is two): a layer
  // loop, not a batchable run.
  LoopTrace t;
  for (int i = 0; i < 12; ++i) {
    t.op("aten::native_layer_norm", kLayerNorm, 3 * kUs);
    t.op("aten::mm", kGemm, 3 * kUs);
    t.op("aten::tanh", kTanh, 1 * kUs);
    t.op("aten::softmax", kSoftmax, 1 * kUs);
  }
  expectPassed(reportOf(t.finish()), "small-kernels-same-op");
}

TEST(Rules, SmallKernelsSameOpIgnoresLongKernels) {
  LoopTrace t;
  for (int i = 0; i < 12; ++i) t.op("aten::mm", kGemm, 25 * kUs);  // >= 20 us each
  expectPassed(reportOf(t.finish()), "small-kernels-same-op");
}

TEST(Rules, ElementwiseChainTriggersOnBackToBackElementwiseKernels) {
  LoopTrace t;
  for (int i = 0; i < 2; ++i) {
    t.op("aten::mm", kGemm, 100 * kUs);
    t.op("aten::mul", kMul, 50 * kUs);
    t.op("aten::add", kAdd, 50 * kUs);
    t.op("aten::tanh", kTanh, 50 * kUs);
  }
  Report r = reportOf(t.finish());
  expectTriggered(r, "elementwise-chain");
  const Finding& f = findingOf(r, "elementwise-chain");
  ASSERT_EQ(f.evidence.rows.size(), 1u);
  EXPECT_EQ(evidenceText(f, 0, "chain"), "MulFunctor -> CUDAFunctor_add -> tanh_kernel_cuda");
  EXPECT_EQ(evidenceText(f, 0, "cpu_ops"), "aten::mul -> aten::add -> aten::tanh");
  EXPECT_EQ(evidenceText(f, 0, "length"), "3");
  EXPECT_EQ(evidenceText(f, 0, "occurrences"), "2");
}

TEST(Rules, ElementwiseChainPassesOnShortChains) {
  LoopTrace t;
  for (int i = 0; i < 4; ++i) {
    t.op("aten::mm", kGemm, 100 * kUs);
    t.op("aten::mul", kMul, 50 * kUs);
    t.op("aten::tanh", kTanh, 50 * kUs);
  }
  expectPassed(reportOf(t.finish()), "elementwise-chain");
}

TEST(Rules, GemmSeparateAddTriggersOnMatmulThenAdd) {
  LoopTrace t;
  for (int i = 0; i < 3; ++i) {
    t.op("aten::mm", kGemm, 100 * kUs);
    t.op("aten::add", kAdd, 10 * kUs);
  }
  Report r = reportOf(t.finish());
  expectTriggered(r, "gemm-separate-add");
  const Finding& f = findingOf(r, "gemm-separate-add");
  EXPECT_EQ(evidenceText(f, 0, "pairs"), "3");
  EXPECT_EQ(evidenceText(f, 0, "gemm_cpu_op"), "aten::mm");
  EXPECT_EQ(evidenceText(f, 0, "add_cpu_op"), "aten::add");
  EXPECT_EQ(f.estimatedSavingNs, 30 * kUs);
}

TEST(Rules, GemmSeparateAddPassesWhenTheGemmAlreadyAddsATerm) {
  // aten::addmm already uses the GEMM's addend for its bias: the residual
  // add after it cannot join the same call.
  LoopTrace t;
  for (int i = 0; i < 3; ++i) {
    t.op("aten::addmm", kGemm, 100 * kUs);
    t.op("aten::add", kAdd, 10 * kUs);
  }
  expectPassed(reportOf(t.finish()), "gemm-separate-add");
}

TEST(Rules, GemmSeparateAddPassesWhenTheBiasIsInTheEpilogue) {
  LoopTrace t;
  for (int i = 0; i < 3; ++i) {
    t.op("aten::addmm", kGemmBias, 100 * kUs);
    t.op("aten::add", kAdd, 10 * kUs);  // a residual add after a biased GEMM
    t.op("aten::mm", kGemm, 100 * kUs);
    t.op("aten::tanh", kTanh, 10 * kUs);
  }
  expectPassed(reportOf(t.finish()), "gemm-separate-add");
}

// Long kernels, then a .item() in the middle of each step followed by host work.
Trace itemInStepTrace(bool syncInsideStep) {
  LoopTrace t;
  for (int step = 0; step < 3; ++step) {
    t.beginStep();
    t.op("aten::mm", kGemm, 300 * kUs);
    if (syncInsideStep) t.sync("cudaStreamSynchronize", "aten::_local_scalar_dense").cpuWork(150 * kUs);
    t.op("aten::mm", kGemm, 300 * kUs);
    t.endStep();
  }
  t.sync();  // after the loop: fine
  return t.finish();
}

TEST(Rules, SyncInStepTriggersOnItemInsideTheStep) {
  Report r = reportOf(itemInStepTrace(true));
  expectTriggered(r, "sync-in-step");
  const Finding& f = findingOf(r, "sync-in-step");
  ASSERT_EQ(f.evidence.rows.size(), 1u);  // the final cudaDeviceSynchronize is outside the steps
  EXPECT_EQ(evidenceText(f, 0, "call"), "cudaStreamSynchronize");
  EXPECT_EQ(evidenceText(f, 0, "cpu_op"), "aten::_local_scalar_dense");
  EXPECT_EQ(evidenceText(f, 0, "calls"), "3");
  EXPECT_GT(f.estimatedSavingNs, 3 * 100 * kUs);
}

TEST(Rules, SyncInStepPassesWhenTheOnlySyncIsAfterTheLoop) {
  expectPassed(reportOf(itemInStepTrace(false)), "sync-in-step");
}

Trace copyTrace(const std::string& memcpyName) {
  LoopTrace t;
  for (int i = 0; i < 2; ++i) {
    t.op("aten::copy_", memcpyName, 40 * kUs, {}, "gpu_memcpy", "cudaMemcpyAsync");
    t.op("aten::mm", kGemm, 300 * kUs);
  }
  return t.finish();
}

TEST(Rules, PageableMemcpyTriggersOnPageableCopies) {
  Report r = reportOf(copyTrace("Memcpy HtoD (Pageable -> Device)"));
  expectTriggered(r, "pageable-memcpy");
  const Finding& f = findingOf(r, "pageable-memcpy");
  EXPECT_EQ(evidenceText(f, 0, "copy"), "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(evidenceText(f, 0, "cpu_op"), "aten::copy_");
  EXPECT_EQ(evidenceText(f, 0, "count"), "2");
}

TEST(Rules, PageableMemcpyPassesOnPinnedCopies) {
  expectPassed(reportOf(copyTrace("Memcpy HtoD (Pinned -> Device)")), "pageable-memcpy");
}

Trace occupancyTrace(float occupancy) {
  LoopTrace t;
  for (int i = 0; i < 4; ++i) t.op("aten::mm", kGemm, 300 * kUs, {.occupancy = occupancy, .gridX = 16});
  return t.finish();
}

TEST(Rules, LowOccupancyTriggersOnALowEstimate) {
  Report r = reportOf(occupancyTrace(3.f));
  expectTriggered(r, "low-occupancy");
  const Finding& f = findingOf(r, "low-occupancy");
  EXPECT_EQ(evidenceText(f, 0, "kernel"), kGemm);
  EXPECT_EQ(evidenceText(f, 0, "grid"), "16x1x1");
  EXPECT_EQ(evidenceText(f, 0, "blocks"), "16");
  EXPECT_NE(f.summary.find("fewer blocks than the GPU's 132 SMs"), std::string::npos) << f.summary;
}

TEST(Rules, LowOccupancyPassesOnGoodOrUnknownOccupancy) {
  expectPassed(reportOf(occupancyTrace(45.f)), "low-occupancy");
  // Kineto writes 0 when it cannot estimate (e.g. cluster launches): unknown, not low.
  expectPassed(reportOf(occupancyTrace(0.f)), "low-occupancy");
}

TEST(Rules, NoGpuActivityPassesEverythingWithAReason) {
  LoopTrace t;
  t.beginStep().cpuWork(100 * kUs).endStep();
  Report r = reportOf(t.finish());
  EXPECT_FALSE(r.hasGpuActivity);
  EXPECT_FALSE(r.noGpuReason.empty());
  for (const RuleInfo& rule : reportRules()) expectPassed(r, rule.id);
}

}  // namespace
}  // namespace gapscope::report
