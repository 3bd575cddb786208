// The gap list as a user reads it (rankGaps): device gaps by their idle
// time, stream gaps only when asked for, each idle interval listed once,
// and a stream gap while another stream keeps the device busy ranked by
// the device idle it causes (none). And the step definition's fallback.
#include <gtest/gtest.h>

#include "gap_trace.h"
#include "random_gap_trace.h"
#include "gapscope/analysis/gap_histogram.h"
#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/io/chrome_reader.h"

using namespace gapscope;
using namespace gapscope::analysis;
using gapscope::gaps_test::GapTrace;
using gapscope::gaps_test::us;

namespace {

// Stream 8 runs a long kernel 0..100 us; stream 7 runs 0..10, 50..60 and
// 130..140. Stream 7's gap 10..50 falls while stream 8 keeps the device
// busy; its gap 60..130 holds the device gap 100..130.
Trace twoStreams() {
  GapTrace g;
  g.launch(us(0), us(1), 1).kernel("long", us(0), us(100), 1, 8);
  g.launch(us(0), us(1), 2).kernel("a", us(0), us(10), 2, 7);
  g.launch(us(45), us(1), 3).kernel("b", us(50), us(10), 3, 7);
  g.launch(us(125), us(1), 4).kernel("c", us(130), us(10), 4, 7);
  return g.finish();
}

}  // namespace

TEST(GapList, DeviceGapsOnlyByDefault) {
  const Trace t = twoStreams();
  const GpuBusy busy = computeGpuBusy(t);
  const GapAnalysis a = analyzeGaps(t, busy);
  const auto ranked = rankGaps(a, busy, {});
  ASSERT_EQ(ranked.size(), 1u);
  const Gap& g = a.gaps[ranked[0].gap];
  EXPECT_EQ(g.stream, -1);
  EXPECT_EQ(g.start, us(100));
  EXPECT_EQ(g.dur, us(30));
  EXPECT_EQ(ranked[0].deviceIdle, us(30));
}

TEST(GapList, StreamGapsRankByTheDeviceIdleInsideThem) {
  const Trace t = twoStreams();
  const GpuBusy busy = computeGpuBusy(t);
  const GapAnalysis a = analyzeGaps(t, busy);
  GapListOptions withStreams;
  withStreams.streams = true;
  const auto ranked = rankGaps(a, busy, withStreams);
  ASSERT_EQ(ranked.size(), 3u);
  // The device gap first; then stream 7's 60..130 (70 us long, 30 us of it
  // device idle); last its 10..50, while stream 8 ran: no device idle.
  EXPECT_EQ(a.gaps[ranked[0].gap].stream, -1);
  EXPECT_EQ(a.gaps[ranked[1].gap].start, us(60));
  EXPECT_EQ(ranked[1].deviceIdle, us(30));
  EXPECT_FALSE(ranked[1].deviceBusy());
  EXPECT_EQ(a.gaps[ranked[2].gap].start, us(10));
  EXPECT_EQ(a.gaps[ranked[2].gap].dur, us(40));
  EXPECT_EQ(ranked[2].deviceIdle, 0);
  EXPECT_TRUE(ranked[2].deviceBusy());
}

TEST(GapList, AStreamGapThatIsTheDeviceGapIsListedOnce) {
  GapTrace g;  // one stream: every stream gap is a device gap
  g.launch(us(0), us(1), 1).kernel("a", us(2), us(5), 1);
  g.launch(us(20), us(1), 2).kernel("b", us(22), us(5), 2);
  g.launch(us(40), us(1), 3).kernel("c", us(60), us(5), 3);
  const Trace t = g.finish();
  const GpuBusy busy = computeGpuBusy(t);
  const GapAnalysis a = analyzeGaps(t, busy);
  EXPECT_EQ(a.gaps.size(), 4u);  // two device gaps and the same two on the stream
  GapListOptions withStreams;
  withStreams.streams = true;
  const auto ranked = rankGaps(a, busy, withStreams);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(a.gaps[ranked[0].gap].dur, us(33));  // 27..60, largest first
  EXPECT_EQ(a.gaps[ranked[1].gap].dur, us(15));  // 7..22
  withStreams.minGapNs = us(20);
  EXPECT_EQ(rankGaps(a, busy, withStreams).size(), 1u);
  withStreams.minGapNs = 0;
  withStreams.durationRange = std::pair<TimeNs, TimeNs>{us(10), us(20)};
  ASSERT_EQ(rankGaps(a, busy, withStreams).size(), 1u);
}

