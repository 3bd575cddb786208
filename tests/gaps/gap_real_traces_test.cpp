// The gap analysis on the real traces of tests/data (see its PROVENANCE.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/json_time.h"
#include "../support/read_text.h"
#include "../support/unmarked_loop.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/io/chrome_reader.h"

using namespace gapscope;
using namespace gapscope::analysis;

namespace {

const std::string kData = GAPSCOPE_TEST_DATA_DIR;

Trace load(const std::string& relative) {
  io::LoadResult r = io::loadChromeTrace(kData + "/" + relative);
  EXPECT_TRUE(r.ok()) << relative << ": " << r.error;
  EXPECT_TRUE(r.trace.has_value()) << relative;
  return r.trace ? std::move(*r.trace) : Trace{};
}

void expectConsistent(const GapAnalysis& a, const std::string& what) {
  auto check = [&](const UtilizationStats& s) {
    EXPECT_EQ(s.busyNs + s.idle.total(), s.activeNs()) << what;
    EXPECT_EQ(s.hta.total(), s.idleNs()) << what;
    EXPECT_GE(s.utilization(), 0.0) << what;
    EXPECT_LE(s.utilization(), 1.0) << what;
  };
  for (const auto& d : a.devices) check(d);
  for (const auto& s : a.streams) check(s);
  for (const auto& step : a.steps)
    for (const auto& d : step.devices) check(d);
  EXPECT_FALSE(a.verdict.line.empty()) << what;
}

bool namesAtenOp(const Trace& t, const std::vector<CpuOpBlame>& ops) {
  for (const auto& op : ops)
    if (!op.isUntraced && t.str(op.name).rfind("aten::", 0) == 0) return true;
  return false;
}

}  // namespace

TEST(GapRealTraces, SplitStackEagerIsLaunchOverheadBoundAndBlamesItsCpuOps) {
  Trace t = load("h200/split_stack_eager.json");
  GapAnalysis a = analyzeGaps(t);
  ASSERT_TRUE(a.hasGpuActivity);
  EXPECT_EQ(a.verdict.kind, VerdictKind::LaunchOverheadBound) << a.verdict.line;
  EXPECT_LT(a.verdict.utilization, 0.5);
  ASSERT_EQ(a.devices.size(), 1u);
  const IdleByCause& idle = a.devices[0].idle;
  EXPECT_GT(idle[GapCause::LaunchOverhead], idle[GapCause::Synchronization]);
  EXPECT_GT(idle[GapCause::LaunchOverhead], idle[GapCause::Queued]);
  EXPECT_GT(idle[GapCause::LaunchOverhead], idle[GapCause::Other]);
  // The verdict is its three steps': their launch-overhead idle, less than the whole trace's.
  EXPECT_TRUE(a.verdict.overSteps);
  const GpuTotals steps = totalsOverSteps(a.steps);
  EXPECT_EQ(a.verdict.estimatedSavingNs, steps.idle[GapCause::LaunchOverhead]);
  EXPECT_LE(a.verdict.estimatedSavingNs, idle[GapCause::LaunchOverhead]);
  EXPECT_EQ(a.verdict.utilization, steps.busyShare());
  // The overhead lands on the CPU ops of the launching thread.
  EXPECT_TRUE(namesAtenOp(t, a.overheadCpuOps));
  bool launchCallBlamed = false;
  for (const auto& op : a.overheadCpuOps)
    launchCallBlamed = launchCallBlamed || t.str(op.name) == "cudaLaunchKernel";
  EXPECT_TRUE(launchCallBlamed);
  std::size_t overheadGapsWithAtenOps = 0;
  for (const Gap& g : a.gaps)
    if (g.cause == GapCause::LaunchOverhead && namesAtenOp(t, cpuOpsOf(a, g))) ++overheadGapsWithAtenOps;
  EXPECT_GT(overheadGapsWithAtenOps, 10u);
  // Three ProfilerStep#N with their own figures; every launch found its work.
  EXPECT_EQ(a.steps.size(), 3u);
  EXPECT_GT(a.launchStats.count, 100u);
  EXPECT_EQ(a.launchStats.unmatched, 0u);
  EXPECT_GT(a.launchStats.shortKernels, 0u);
  expectConsistent(a, "split_stack_eager");
}

