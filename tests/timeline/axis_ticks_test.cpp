#include "gapscope/timeline/axis_ticks.h"

#include <gtest/gtest.h>

#include "gapscope/timeline/time_format.h"

using namespace gapscope::timeline;

TEST(TimeFormat, DurationsUseThreeSignificantDigits) {
  EXPECT_EQ(formatDuration(0), "0 ns");
  EXPECT_EQ(formatDuration(850), "850 ns");
  EXPECT_EQ(formatDuration(12345), "12.3 µs");
  EXPECT_EQ(formatDuration(1500000), "1.50 ms");
  EXPECT_EQ(formatDuration(2345000000), "2.35 s");
  EXPECT_EQ(formatDuration(-4200), "-4.20 µs");
  EXPECT_EQ(formatDuration(999700), "1.00 ms");  // not "1000 µs"
  EXPECT_EQ(formatDuration(7200000000000), "7200 s");
}

TEST(TimeFormat, LabelsUseOneUnitAndJustEnoughDecimals) {
  EXPECT_EQ(labelUnitFor(999), 1);
  EXPECT_EQ(labelUnitFor(1250000), 1000000);
  EXPECT_EQ(formatTimeLabel(1250000, 50000, 1000000), "1.25 ms");
  EXPECT_EQ(formatTimeLabel(1000000, 50000, 1000000), "1.00 ms");
  EXPECT_EQ(formatTimeLabel(1250001, 1, 1000000), "1.250001 ms");
  EXPECT_EQ(formatTimeLabel(0, 200, 1000), "0.0 µs");
  EXPECT_EQ(formatTimeLabel(30, 10, 1), "30 ns");
  EXPECT_EQ(formatTimeLabel(-2000000000, 1000000000, 1000000000), "-2 s");
}

TEST(AxisTicks, StepIsTheSmallestOneTwoFiveThatFits) {
  EXPECT_EQ(niceStep(1.0, 80), 100);
  EXPECT_EQ(niceStep(1.3, 80), 200);
  EXPECT_EQ(niceStep(0.01, 80), 1);
  EXPECT_EQ(niceStep(6.0, 80), 500);
  EXPECT_EQ(niceStep(1e7, 100), 1000000000);
}

TEST(AxisTicks, AdaptFromNanosecondsToSeconds) {
  for (double nsPerPx : {0.1, 3.0, 700.0, 2.5e5, 4e7}) {
    const TimeScale scale(1000000, nsPerPx, 1000);
    const AxisTicks t = computeAxisTicks(scale, 1000000, 90);
    ASSERT_FALSE(t.ticks.empty()) << nsPerPx;
    int majors = 0;
    double lastMajorX = -1e9;
    for (const auto& tick : t.ticks) {
      EXPECT_GE(tick.x, -0.5);
      EXPECT_LE(tick.time, scale.end());
      EXPECT_EQ((tick.time - 1000000) % t.minorStep, 0);
      if (!tick.major) continue;
      ++majors;
      EXPECT_FALSE(tick.label.empty());
      EXPECT_GE(tick.x - lastMajorX, 89.9) << nsPerPx;  // labels never crowd
      lastMajorX = tick.x;
    }
    EXPECT_GE(majors, 4) << nsPerPx;  // and never get too sparse
    EXPECT_LE(majors, 12) << nsPerPx;
  }
}

TEST(AxisTicks, LabelsCountFromTheOrigin) {
  const TimeScale scale = TimeScale::fit(5000, 5000 + 1000000, 1000);  // 1 ms
  const AxisTicks t = computeAxisTicks(scale, 5000, 90);
  EXPECT_EQ(t.majorStep, 100000);
  EXPECT_EQ(t.minorStep, 20000);
  ASSERT_FALSE(t.ticks.empty());
  EXPECT_EQ(t.ticks.front().time, 5000);
  EXPECT_EQ(t.ticks.front().label, "0.0 ms");
  EXPECT_EQ(t.ticks[5].label, "0.1 ms");
  EXPECT_FALSE(t.ticks[1].major);
}