namespace {

// Every mix of the list's options: with and without stream gaps, a
// shortest gap, a histogram bin and a time range.
std::vector<GapListOptions> optionMixes(const GapAnalysis& a) {
  TimeNs first = 0, last = 0;
  for (const Gap& g : a.gaps) {
    first = first == 0 ? g.start : std::min(first, g.start);
    last = std::max(last, g.end());
  }
  std::vector<GapListOptions> mixes;
  for (bool streams : {false, true})
    for (TimeNs minGap : {TimeNs{0}, us(2)})
      for (bool bin : {false, true})
        for (bool range : {false, true}) {
          GapListOptions o;
          o.streams = streams;
          o.minGapNs = minGap;
          if (bin) o.durationRange = std::pair<TimeNs, TimeNs>{us(1), us(20)};
          if (range) o.timeRange = TimeRange{first + (last - first) / 3, first + (last - first) * 2 / 3};
          mixes.push_back(o);
        }
  return mixes;
}

// The app's way (rank every gap once, then keep what the options keep)
// lists exactly what rankGaps lists, in the same order.
void expectListedAsRanked(const Trace& t, const std::string& what) {
  const GpuBusy busy = computeGpuBusy(t);
  const GapAnalysis a = analyzeGaps(t, busy);
  for (int threads : {1, 3}) {
    const std::vector<RankedGap> all = rankAllGaps(a, busy, threads);
    for (const GapListOptions& o : optionMixes(a)) {
      const std::vector<RankedGap> ranked = rankGaps(a, busy, o);
      const std::vector<RankedGap> listed = listRanked(a, all, o);
      ASSERT_EQ(listed.size(), ranked.size()) << what << " streams " << o.streams;
      for (std::size_t i = 0; i < ranked.size(); ++i) {
        ASSERT_EQ(listed[i].gap, ranked[i].gap) << what << " row " << i;
        ASSERT_EQ(listed[i].deviceIdle, ranked[i].deviceIdle) << what << " row " << i;
      }
    }
  }
}

}  // namespace

TEST(GapList, RankedOnceThenFilteredIsTheListOfEveryOptionMix) {
  // Random traces: several devices and streams, whole-microsecond times on
  // half of them (ties in every key), and one big enough to sort on threads.
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    expectListedAsRanked(gaps_test::RandomGapTrace(seed, 300 + static_cast<int>(seed * 97)).build(),
                         "seed " + std::to_string(seed));
  }
  expectListedAsRanked(gaps_test::RandomGapTrace(99, 70000).build(), "seed 99, 70000 launches");
  // Real traces (tests/data/PROVENANCE.md).
  for (const char* file : {"h200/split_stack_eager.json", "h100/block_eager.json", "h100/block_cudagraph.json"}) {
    io::LoadResult r = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + file);
    ASSERT_TRUE(r.trace) << file;
    expectListedAsRanked(*r.trace, file);
  }
}

TEST(Steps, ARepeatedTopLevelAnnotationIsTheStepWithoutProfilerSteps) {
  GapTrace g;
  for (int i = 0; i < 3; ++i) {
    const TimeNs at = us(100) * i;
    g.cpu("train_step", at, us(50), "user_annotation");
    g.cpu("forward", at + us(1), us(20), "user_annotation");  // nested: not top-level
    g.launch(at + us(2), us(1), 10 + i).kernel("k", at + us(5), us(3), 10 + i);
    g.launch(at + us(4), us(1), 20 + i).kernel("k", at + us(9), us(3), 20 + i);
  }
  g.cpu("setup", us(400), us(5), "user_annotation");  // top-level but once
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  EXPECT_EQ(steps.source, StepSource::RepeatedAnnotation);
  EXPECT_EQ(t.str(steps.name), "train_step");
  // From one occurrence to the next, as ProfilerStep#N runs from one
  // prof.step() to the next; the last occurrence only ends the step before.
  ASSERT_EQ(steps.slices.size(), 2u);
  ASSERT_EQ(steps.spans.size(), 2u);
  EXPECT_EQ(steps.spans[0].start, 0);
  EXPECT_EQ(steps.spans[0].end, us(100));
  EXPECT_EQ(steps.spans[1].end, us(200));
  const GapAnalysis a = analyzeGaps(t);
  EXPECT_EQ(a.stepSource, StepSource::RepeatedAnnotation);
  ASSERT_EQ(a.steps.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.steps[i].number, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(a.steps[i].kernels, 2u);
    EXPECT_EQ(a.steps[i].launches, 2u);
    EXPECT_EQ(a.steps[i].cpuNs(), us(100));
  }
}

