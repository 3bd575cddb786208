// GPU busy time (gpu_busy.h): the union of kernel, memcpy and memset time
// per stream and per device, checked against a brute-force count made here
// nanosecond by nanosecond.
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/percent.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

using testing::TraceMaker;

Trace twoStreams() {
  TraceMaker m;
  m.kernel("k", 0, 100, kNoCorrelation, 7);
  m.kernel("k", 50, 100, kNoCorrelation, 9);  // overlaps stream 7: counts once for the device
  m.kernel("k", 300, 100, kNoCorrelation, 7);
  m.gpu("step", "gpu_user_annotation", 500, 400, kNoCorrelation, 7);  // not activity
  return m.finish();
}

TEST(GpuBusy, UnionPerDeviceCountsOverlapOnce) {
  const GpuBusy busy = computeGpuBusy(twoStreams());
  ASSERT_EQ(busy.devices.size(), 1u);
  const DeviceBusy& d = busy.devices[0];
  ASSERT_EQ(d.intervals.spans().size(), 2u);
  EXPECT_EQ(d.intervals.spans()[0], std::make_pair(TimeNs{0}, TimeNs{150}));
  EXPECT_EQ(d.busy, 250);
  EXPECT_EQ(d.firstStart, 0);
  EXPECT_EQ(d.lastEnd, 400);
  EXPECT_EQ(d.activities, 3u);
  EXPECT_DOUBLE_EQ(d.utilization(), 250.0 / 400.0);
  EXPECT_EQ(d.intervals.busyIn(0, 1000), 250);
  EXPECT_EQ(d.intervals.busyIn(100, 350), 100);  // 50 of the first, 50 of the second
  EXPECT_EQ(d.intervals.busyIn(500, 900), 0);
  EXPECT_EQ(d.intervals.busyIn(900, 500), 0);  // reversed window
  ASSERT_EQ(busy.streams.size(), 2u);
  EXPECT_EQ(busy.stream(0, 7)->busy, 200);
  EXPECT_EQ(busy.stream(0, 9)->busy, 100);
  EXPECT_EQ(busy.stream(0, 9)->firstStart, 50);
  EXPECT_EQ(busy.stream(0, 8), nullptr);
  EXPECT_EQ(busy.total(), 250);
}

TEST(GpuBusy, TouchingIntervalsMergeAndZeroLengthOnesOnlyBoundTheWindow) {
  TraceMaker m;
  m.kernel("a", 100, 0, kNoCorrelation);  // zero length: no busy time, opens the window
  m.kernel("b", 200, 50, kNoCorrelation);
  m.kernel("c", 250, 50, kNoCorrelation);  // touches b: one interval
  m.gpu("Memset (Device)", "gpu_memset", 400, 10, kNoCorrelation);
  const GpuBusy busy = computeGpuBusy(m.finish());
  ASSERT_EQ(busy.devices.size(), 1u);
  const DeviceBusy& d = busy.devices[0];
  EXPECT_EQ(d.busy, 110);
  EXPECT_EQ(d.firstStart, 100);
  EXPECT_EQ(d.lastEnd, 410);
  EXPECT_EQ(d.activities, 4u);
  ASSERT_EQ(d.intervals.spans().size(), 2u);
  EXPECT_EQ(d.intervals.spans()[0], std::make_pair(TimeNs{200}, TimeNs{300}));
}

TEST(GpuBusy, NoGpuActivityGivesNoDevices) {
  TraceMaker m;
  m.cpu("aten::mm", "cpu_op", 0, 100);
  m.gpu("annotation", "gpu_user_annotation", 0, 100);
  const GpuBusy busy = computeGpuBusy(m.finish());
  EXPECT_TRUE(busy.devices.empty());
  EXPECT_TRUE(busy.streams.empty());
  EXPECT_EQ(busy.total(), 0);
  EXPECT_EQ(busy.device(0), nullptr);
}