TEST(GapRealTraces, CombinedEagerKeepsTheGpuBusierThanSplitStack) {
  Trace split = load("h200/split_stack_eager.json");
  Trace combined = load("h200/combined_eager.json");
  GapAnalysis s = analyzeGaps(split);
  GapAnalysis c = analyzeGaps(combined);
  ASSERT_TRUE(c.hasGpuActivity);
  EXPECT_GT(c.verdict.utilization, s.verdict.utilization);
  EXPECT_LT(c.launchStats.count, s.launchStats.count);
  expectConsistent(c, "combined_eager");
}

TEST(GapRealTraces, EveryTestTraceIsAnalysedWithoutError) {
  std::size_t traces = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kData)) {
    std::string path = entry.path().string();
    bool json = path.size() > 5 && path.substr(path.size() - 5) == ".json";
    bool gz = path.size() > 8 && path.substr(path.size() - 8) == ".json.gz";
    if (!entry.is_regular_file() || !(json || gz) || path.find(".oracle.") != std::string::npos)
      continue;
    io::LoadResult r = io::loadChromeTrace(path);
    if (!r.trace) continue;  // the reader's own tests cover files it rejects
    GapAnalysis a = analyzeGaps(*r.trace);
    expectConsistent(a, path);
    for (const Gap& g : a.gaps) EXPECT_FALSE(explainGap(*r.trace, g).empty());
    ++traces;
  }
  EXPECT_GE(traces, 14u);
}

TEST(GapRealTraces, PublicTracesShowTheirLaunchKinds) {
  Trace triton = load("public/hta-triton-example/triton_example.json.gz");
  GapAnalysis a = analyzeGaps(triton);
  EXPECT_EQ(a.launchStats.byKind[static_cast<std::size_t>(LaunchKind::DriverKernel)], 1u);

  Trace alexnet = load("public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz");
  GapAnalysis b = analyzeGaps(alexnet);
  EXPECT_GT(b.launchStats.byKind[static_cast<std::size_t>(LaunchKind::Memcpy)], 0u);
  EXPECT_GT(b.launchStats.byKind[static_cast<std::size_t>(LaunchKind::Memset)], 0u);

  Trace cpuOnly = load("public/cat-unclosed-slices-array/main_thread_has_unclosed_slices.json");
  GapAnalysis c = analyzeGaps(cpuOnly);
  EXPECT_FALSE(c.hasGpuActivity);
  EXPECT_EQ(c.verdict.kind, VerdictKind::NoGpuActivity);
}

// PyTorch 1.9 (2021) wrote ProfilerStep#N as an "Operator" event, before
// Kineto's user_annotation category: those are the trace's steps, as the
// JSON lists them.
TEST(GapRealTraces, A2021KinetoTracesOperatorProfilerStepsAreItsSteps) {
  const std::string relative = "public/kineto-tb-resnet50-2021/worker0.1623143089861.pt.trace.json.gz";
  const auto json = nlohmann::json::parse(gapscope::testing::readMaybeGzipped(kData + "/" + relative));
  std::vector<std::pair<std::int64_t, TimeNs>> expected;  // (N, dur) by start
  std::vector<std::pair<TimeNs, std::size_t>> byStart;
  for (const auto& e : json.at("traceEvents")) {
    const std::string name = e.value("name", "");
    if (e.value("ph", "") != "X" || name.rfind("ProfilerStep#", 0) != 0) continue;
    EXPECT_EQ(e.value("cat", ""), "Operator");
    byStart.emplace_back(gapscope::testing::exactNs(e.at("ts")), expected.size());
    expected.emplace_back(std::stoll(name.substr(13)), gapscope::testing::exactNs(e.at("dur")));
  }
  std::sort(byStart.begin(), byStart.end());
  ASSERT_EQ(expected.size(), 6u);
  const Trace t = load(relative);
  const GapAnalysis a = analyzeGaps(t);
  EXPECT_EQ(a.stepSource, StepSource::ProfilerStep);
  ASSERT_EQ(a.steps.size(), expected.size());
  for (std::size_t i = 0; i < byStart.size(); ++i) {
    const auto& [number, dur] = expected[byStart[i].second];
    EXPECT_EQ(a.steps[i].number, number);
    EXPECT_EQ(a.steps[i].cpuNs(), dur) << number;
    EXPECT_GT(a.steps[i].kernels, 0u) << number;
  }
}