namespace {

// An unmarked training loop as torch.profiler (without prof.step()) or
// gapscope's recorder see it: per iteration the data loader's next() at the
// top, zero_grad, `launches` kernels, then the optimizer's step with one
// kernel of its own; one more next() ends the loop (StopIteration).
GapTrace unmarkedLoop(int iterations, int launches, TimeNs period) {
  GapTrace g;
  std::int64_t corr = 1;
  for (int i = 0; i < iterations; ++i) {
    const TimeNs at = period * i;
    g.cpu("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", at, us(30), "user_annotation");
    g.cpu("Optimizer.zero_grad#AdamW.zero_grad", at + us(40), us(5), "user_annotation");
    for (int k = 0; k < launches; ++k, ++corr)
      g.launch(at + us(50) + us(10) * k, us(2), corr).kernel("k", at + us(53) + us(10) * k, us(4), corr);
    const TimeNs stepAt = at + us(50) + us(10) * launches;
    g.cpu("Optimizer.step#AdamW.step", stepAt, us(20), "user_annotation");
    g.launch(stepAt + us(5), us(2), corr).kernel("adam", stepAt + us(8), us(4), corr);
    ++corr;
  }
  g.cpu("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", period * iterations, us(30),
        "user_annotation");
  return g;
}

}  // namespace

TEST(Steps, AnUnmarkedLoopsStepsAreItsIterations) {
  const TimeNs period = us(1000);
  const Trace t = unmarkedLoop(5, 20, period).finish();
  const StepAnnotations steps = findSteps(t);
  ASSERT_EQ(steps.source, StepSource::RepeatedAnnotation);
  // zero_grad and the optimizer's step would give 4 steps (their last
  // occurrence holds less than an iteration); the data loader's next()
  // gives all 5, and its last call, which launches nothing, only ends the
  // fifth.
  EXPECT_EQ(t.str(steps.name), "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  ASSERT_EQ(steps.spans.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(steps.spans[i].start, period * static_cast<TimeNs>(i));
    EXPECT_EQ(steps.spans[i].duration(), period);
  }
  const GapAnalysis a = analyzeGaps(t);
  ASSERT_EQ(a.steps.size(), 5u);
  for (const StepStats& s : a.steps) {
    EXPECT_EQ(s.kernels, 21u);
    EXPECT_EQ(s.launches, 21u);
    EXPECT_EQ(s.cpuNs(), period);
  }
}

