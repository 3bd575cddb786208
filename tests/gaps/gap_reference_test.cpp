// analyzeGaps against the straightforward reference (gap_reference.h) on
// random traces of every shape, on one big enough for two threads, and on
// the real traces: every figure, every gap and its CPU ops must agree.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "gap_reference.h"
#include "gapscope/io/chrome_reader.h"
#include "gap_trace.h"
#include "random_gap_trace.h"

using namespace gapscope;
using namespace gapscope::analysis;
using gapscope::gaps_test::referenceGaps;

namespace {

std::string str(const UtilizationStats& s) {
  std::ostringstream o;
  o << "device " << s.device << " stream " << s.stream << " active " << s.activeStart << ".."
    << s.activeEnd << " busy " << s.busyNs << " idle";
  for (TimeNs v : s.idle.ns) o << ' ' << v;
  o << " hta " << s.hta.hostWait << ' ' << s.hta.kernelWait << ' ' << s.hta.other << " ops "
    << s.gpuOps << " gaps " << s.gapCount;
  return o.str();
}

std::string str(const Gap& g) {
  std::ostringstream o;
  o << "gap device " << g.device << " stream " << g.stream << " at " << g.start << " +" << g.dur
    << " cause " << gapCauseName(g.cause) << " hta " << htaIdleKindName(g.hta) << " before "
    << g.before << " after " << g.after << " launch " << g.launch << " sync " << g.syncCall
    << " thread " << g.launchTrack;
  return o.str();
}

std::string str(const std::vector<CpuOpBlame>& ops) {
  std::ostringstream o;
  for (const auto& op : ops) o << (op.isUntraced ? "(untraced)" : std::to_string(op.name)) << '=' << op.selfNs << ' ';
  return o.str();
}

std::string str(const LaunchInfo& l) {
  std::ostringstream o;
  o << "launch " << l.call << " first " << l.firstOp << " ops " << l.opCount << " kind "
    << launchKindName(l.kind) << " short " << l.shortKernel << " outlier " << l.outlier << " launch "
    << l.launchNs << " queue " << l.queueNs << " gpu " << l.gpuNs;
  return o.str();
}

std::string str(const LaunchStats& s) {
  std::ostringstream o;
  o << s.count << ' ' << s.unmatched << ' ' << s.shortKernels << ' ' << s.outliers << " kinds";
  for (auto k : s.byKind) o << ' ' << k;
  for (const Distribution* d : {&s.launchNs, &s.queueNs})
    o << " | " << d->count << ' ' << d->median << ' ' << d->p90 << ' ' << d->max;
  return o.str();
}

template <typename A, typename B, typename Str>
bool sameLists(const std::vector<A>& got, const std::vector<B>& want, Str&& toText, const std::string& what) {
  if (got.size() != want.size()) {
    ADD_FAILURE() << what << ": " << got.size() << " entries, the reference has " << want.size();
    return false;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (toText(got[i]) != toText(want[i])) {
      ADD_FAILURE() << what << " #" << i << ":\n  got       " << toText(got[i]) << "\n  reference "
                    << toText(want[i]);
      return false;
    }
  }
  return true;
}

void expectSameAsReference(const Trace& t, const GapOptions& options, const std::string& what) {
  SCOPED_TRACE(what);
  GapAnalysis a = analyzeGaps(t, options);
  gaps_test::ReferenceAnalysis r = referenceGaps(t, options);
  ASSERT_EQ(a.hasGpuActivity, r.hasGpuActivity);
  auto statsText = [](const UtilizationStats& s) { return str(s); };
  sameLists(a.devices, r.devices, statsText, "devices");
  sameLists(a.streams, r.streams, statsText, "streams");
  std::vector<std::string> gotGaps, wantGaps;
  for (const Gap& g : a.gaps) gotGaps.push_back(str(g) + " ops " + str(cpuOpsOf(a, g)));
  for (const auto& g : r.gaps) wantGaps.push_back(str(g.gap) + " ops " + str(g.cpuOps));
  sameLists(gotGaps, wantGaps, [](const std::string& s) { return s; }, "gaps");
  EXPECT_EQ(a.unlistedGaps, r.unlistedGaps);
  EXPECT_EQ(str(a.overheadCpuOps), str(r.overheadCpuOps));
  EXPECT_EQ(str(a.launchStats), str(r.launchStats));
  sameLists(a.launches, r.launches, [](const LaunchInfo& l) { return str(l); }, "launches");
  ASSERT_EQ(a.steps.size(), r.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    EXPECT_EQ(a.steps[i].name, r.steps[i].name);
    EXPECT_EQ(a.steps[i].number, r.steps[i].number);
    EXPECT_EQ(a.steps[i].annotation, r.steps[i].annotation);
    EXPECT_EQ(a.steps[i].cpuNs(), r.steps[i].cpuNs);
    EXPECT_EQ(a.steps[i].warmUp, r.steps[i].warmUp);
    sameLists(a.steps[i].devices, r.steps[i].devices, statsText, "step " + std::to_string(i));
  }
  EXPECT_EQ(a.verdict.kind, r.verdict);
  EXPECT_EQ(a.verdict.utilization, r.utilization);
  EXPECT_EQ(a.verdict.estimatedSavingNs, r.estimatedSavingNs);
  EXPECT_EQ(a.notes, r.notes);
}

std::vector<std::pair<std::string, GapOptions>> optionSets() {
  std::vector<std::pair<std::string, GapOptions>> sets;
  sets.emplace_back("defaults", GapOptions{});
  GapOptions all;
  all.minGapNs = 0;
  all.maxCpuOpsPerGap = 0;
  all.threads = 1;
  sets.emplace_back("every gap listed, every CPU op", all);
  GapOptions coarse;
  coarse.minGapNs = 5000;
  coarse.maxCpuOpsPerGap = 2;
  coarse.syncSlackNs = 0;
  coarse.htaKernelWaitNs = 3000;
  sets.emplace_back("min gap 5 us, 2 CPU ops", coarse);
  GapOptions totals;
  totals.blameCpuOps = false;
  totals.keepLaunches = false;
  totals.perStep = false;
  sets.emplace_back("totals only", totals);
  return sets;
}

}  // namespace