TEST(GpuBusy, BinsGiveTheBusyShare) {
  const GpuBusy busy = computeGpuBusy(twoStreams());
  const auto bins = utilisationBins(busy.devices[0].intervals, 0, 400, 4);
  ASSERT_EQ(bins.size(), 4u);
  EXPECT_DOUBLE_EQ(bins[0], 1.0);
  EXPECT_DOUBLE_EQ(bins[1], 0.5);
  EXPECT_DOUBLE_EQ(bins[2], 0.0);
  EXPECT_DOUBLE_EQ(bins[3], 1.0);
  EXPECT_TRUE(utilisationBins(busy.devices[0].intervals, 10, 10, 4) == std::vector<double>(4, 0.0));
}

// Random traces on a short time axis: every nanosecond is marked busy or not
// per stream and per device, and the marks are counted.
TEST(GpuBusy, MatchesABruteForceCountOnRandomTraces) {
  std::mt19937 rng(11);
  constexpr TimeNs kAxis = 3000;
  for (int round = 0; round < 60; ++round) {
    TraceMaker m;
    std::map<std::int32_t, std::set<TimeNs>> deviceMarks;
    std::map<std::pair<std::int32_t, std::int64_t>, std::set<TimeNs>> streamMarks;
    std::map<std::int32_t, std::pair<TimeNs, TimeNs>> window;
    const int ops = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < ops; ++i) {
      const std::int32_t device = static_cast<std::int32_t>(rng() % 3);
      const std::int64_t stream = 7 + static_cast<std::int64_t>(rng() % 3);
      const TimeNs start = static_cast<TimeNs>(rng() % kAxis);
      const TimeNs dur = static_cast<TimeNs>(rng() % 200);
      static const char* kCategories[] = {"kernel", "gpu_memcpy", "gpu_memset"};
      m.gpu("op", kCategories[rng() % 3], start, dur, kNoCorrelation, stream, device);
      for (TimeNs t = start; t < start + dur; ++t) {
        deviceMarks[device].insert(t);
        streamMarks[{device, stream}].insert(t);
      }
      auto [it, fresh] = window.try_emplace(device, start, start + dur);
      if (!fresh) it->second = {std::min(it->second.first, start), std::max(it->second.second, start + dur)};
    }
    const GpuBusy busy = computeGpuBusy(m.finish());
    ASSERT_EQ(busy.devices.size(), window.size());
    TimeNs total = 0;
    for (const DeviceBusy& d : busy.devices) {
      EXPECT_EQ(d.busy, static_cast<TimeNs>(deviceMarks[d.device].size())) << "round " << round;
      EXPECT_EQ(d.firstStart, window[d.device].first);
      EXPECT_EQ(d.lastEnd, window[d.device].second);
      EXPECT_EQ(d.intervals.total(), d.busy);
      const TimeNs a = static_cast<TimeNs>(rng() % kAxis);
      const TimeNs b = a + static_cast<TimeNs>(rng() % kAxis);
      const auto& marks = deviceMarks[d.device];
      const auto inWindow = std::distance(marks.lower_bound(a), marks.lower_bound(b));
      EXPECT_EQ(d.intervals.busyIn(a, b), inWindow) << "round " << round << " [" << a << ", " << b << ")";
      total += d.busy;
    }
    EXPECT_EQ(busy.total(), total);
    ASSERT_EQ(busy.streams.size(), streamMarks.size());
    for (const BusyRow& s : busy.streams)
      EXPECT_EQ(s.busy, static_cast<TimeNs>(streamMarks[{s.device, s.stream}].size())) << "round " << round;
  }
}

}  // namespace
}  // namespace gapscope::analysis

namespace gapscope::analysis {
namespace {

// A whole past 2^53 / 100 ns (a fuzzer's trace of far times): 100 x part
// rounds before the division did, and a part equal to its whole came out
// at 100.00000000000001 %.
TEST(PercentOf, APartNoLargerThanItsWholeIsAtMostAHundred) {
  const TimeNs whole = 215343976223493482;
  EXPECT_NE(100.0 * static_cast<double>(whole) / static_cast<double>(whole), 100.0);  // the old order
  EXPECT_EQ(percentOf(whole, whole), 100.0);
  for (TimeNs part : {whole - 1, whole / 2, TimeNs{1}, TimeNs{0}}) EXPECT_LE(percentOf(part, whole), 100.0) << part;
  EXPECT_EQ(percentOf(5, 0), 0.0);
  EXPECT_DOUBLE_EQ(percentOf(1, 4), 25.0);
}

}  // namespace
}  // namespace gapscope::analysis
