#include "gapscope/timeline/axis_ticks.h"

#include <gtest/gtest.h>

using namespace gapscope::timeline;

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