TEST(GapReference, RandomTracesOfEveryShapeMatchTheReference) {
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    Trace t = gaps_test::RandomGapTrace(seed, 10 + static_cast<int>((seed * 37) % 400)).build();
    for (const auto& [name, options] : optionSets())
      expectSameAsReference(t, options, "seed " + std::to_string(seed) + ", " + name);
    if (HasFailure()) return;  // one trace's differences are enough to read
  }
}

// Big enough (over 131072 slices) for the analysis to use two threads.
TEST(GapReference, BigRandomTraceMatchesTheReferenceOnOneAndTwoThreads) {
  Trace t = gaps_test::RandomGapTrace(2024, 45000).build();
  ASSERT_GE(t.slices.size(), 131072u);
  GapOptions two;
  expectSameAsReference(t, two, "two threads");
  GapOptions one;
  one.threads = 1;
  expectSameAsReference(t, one, "one thread");
}

TEST(GapReference, AWarmUpFirstStepIsLeftOutOfTheVerdictAsInTheReference) {
  using gaps_test::GapTrace;
  using gaps_test::us;
  GapTrace g;  // step 1 lasts 1000 us with 880 us of launch overhead; steps 2-4 100 us
  std::int64_t corr = 1;
  g.cpu("ProfilerStep#1", 0, us(1000), "user_annotation");
  g.launch(us(10), us(5), corr).kernel("k", us(16), us(4), corr);
  ++corr;
  g.cpu("aten::slow_start", us(30), us(860));
  g.launch(us(900), us(5), corr).kernel("k", us(906), us(4), corr);
  ++corr;
  for (int i = 1; i < 4; ++i) {
    const TimeNs at = us(1000) + us(100) * (i - 1);
    g.cpu("ProfilerStep#" + std::to_string(i + 1), at, us(100), "user_annotation");
    g.launch(at + us(10), us(5), corr).kernel("k", at + us(16), us(4), corr);
    ++corr;
    g.launch(at + us(40), us(5), corr).kernel("k", at + us(46), us(4), corr);
    ++corr;
  }
  const Trace t = g.finish();
  const GapAnalysis a = analyzeGaps(t);
  ASSERT_EQ(a.steps.size(), 4u);
  EXPECT_TRUE(a.steps[0].warmUp);
  EXPECT_FALSE(a.steps[1].warmUp);
  // The verdict's saving is the launch-overhead idle of steps 2 to 4 alone.
  TimeNs later = 0;
  for (std::size_t i = 1; i < 4; ++i)
    for (const auto& d : a.steps[i].devices) later += d.idle[GapCause::LaunchOverhead];
  EXPECT_EQ(a.verdict.estimatedSavingNs, later);
  EXPECT_LT(later, us(300));
  ASSERT_FALSE(a.notes.empty());
  EXPECT_EQ(a.notes.back().rfind("the first step lasted ", 0), 0u) << a.notes.back();
  expectSameAsReference(t, GapOptions{}, "warm-up");
}

TEST(GapReference, RealTracesMatchTheReference) {
  for (const char* path : {"h200/split_stack_eager.json", "h200/combined_eager.json", "h200/mlp_eager.json",
                           "public/hta-event-sync-multistream/event_sync_trace.json.gz",
                           "public/hta-triton-example/triton_example.json.gz"}) {
    io::LoadResult loaded = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + path);
    ASSERT_TRUE(loaded.ok() && loaded.trace) << path << ": " << loaded.error;
    expectSameAsReference(*loaded.trace, GapOptions{}, path);
    GapOptions all;
    all.minGapNs = 0;
    all.maxCpuOpsPerGap = 0;
    expectSameAsReference(*loaded.trace, all, std::string(path) + ", every gap listed");
  }
}