TEST(Steps, AnnotationsRepeatedInABurstOrPerLayerDoNotMakeSteps) {
  const TimeNs period = us(1000);
  GapTrace g = unmarkedLoop(4, 20, period);
  // torch.compile's autotuning: 30 annotations in a burst before the loop.
  for (int i = 0; i < 30; ++i) g.cpu("StaticAutotunerFuture.warm_precompile_data", -us(900) + us(20) * i, us(10), "user_annotation");
  g.launch(-us(500), us(2), 9000).kernel("autotune", -us(497), us(4), 9000);
  // A user annotation around each of 4 layers in every iteration's launches.
  for (int i = 0; i < 4; ++i)
    for (int layer = 0; layer < 4; ++layer)
      g.cpu("layer", period * i + us(48) + us(50) * layer, us(45), "user_annotation");
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  EXPECT_EQ(t.str(steps.name), "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  EXPECT_EQ(steps.spans.size(), 4u);
}

TEST(Steps, OfTwoMarkersOfTheSameIterationsTheFirstInTheLoopWins) {
  GapTrace g;
  std::int64_t corr = 1;
  for (int i = 0; i < 3; ++i) {
    const TimeNs at = us(100) * i;
    g.cpu("Optimizer.zero_grad#SGD.zero_grad", at, us(2), "user_annotation");
    g.launch(at + us(10), us(2), corr).kernel("k", at + us(13), us(4), corr);
    ++corr;
    g.cpu("Optimizer.step#SGD.step", at + us(50), us(2), "user_annotation");
    g.launch(at + us(60), us(2), corr).kernel("k", at + us(63), us(4), corr);
    ++corr;
  }
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  // Both make 2 steps of 100 us holding 4 kernels: the one that starts
  // first, the top of the loop.
  EXPECT_EQ(t.str(steps.name), "Optimizer.zero_grad#SGD.zero_grad");
  ASSERT_EQ(steps.spans.size(), 2u);
  EXPECT_EQ(steps.spans[1].end, us(200));
}

TEST(Steps, WithoutGpuWorkAStepHoldsItsTime) {
  GapTrace g;
  for (int i = 0; i < 3; ++i) g.cpu("iteration", us(100) * i, us(90), "user_annotation");
  for (int i = 0; i < 12; ++i) g.cpu("tick", us(400) + us(10) * i, us(1), "user_annotation");
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  // "tick" holds 110 us of time, "iteration" 200: the iteration wins.
  EXPECT_EQ(t.str(steps.name), "iteration");
  ASSERT_EQ(steps.spans.size(), 2u);
  EXPECT_EQ(steps.spans[1].duration(), us(100));
}

TEST(Steps, ARangeEveryFifthIterationOrAroundTheLoopIsNotTheIteration) {
  const TimeNs period = us(1000);
  GapTrace g = unmarkedLoop(20, 20, period);
  for (int i = 0; i < 20; i += 5) g.cpu("log_metrics", period * i + us(35), us(3), "user_annotation");
  g.cpu("evaluate", -us(500), us(100), "user_annotation");
  g.cpu("evaluate", period * 20 + us(100), us(100), "user_annotation");
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  EXPECT_EQ(t.str(steps.name), "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  EXPECT_EQ(steps.spans.size(), 20u);
}

TEST(Steps, ForwardBackwardAndOptimizerRangesGiveStepsFromTheTopOfTheLoop) {
  GapTrace g;  // zero_grad, then record_function forward, backward, optimizer; no data loader
  std::int64_t corr = 1;
  for (int i = 0; i < 10; ++i) {
    const TimeNs at = us(1000) * i;
    g.cpu("Optimizer.zero_grad#SGD.zero_grad", at, us(5), "user_annotation");
    const char* phases[] = {"forward", "backward", "optimizer"};
    const int kernels[] = {20, 40, 4};
    TimeNs from = at + us(10);
    for (int p = 0; p < 3; ++p) {
      g.cpu(phases[p], from, us(10) * kernels[p] + us(5), "user_annotation");
      for (int k = 0; k < kernels[p]; ++k, ++corr)
        g.launch(from + us(10) * k + us(1), us(2), corr).kernel("k", from + us(10) * k + us(4), us(3), corr);
      from += us(10) * kernels[p] + us(10);
    }
  }
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  // Every name gives 9 steps of one iteration each: zero_grad's start the loop's body.
  EXPECT_EQ(t.str(steps.name), "Optimizer.zero_grad#SGD.zero_grad");
  ASSERT_EQ(steps.spans.size(), 9u);
  EXPECT_EQ(steps.spans[0].start, 0);
}

TEST(Steps, EachProcessesLoopIsItsOwnAndTwinsAtOneInstantAreOne) {
  GapTrace g;  // two processes, each running the same loop half a period apart
  std::int64_t corr = 1;
  for (int i = 0; i < 10; ++i) {
    for (std::int64_t pid : {1, 2}) {
      const TimeNs at = us(1000) * i + (pid == 2 ? us(300) : 0);
      g.cpuIn(pid, 1, "train_step", at, us(100), "user_annotation");
      g.launch(at + us(10), us(2), corr).kernel("k", at + us(14), us(3), corr);
      ++corr;
    }
    // A zero-length mark written twice at one instant, on two threads of process 3.
    g.cpuIn(3, 1, "tick", us(1000) * i + us(500), 0, "user_annotation");
    g.cpuIn(3, 2, "tick", us(1000) * i + us(500), 0, "user_annotation");
  }
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  ASSERT_EQ(steps.spans.size(), 9u);
  for (const TimeRange& span : steps.spans) EXPECT_EQ(span.duration(), us(1000));
}

// DDP all-reduces one gradient bucket at a time from the autograd thread,
// where nothing encloses them: two collective calls an iteration (NCCL's
// ncclAllReduce, c10d's nccl:all_reduce) would cut each iteration in two.
TEST(Steps, CollectiveCallsAreNeverTheIterationMarker) {
  for (const char* collective : {"ncclAllReduce", "nccl:all_reduce"}) {
    SCOPED_TRACE(collective);
    GapTrace g;
    std::int64_t corr = 1;
    for (int i = 0; i < 10; ++i) {
      const TimeNs at = us(1000) * i;
      g.cpuIn(1, 1, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", at, us(20), "user_annotation");
      for (int k = 0; k < 20; ++k, ++corr)
        g.launch(at + us(30) + us(20) * k, us(2), corr).kernel("k", at + us(34) + us(20) * k, us(3), corr);
      // One bucket's all-reduce mid-way through the kernels, the other's after them: each half
      // of the iteration then holds as much work as the other.
      for (int bucket = 0; bucket < 2; ++bucket) {
        const TimeNs reduce = at + us(235) + us(220) * bucket;
        g.cpuIn(1, 2, collective, reduce, us(50), "user_annotation");
        g.launch(reduce + us(5), us(2), corr).kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", reduce + us(9), us(30), corr);
        ++corr;
      }
    }
    const Trace t = g.finish();
    const StepAnnotations steps = findSteps(t);
    EXPECT_EQ(t.str(steps.name), "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
    ASSERT_EQ(steps.spans.size(), 9u);
    for (const TimeRange& span : steps.spans) EXPECT_EQ(span.duration(), us(1000));
  }
}

TEST(Steps, ProfilerStepsWinAndNoAnnotationMeansNoSteps) {
  GapTrace g;
  g.cpu("ProfilerStep#7", 0, us(50), "user_annotation");
  g.cpu("train_step", us(1), us(10), "user_annotation");
  g.cpu("train_step", us(20), us(10), "user_annotation");
  const Trace t = g.finish();
  const StepAnnotations steps = findSteps(t);
  EXPECT_EQ(steps.source, StepSource::ProfilerStep);
  ASSERT_EQ(steps.slices.size(), 1u);
  EXPECT_EQ(profilerStepNumber("ProfilerStep#7"), 7);
  GapTrace none;
  none.cpu("aten::mm", 0, us(5));
  EXPECT_EQ(findSteps(none.finish()).source, StepSource::WholeTrace);
}

TEST(GapHistogram, BinsHoldTheDeviceGapsAndTheirIdleTimeByCause) {
  GapTrace g;  // device gaps of 3, 4, 30 and 300 us, launch overhead
  TimeNs at = 0;
  std::int64_t corr = 1;
  for (TimeNs gapUs : {3, 4, 30, 300, 0}) {
    g.launch(at, us(1), corr).kernel("k", at + us(2), us(5), corr);
    at += us(7) + us(gapUs) - us(2);
    ++corr;
  }
  const Trace t = g.finish();
  const GapAnalysis a = analyzeGaps(t);
  const GapHistogram h = deviceGapHistogram(a, 0);
  std::uint64_t gaps = 0;
  TimeNs idle = 0;
  for (std::size_t b = 0; b < h.bins.bins(); ++b) {
    gaps += h.gapsIn(b);
    idle += h.idleIn(b);
    EXPECT_EQ(h.idleIn(b), h.idleNs[b][static_cast<std::size_t>(GapCause::LaunchOverhead)]);
  }
  EXPECT_EQ(gaps, 4u);
  EXPECT_EQ(idle, us(3 + 4 + 30 + 300));
  // 300 us lies in the 200-500 us bin and holds most idle time alone.
  const std::size_t big = h.bins.binOf(us(300));
  EXPECT_EQ(h.bins.lo[big], us(200));
  EXPECT_EQ(h.gapsIn(big), 1u);
  EXPECT_EQ(h.idleIn(big), us(300));
  EXPECT_EQ(deviceGapHistogram(a, us(10)).bins.lo.front(), us(20));  // the minimum leaves short gaps out
}
