// TraceAnalysis: each part computed once, on first use, shared after that;
// its parts are the single-trace analyses' own results.
#include "gapscope/analysis/trace_analysis.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

using testing::TraceMaker;

std::shared_ptr<const Trace> launchLoop() {
  TraceMaker m;
  for (int i = 0; i < 20; ++i) {
    const TimeNs t = i * 1000;
    m.cpu("aten::relu", "cpu_op", t, 600).launch(t + 100, 300, i + 1);
    m.kernel("relu_kernel", t + 500, 200, i + 1, 7 + i % 2);
  }
  return std::make_shared<const Trace>(m.finish());
}

TEST(TraceAnalysis, ComputesEachPartOnceOnFirstUse) {
  TraceAnalysis a(launchLoop());
  EXPECT_EQ(a.partsComputed(), 0);
  const GapAnalysis* gaps = &a.gaps();  // needs the busy time first
  EXPECT_EQ(a.partsComputed(), 2);
  EXPECT_EQ(&a.gaps(), gaps);
  EXPECT_EQ(a.partsComputed(), 2);
  a.computeAll();
  EXPECT_EQ(a.partsComputed(), 6);  // all but the call tree
  a.computeAll();
  a.ops();
  a.kernels();
  a.summary();
  EXPECT_EQ(a.partsComputed(), 6);
}

// The gap list's ranking: left out of computeAll, made once when asked,
// and rankAllGaps' own result.
TEST(TraceAnalysis, RanksTheGapsOnceWhenAsked) {
  TraceAnalysis a(launchLoop());
  a.computeAll();
  EXPECT_EQ(a.partsComputed(), 6);
  const std::vector<RankedGap>* ranked = &a.rankedGaps();
  EXPECT_EQ(a.partsComputed(), 7);
  EXPECT_EQ(&a.rankedGaps(), ranked);
  EXPECT_EQ(a.partsComputed(), 7);
  const std::vector<RankedGap> direct = rankAllGaps(a.gaps(), a.busy());
  ASSERT_EQ(ranked->size(), direct.size());
  ASSERT_FALSE(direct.empty());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    EXPECT_EQ((*ranked)[i].gap, direct[i].gap);
    EXPECT_EQ((*ranked)[i].deviceIdle, direct[i].deviceIdle);
  }
}

TEST(TraceAnalysis, ManyThreadsAskingGetOneResult) {
  TraceAnalysis a(launchLoop());
  std::vector<const GapAnalysis*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = &a.gaps(); });
  for (auto& t : threads) t.join();
  for (const GapAnalysis* g : seen) EXPECT_EQ(g, seen[0]);
  EXPECT_EQ(a.partsComputed(), 2);
}

TEST(TraceAnalysis, PartsEqualTheSingleTraceAnalyses) {
  const auto trace = launchLoop();
  AnalysisOptions options;
  options.gaps.minGapNs = 50;
  TraceAnalysis a(trace, options);
  a.computeAll();
  const GapAnalysis alone = analyzeGaps(*trace, options.gaps);
  ASSERT_EQ(a.gaps().gaps.size(), alone.gaps.size());
  for (std::size_t i = 0; i < alone.gaps.size(); ++i) {
    EXPECT_EQ(a.gaps().gaps[i].start, alone.gaps[i].start);
    EXPECT_EQ(a.gaps().gaps[i].dur, alone.gaps[i].dur);
    EXPECT_EQ(a.gaps().gaps[i].cause, alone.gaps[i].cause);
  }
  EXPECT_EQ(a.gaps().verdict.line, alone.verdict.line);
  EXPECT_EQ(a.ops().rows.size(), buildOpTable(*trace).rows.size());
  EXPECT_EQ(a.kernels().rows.size(), buildKernelTable(*trace).rows.size());
  EXPECT_EQ(a.summary().kernels, 20u);
  // One busy definition: the gap analysis' busy time is GpuBusy's.
  ASSERT_EQ(a.gaps().devices.size(), a.busy().devices.size());
  for (std::size_t d = 0; d < a.busy().devices.size(); ++d) {
    EXPECT_EQ(a.gaps().devices[d].busyNs, a.busy().devices[d].busy);
    EXPECT_EQ(a.gaps().devices[d].activeNs(), a.busy().devices[d].activeNs());
  }
  ASSERT_EQ(a.gaps().streams.size(), a.busy().streams.size());
  for (std::size_t s = 0; s < a.busy().streams.size(); ++s)
    EXPECT_EQ(a.gaps().streams[s].busyNs, a.busy().streams[s].busy);
}

}  // namespace
}  // namespace gapscope::analysis
