// Busy/idle totals, HTA's split, thresholds, launch statistics, steps,
// verdicts and the no-GPU cases.
#include <gtest/gtest.h>

#include <string>

#include "gap_trace.h"
#include "gapscope/analysis/gaps.h"

using namespace gapscope;
using namespace gapscope::analysis;
using gapscope::gaps_test::GapTrace;
using gapscope::gaps_test::us;

namespace {

void expectRowsAddUp(const GapAnalysis& a) {
  auto check = [](const UtilizationStats& s) {
    EXPECT_EQ(s.busyNs + s.idle.total(), s.activeNs()) << "device " << s.device << " stream " << s.stream;
    EXPECT_EQ(s.hta.total(), s.idleNs()) << "device " << s.device << " stream " << s.stream;
  };
  for (const auto& d : a.devices) check(d);
  for (const auto& s : a.streams) check(s);
  for (const auto& step : a.steps)
    for (const auto& d : step.devices) check(d);
}

// k1 launched at 1 runs 7..10; k2 launched at 19 runs 25..30: one 15 us
// launch-overhead gap in a 23 us window.
Trace overheadTrace() {
  GapTrace g;
  g.cpu("aten::a", us(0), us(8)).launch(us(1), us(5), 1).kernel("k1", us(7), us(3), 1);
  g.cpu("aten::b", us(12), us(18)).launch(us(19), us(6), 2).kernel("k2", us(25), us(5), 2);
  return g.finish();
}

}  // namespace

TEST(GapNoGpu, CpuOnlyTraceIsNoGpuActivityNotAnError) {
  GapTrace g;
  g.cpu("aten::add", 0, 1000).launch(100, 200, 1);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  EXPECT_FALSE(a.hasGpuActivity);
  EXPECT_TRUE(a.devices.empty());
  EXPECT_TRUE(a.gaps.empty());
  EXPECT_EQ(a.verdict.kind, VerdictKind::NoGpuActivity);
  EXPECT_EQ(a.verdict.line, "no GPU activity: the trace has no kernel, memcpy or memset events");
  GapSummary s = summarizeGaps(t, computeGpuBusy(t));
  EXPECT_FALSE(s.hasGpuActivity);
  EXPECT_EQ(s.verdict, a.verdict.line);
}

TEST(GapNoGpu, EmptyTraceAndAnnotationOnlyTraceAreNoGpuActivity) {
  Trace empty = GapTrace().finish();
  EXPECT_EQ(analyzeGaps(empty).verdict.kind, VerdictKind::NoGpuActivity);
  GapTrace g;
  g.gpu("ProfilerStep#1", "gpu_user_annotation", 0, us(50), kNoCorrelation);
  Trace annotations = g.finish();
  GapAnalysis a = analyzeGaps(annotations);
  EXPECT_FALSE(a.hasGpuActivity);
  EXPECT_EQ(a.verdict.kind, VerdictKind::NoGpuActivity);
}

// The verdict speaks of the active window; where that is under a tenth of
// the trace, it says how little of the trace the GPU worked in.
TEST(GapVerdict, SaysWhenTheGpuWorkedInASliverOfTheTrace) {
  GapTrace g;
  g.cpu("train", 0, us(1000));
  g.launch(us(10), us(1), 1).kernel("k", us(12), us(2), 1);
  g.launch(us(20), us(1), 2).kernel("k", us(22), us(2), 2);  // active window 12..24 us: 12 us of 1 ms
  const GapAnalysis a = analyzeGaps(g.finish());
  EXPECT_EQ(a.traceSpanNs, us(1000));
  EXPECT_NE(a.verdict.line.find("; but the GPU had work only within 12 µs of the 1 ms trace"), std::string::npos)
      << a.verdict.line;
  GapTrace busy;  // the active window is a tenth of the trace: nothing to add
  busy.cpu("train", 0, us(120));
  busy.launch(us(10), us(1), 1).kernel("k", us(12), us(6), 1);
  busy.launch(us(20), us(1), 2).kernel("k", us(18), us(6), 2);
  const GapAnalysis b = analyzeGaps(busy.finish());
  EXPECT_EQ(b.verdict.line.find("had work only"), std::string::npos) << b.verdict.line;
}