// A training script with no step marks (h100-user/, PROVENANCE.md), under
// torch.profiler without prof.step() and under gapscope's recorder: its
// steps are its 12 iterations, each from one of the data loader's next()
// calls to the next, as the JSON has them, and as long as the program timed
// them itself; the first, which holds CUDA's start-up, is a warm-up.
TEST(GapRealTraces, AnUnmarkedTrainingLoopsStepsAreItsIterations) {
  for (const std::string run : {"eager-torch", "compiled-torch", "eager-gapscope"}) {
    SCOPED_TRACE(run);
    const Trace t = load("h100-user/" + run + ".json.gz");
    const GapAnalysis a = analyzeGaps(t);
    const gapscope::testing::UnmarkedLoop json = gapscope::testing::unmarkedLoopFromJson(kData + "/h100-user/" + run + ".json.gz");
    const std::vector<double> own = gapscope::testing::programIterationsMs(kData + "/h100-user/iter_ms.txt", run);
    ASSERT_EQ(json.nextStarts.size(), 13u);  // 12 batches and the call that ends the loop
    ASSERT_EQ(own.size(), 12u);
    EXPECT_EQ(a.stepSource, StepSource::RepeatedAnnotation);
    EXPECT_EQ(t.str(a.stepName), gapscope::testing::kDataLoaderNext);
    ASSERT_EQ(a.steps.size(), 12u);  // the last next() launches nothing: it only ends step 12
    for (std::size_t i = 0; i < 12; ++i) {
      EXPECT_EQ(a.steps[i].cpuStart, json.nextStarts[i]) << i;
      EXPECT_EQ(a.steps[i].cpuEnd, json.nextStarts[i + 1]) << i;
      EXPECT_EQ(a.steps[i].kernels, json.kernels[i]) << i;
      EXPECT_EQ(a.steps[i].warmUp, i == 0) << i;
      // The program's own clock, from the top of its loop body: the same
      // period shifted by the batch's fetch, whose length varies, within half
      // a millisecond (0.25 at most on these runs; the first holds the
      // workers' start-up before the loop, the last the loop's end).
      if (i > 0 && i < 11) {
        EXPECT_NEAR(static_cast<double>(a.steps[i].cpuNs()) / 1e6, own[i], 0.5) << i;
      }
    }
  }
}

// gapscope's recorder files what PyTorch annotates and what it runs as
// torch.profiler does: the same user annotations, and operators whose names
// do not read as "ns::name" ("detach", the autograd engine's
// "evaluate_function: ..." wrappers) as operators, so they make no steps.
TEST(GapRealTraces, TheRecordersAnnotationsAndOperatorsAreTorchProfilers) {
  auto byKind = [](const Trace& t, SliceKind kind) {
    std::map<std::string, std::size_t> count;
    for (const Slice& s : t.slices)
      if (s.kind == kind) ++count[std::string(t.str(s.name))];
    return count;
  };
  const Trace recorded = load("h100-user/eager-gapscope.json.gz");
  const Trace profiled = load("h100-user/eager-torch.json.gz");
  const auto annotations = byKind(recorded, SliceKind::UserAnnotation);
  EXPECT_EQ(annotations, byKind(profiled, SliceKind::UserAnnotation));
  EXPECT_EQ(annotations.size(), 3u);
  const auto ops = byKind(recorded, SliceKind::CpuOp);
  const auto torchOps = byKind(profiled, SliceKind::CpuOp);
  for (const char* name : {"detach", "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
                           "autograd::engine::evaluate_function: AddmmBackward0"}) {
    ASSERT_TRUE(ops.count(name)) << name;
    EXPECT_EQ(ops.at(name), torchOps.at(name)) << name;
  }
}