// With steps the verdict is theirs: the start-up before the first step
// (here a copy and 1 ms of idle) is left out; steps that launch nothing
// leave it to the whole trace.
TEST(GapVerdict, IsOverTheStepsGpuWindowsWhenTheTraceHasSteps) {
  GapTrace g;
  g.launch(us(0), us(1), 1).kernel("setup", us(2), us(2), 1);
  for (int i = 0; i < 2; ++i) {
    const TimeNs at = us(1000) + us(100) * i;
    g.cpu("ProfilerStep#" + std::to_string(i + 1), at, us(90), "user_annotation");
    g.launch(at + us(1), us(1), 10 + i).kernel("k", at + us(3), us(10), 10 + i);
    g.launch(at + us(20), us(1), 20 + i).kernel("k", at + us(22), us(10), 20 + i);  // 9 us launch overhead
  }
  const GapAnalysis a = analyzeGaps(g.finish());
  ASSERT_EQ(a.steps.size(), 2u);
  EXPECT_TRUE(a.verdict.overSteps);
  const GpuTotals steps = totalsOverSteps(a.steps);
  // Each step's window opens with its annotation: 3 us before its first kernel, 9 between its two.
  EXPECT_EQ(steps.active, 2 * us(32));
  EXPECT_EQ(steps.busy, 2 * us(20));
  EXPECT_EQ(a.verdict.utilization, steps.busyShare());
  EXPECT_EQ(a.verdict.estimatedSavingNs, 2 * us(12));
  EXPECT_EQ(a.verdict.line.rfind("launch-overhead bound: 37.5% of the steps' GPU windows", 0), 0u) << a.verdict.line;
  EXPECT_LT(totalsOf(a.devices).busyShare(), 0.1);  // the whole trace's window holds the start-up

  GapTrace idleSteps;  // its steps launch nothing
  idleSteps.cpu("ProfilerStep#1", us(100), us(50), "user_annotation");
  idleSteps.launch(us(0), us(1), 1).kernel("k", us(2), us(10), 1);
  idleSteps.launch(us(20), us(1), 2).kernel("k", us(22), us(10), 2);
  const GapAnalysis b = analyzeGaps(idleSteps.finish());
  EXPECT_FALSE(b.verdict.overSteps);
  EXPECT_NE(b.verdict.line.find("of the active window"), std::string::npos) << b.verdict.line;
}

TEST(GapNoGpu, KernelsWithoutCorrelationIdsGetTotalsAndAClearNote) {
  GapTrace g;
  g.kernel("k1", us(0), us(10), kNoCorrelation).kernel("k2", us(50), us(10), kNoCorrelation);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  ASSERT_TRUE(a.hasGpuActivity);
  EXPECT_EQ(a.devices.at(0).busyNs, us(20));
  EXPECT_EQ(a.devices.at(0).idle[GapCause::Other], us(40));
  ASSERT_FALSE(a.notes.empty());
  EXPECT_NE(a.notes[0].find("no correlation ids"), std::string::npos);
  EXPECT_EQ(a.verdict.kind, VerdictKind::UnexplainedIdle);
  EXPECT_EQ(a.launchStats.count, 0u);
  expectRowsAddUp(a);
}

TEST(GapTotals, DeviceBusyIsTheUnionOfItsStreams) {
  GapTrace g;
  g.kernel("a1", us(0), us(10), 0, 7).kernel("a2", us(30), us(10), 0, 7);
  g.kernel("b1", us(5), us(15), 0, 8).kernel("b2", us(50), us(10), 0, 8);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  ASSERT_EQ(a.devices.size(), 1u);
  const UtilizationStats& d = a.devices[0];
  EXPECT_EQ(d.activeStart, 0);
  EXPECT_EQ(d.activeEnd, us(60));
  EXPECT_EQ(d.busyNs, us(40));
  EXPECT_DOUBLE_EQ(d.utilization(), 40.0 / 60.0);
  EXPECT_EQ(d.gapCount, 2u);
  EXPECT_EQ(d.gpuOps, 4u);
  ASSERT_EQ(a.streams.size(), 2u);
  EXPECT_EQ(a.streams[0].stream, 7);
  EXPECT_EQ(a.streams[0].activeNs(), us(40));
  EXPECT_EQ(a.streams[0].busyNs, us(20));
  EXPECT_EQ(a.streams[1].stream, 8);
  EXPECT_EQ(a.streams[1].activeNs(), us(55));
  EXPECT_EQ(a.streams[1].busyNs, us(25));
  // Device gaps first, then stream 7's, then stream 8's.
  ASSERT_EQ(a.gaps.size(), 4u);
  EXPECT_EQ(a.gaps[0].stream, -1);
  EXPECT_EQ(a.gaps[0].start, us(20));
  EXPECT_EQ(a.gaps[1].stream, -1);
  EXPECT_EQ(a.gaps[1].start, us(40));
  EXPECT_EQ(a.gaps[2].stream, 7);
  EXPECT_EQ(a.gaps[3].stream, 8);
  EXPECT_EQ(a.gaps[3].dur, us(30));
  expectRowsAddUp(a);
}

TEST(GapTotals, ShortGapsAreCountedButNotListedAndNanosecondsAreKept) {
  GapTrace g;
  g.launch(0, 100, 1).kernel("k1", 200, 1000, 1);          // 200..1200
  g.launch(150, 100, 2).kernel("k2", 1700, 1000, 2);       // gap 500 ns
  g.launch(300, 100, 3).kernel("k3", 3934, 1000, 3);       // gap 1234 ns
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto device = [&] {
    std::vector<Gap> out;
    for (const Gap& gap : a.gaps)
      if (gap.stream == -1) out.push_back(gap);
    return out;
  }();
  ASSERT_EQ(device.size(), 1u);
  EXPECT_EQ(device[0].dur, 1234);
  EXPECT_EQ(a.unlistedGaps, 2u);  // the device's and the stream's 500 ns gap
  EXPECT_EQ(a.devices[0].idle[GapCause::Queued], 1734);
  EXPECT_EQ(a.devices[0].gapCount, 2u);
  GapOptions all;
  all.minGapNs = 0;
  EXPECT_EQ(analyzeGaps(t, all).gaps.size(), 4u);
}

TEST(GapTotals, HtaSplitUsesItsThirtyMicrosecondThreshold) {
  GapTrace g;
  g.launch(us(0), us(1), 1).launch(us(2), us(1), 2).launch(us(4), us(1), 3);
  g.kernel("k1", us(10), us(5), 1);   // 10..15
  g.kernel("k2", us(25), us(5), 2);   // queued gap of 10 us
  g.kernel("k3", us(70), us(5), 3);   // queued gap of 40 us
  g.launch(us(80), us(1), 4).kernel("k4", us(90), us(5), 4);  // host wait 15 us
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  const HtaIdle& hta = a.devices.at(0).hta;
  EXPECT_EQ(hta.kernelWait, us(10));
  EXPECT_EQ(hta.other, us(40));
  EXPECT_EQ(hta.hostWait, us(15));
  EXPECT_EQ(a.devices[0].idle[GapCause::Queued], us(50));
  EXPECT_EQ(a.devices[0].idle[GapCause::LaunchOverhead], us(15));
  GapOptions wide;
  wide.htaKernelWaitNs = us(50);
  EXPECT_EQ(analyzeGaps(t, wide).devices.at(0).hta.kernelWait, us(50));
  expectRowsAddUp(a);
}

TEST(GapTotals, CpuOpsOfEachGapAddUpToTheGap) {
  GapTrace g;
  g.cpu("step", us(0), us(200), "user_annotation");
  g.cpu("aten::linear", us(1), us(40)).cpu("aten::addmm", us(2), us(30)).launch(us(20), us(8), 1);
  g.kernel("k1", us(29), us(5), 1);
  g.cpu("aten::relu", us(45), us(30)).cpu("aten::empty", us(46), us(10)).launch(us(60), us(9), 2);
  g.cpu("overlapping", us(70), us(20));  // overlaps aten::relu without nesting
  g.kernel("k2", us(70), us(5), 2);
  Trace t = g.finish();
  GapOptions all;
  all.maxCpuOpsPerGap = 0;
  GapAnalysis a = analyzeGaps(t, all);
  ASSERT_FALSE(a.gaps.empty());
  for (const Gap& gap : a.gaps) {
    TimeNs sum = 0;
    for (const auto& op : cpuOpsOf(a, gap)) sum += op.selfNs;
    EXPECT_EQ(sum, gap.dur);
  }
  // In [44, 76): aten::relu 30 - aten::empty 10 - launch 9 = 11 (the spilled
  // "overlapping" gets nothing, so relu keeps 70..75), step 2.
  auto direct = cpuSelfTimeIn(t, a.gaps[0].launchTrack, us(44), us(76));
  ASSERT_EQ(direct.size(), 4u);
  EXPECT_EQ(t.str(direct[0].name), "aten::relu");
  EXPECT_EQ(direct[0].selfNs, us(11));
  EXPECT_EQ(t.str(direct[1].name), "aten::empty");
  EXPECT_EQ(t.str(direct[3].name), "step");
  EXPECT_EQ(direct[3].selfNs, us(2));
  EXPECT_EQ(cpuSelfTimeIn(t, a.gaps[0].launchTrack, us(44), us(76), 1).size(), 1u);
}

TEST(LaunchStats, DistributionsShortKernelsAndOutliers) {
  GapTrace g;
  // Ten 2 us launches with 10 us kernels, one 100 us launch.
  std::int64_t corr = 1;
  TimeNs t0 = 0;
  for (int i = 0; i < 10; ++i, ++corr, t0 += us(20)) {
    g.launch(t0, us(2), corr).kernel("k", t0 + us(3), us(10), corr);
  }
  g.launch(t0, us(100), corr).kernel("slow", t0 + us(101), us(1), corr);
  ++corr;
  // A lone slow memcpy is no outlier: its own name's median is itself.
  g.call("cudaMemcpyAsync", t0 + us(200), us(50), corr)
      .gpu("Memcpy HtoD", "gpu_memcpy", t0 + us(260), us(5), corr);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  const LaunchStats& s = a.launchStats;
  EXPECT_EQ(s.count, 12u);
  EXPECT_EQ(s.outliers, 1u);
  EXPECT_EQ(s.shortKernels, 2u);  // "slow" (1 < 100) and the memcpy (5 < 50)
  EXPECT_EQ(s.launchNs.count, 12u);
  EXPECT_EQ(s.launchNs.median, us(2));
  EXPECT_EQ(s.launchNs.p90, us(50));  // 11th of 12 sorted values
  EXPECT_EQ(s.launchNs.max, us(100));
  EXPECT_EQ(s.queueNs.median, us(1));
  EXPECT_EQ(s.queueNs.max, us(10));
  EXPECT_EQ(s.unmatched, 0u);
  ASSERT_EQ(a.launches.size(), 12u);
  EXPECT_TRUE(a.launches[10].outlier);
  EXPECT_FALSE(a.launches[11].outlier);
  EXPECT_EQ(a.launches[0].queueNs, us(1));
}

TEST(LaunchStats, LaunchCallsWithoutGpuWorkAreUnmatched) {
  GapTrace g;
  g.launch(us(0), us(2), 1).kernel("k", us(3), us(1), 1);
  g.launch(us(10), us(2), 2);               // no kernel in the trace
  g.launch(us(20), us(2), kNoCorrelation);  // no correlation id
  g.call("cudaEventRecord", us(30), us(1), 3);  // not a launch
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  EXPECT_EQ(a.launchStats.count, 1u);
  EXPECT_EQ(a.launchStats.unmatched, 2u);
}

TEST(GapSteps, EachStepMeasuresTheGpuWorkItLaunched) {
  GapTrace g;
  g.cpu("ProfilerStep#1", us(0), us(50), "user_annotation");
  g.cpu("ProfilerStep#2", us(50), us(50), "user_annotation");
  g.launch(us(1), us(2), 1).kernel("a", us(5), us(3), 1);     // 5..8
  g.launch(us(10), us(2), 2).kernel("b", us(20), us(5), 2);   // 20..25
  g.launch(us(55), us(2), 3).kernel("c", us(60), us(2), 3);   // 60..62
  g.launch(us(70), us(2), 4).kernel("d", us(90), us(5), 4);   // 90..95
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  ASSERT_EQ(a.steps.size(), 2u);
  const StepStats& s1 = a.steps[0];
  EXPECT_EQ(t.str(s1.name), "ProfilerStep#1");
  EXPECT_EQ(s1.number, 1);
  EXPECT_EQ(s1.cpuStart, 0);
  EXPECT_EQ(s1.cpuEnd, us(50));
  // Step 1's window opens with the device's first kernel (5 us), not with
  // its annotation (0): before a trace's first GPU work is start-up.
  ASSERT_EQ(s1.devices.size(), 1u);
  EXPECT_EQ(s1.devices[0].activeStart, us(5));
  EXPECT_EQ(s1.devices[0].activeEnd, us(25));
  EXPECT_EQ(s1.devices[0].busyNs, us(8));
  EXPECT_EQ(s1.devices[0].idle[GapCause::LaunchOverhead], us(12));
  EXPECT_EQ(s1.devices[0].gpuOps, 2u);
  // Step 2's window opens with its annotation at 50 us (step 1's work ended
  // at 25): the 10 us its CPU took before the first kernel are its idle.
  const StepStats& s2 = a.steps[1];
  EXPECT_EQ(s2.number, 2);
  EXPECT_EQ(s2.devices.at(0).activeStart, us(50));
  EXPECT_EQ(s2.devices.at(0).activeNs(), us(45));
  EXPECT_EQ(s2.devices.at(0).busyNs, us(7));
  EXPECT_EQ(s2.devices.at(0).idle[GapCause::LaunchOverhead], us(38));
  expectRowsAddUp(a);
  GapOptions noSteps;
  noSteps.perStep = false;
  EXPECT_TRUE(analyzeGaps(t, noSteps).steps.empty());
}

TEST(GapVerdict, LaunchOverheadBoundWithItsSaving) {
  Trace t = overheadTrace();
  GapAnalysis a = analyzeGaps(t);
  EXPECT_EQ(a.verdict.kind, VerdictKind::LaunchOverheadBound);
  EXPECT_EQ(a.verdict.estimatedSavingNs, us(15));
  EXPECT_DOUBLE_EQ(a.verdict.utilization, 8.0 / 23.0);
  EXPECT_EQ(a.verdict.line,
            "launch-overhead bound: 65.2% of the active window the GPU waited for the CPU to "
            "launch work (busy 34.8%); removing launch overhead would save at most 15 µs (65.2%)");
  GapSummary s = summarizeGaps(t, computeGpuBusy(t));
  EXPECT_TRUE(s.hasGpuActivity);
  EXPECT_EQ(s.verdict, a.verdict.line);
  EXPECT_DOUBLE_EQ(s.utilization, a.verdict.utilization);
  ASSERT_EQ(s.deviceUtilization.size(), 1u);
  EXPECT_EQ(s.deviceUtilization[0].first, 0);
  EXPECT_EQ(s.estimatedSavingNs, us(15));
}

TEST(GapVerdict, BusyGpuIsGpuBoundAndSyncDominatedIsSynchronizationBound) {
  GapTrace busy;
  busy.launch(0, us(1), 1).launch(us(2), us(1), 2).kernel("k1", us(5), us(100), 1);
  busy.kernel("k2", us(106), us(100), 2);
  GapAnalysis a = analyzeGaps(busy.finish());
  EXPECT_EQ(a.verdict.kind, VerdictKind::GpuBound);
  EXPECT_EQ(a.verdict.line, "GPU-bound: the GPU was busy 99.5% of the active window");
  EXPECT_EQ(a.verdict.estimatedSavingNs, 0);

  GapTrace sync;
  sync.launch(0, us(1), 1).kernel("k1", us(2), us(10), 1);
  sync.call("cudaDeviceSynchronize", us(3), us(10), 9);
  sync.launch(us(100), us(1), 2).kernel("k2", us(102), us(10), 2);
  GapAnalysis b = analyzeGaps(sync.finish());
  EXPECT_EQ(b.verdict.kind, VerdictKind::SynchronizationBound);
  EXPECT_EQ(b.verdict.line.rfind("synchronisation bound: 81.8% of the active window", 0), 0u)
      << b.verdict.line;
}

TEST(GapTotals, TwoThreadsGiveTheSameResultAsOne) {
  // Big enough (> 131072 slices) for the two-thread path: two streams, a
  // launch-overhead gap or a queued gap after every op.
  GapTrace g;
  TimeNs t = 0;
  TimeNs streamFree[2] = {0, 0};
  for (std::int64_t i = 1; i <= 46000; ++i) {
    int s = static_cast<int>((i / 5) % 2);
    g.cpu("aten::op", t, us(6));
    g.launch(t + us(1), us(3), i);
    TimeNs start = std::max(streamFree[s], t + us(4)) + (i % 3 == 0 ? us(7) : 0);
    g.kernel(i % 2 ? "k_odd" : "k_even", start, us(2 + i % 5), i, 7 + s);
    streamFree[s] = start + us(2 + i % 5);
    t += us(i % 7 == 0 ? 20 : 5);
  }
  Trace trace = g.finish();
  ASSERT_GE(trace.slices.size(), 131072u);
  GapOptions one;
  one.threads = 1;
  GapAnalysis a = analyzeGaps(trace, one);
  GapAnalysis b = analyzeGaps(trace);
  ASSERT_EQ(a.gaps.size(), b.gaps.size());
  for (std::size_t i = 0; i < a.gaps.size(); ++i) {
    EXPECT_EQ(a.gaps[i].start, b.gaps[i].start);
    EXPECT_EQ(a.gaps[i].cause, b.gaps[i].cause);
    auto x = cpuOpsOf(a, a.gaps[i]);
    auto y = cpuOpsOf(b, b.gaps[i]);
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t k = 0; k < x.size(); ++k) EXPECT_EQ(x[k].selfNs, y[k].selfNs);
  }
  EXPECT_EQ(a.devices.at(0).idle.ns, b.devices.at(0).idle.ns);
  EXPECT_EQ(a.launchStats.launchNs.median, b.launchStats.launchNs.median);
  EXPECT_EQ(a.overheadCpuOps.size(), b.overheadCpuOps.size());
  EXPECT_EQ(a.verdict.line, b.verdict.line);
  expectRowsAddUp(b);
}
