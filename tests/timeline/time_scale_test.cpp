#include "gapscope/timeline/time_scale.h"

#include <gtest/gtest.h>

using gapscope::timeline::TimeScale;

TEST(TimeScale, FitMapsRangeOntoWidth) {
  const auto s = TimeScale::fit(1000, 3000, 200);
  EXPECT_DOUBLE_EQ(s.nsPerPixel(), 10.0);
  EXPECT_DOUBLE_EQ(s.toPixel(1000), 0.0);
  EXPECT_DOUBLE_EQ(s.toPixel(3000), 200.0);
  EXPECT_EQ(s.toTime(100), 2000);
  EXPECT_EQ(s.end(), 3000);
}

TEST(TimeScale, KeepsNanosecondPrecisionAtKinetoTimestamps) {
  // Kineto timestamps are ~4.5e15 ns: a double start would round them.
  const gapscope::TimeNs base = 4472706015647769;
  const auto s = TimeScale::fit(base, base + 100, 100);
  EXPECT_DOUBLE_EQ(s.toPixel(base + 1), 1.0);
  EXPECT_EQ(s.toTime(37), base + 37);
}

TEST(TimeScale, ZoomKeepsTheAnchorInPlace) {
  const auto s = TimeScale::fit(0, 1000, 100);
  const auto z = s.zoomed(4.0, 25.0);  // anchor at t = 250
  EXPECT_DOUBLE_EQ(z.nsPerPixel(), 2.5);
  EXPECT_NEAR(z.toPixel(250), 25.0, 1e-9);
  const auto back = z.zoomed(0.25, 25.0);
  EXPECT_NEAR(back.toPixel(0), 0.0, 1e-9);
  EXPECT_NEAR(back.nsPerPixel(), 10.0, 1e-12);
}

TEST(TimeScale, ZoomStopsAtSixteenPixelsPerNanosecond) {
  auto s = TimeScale::fit(0, 1000, 100);
  for (int i = 0; i < 100; ++i) s = s.zoomed(2.0, 50);
  EXPECT_DOUBLE_EQ(s.nsPerPixel(), TimeScale::kMinNsPerPixel);
  EXPECT_NEAR(s.toPixel(500), 50.0, 1e-6);
}

TEST(TimeScale, PanAccumulatesSubNanosecondSteps) {
  auto s = TimeScale(100, 0.25, 100);
  for (int i = 0; i < 8; ++i) s = s.panned(1.0);  // 8 x 0.25 ns
  EXPECT_EQ(s.start(), 102);
  EXPECT_DOUBLE_EQ(s.startFraction(), 0.0);
  s = s.panned(-2.0);
  EXPECT_EQ(s.start(), 101);
  EXPECT_DOUBLE_EQ(s.startFraction(), 0.5);
}

TEST(TimeScale, ClampKeepsTheViewInsideTheTrace) {
  const auto s = TimeScale::fit(0, 100, 100);
  EXPECT_EQ(s.panned(-50).clampedTo(0, 1000).start(), 0);
  EXPECT_EQ(s.panned(2000).clampedTo(0, 1000).start(), 900);
  // Wider than the range: centred.
  const auto wide = TimeScale::fit(0, 200, 100).clampedTo(50, 150);
  EXPECT_EQ(wide.start(), 0);
}

TEST(TimeScale, ResizeKeepsZoomAndLeftEdge) {
  const auto s = TimeScale::fit(10, 110, 100).resized(50);
  EXPECT_EQ(s.start(), 10);
  EXPECT_DOUBLE_EQ(s.nsPerPixel(), 1.0);
  EXPECT_EQ(s.end(), 60);
}

TEST(TimeScale, BadInputGivesAUsableScale) {
  const auto s = TimeScale::fit(100, 100, 0);  // empty range, no width
  EXPECT_GT(s.nsPerPixel(), 0);
  EXPECT_GE(s.width(), 1.0);
  EXPECT_EQ(s.zoomed(-3, 0), s);
}

TEST(TimeScale, ShiftedShowsTheSameViewOfAnotherClock) {
  const TimeScale a = TimeScale::fit(1'700'000'000'000'000'000, 1'700'000'000'000'050'000, 1000).panned(0.3);
  const TimeScale b = a.shifted(-1'699'999'000'000'000'000);
  EXPECT_EQ(b.start(), a.start() - 1'699'999'000'000'000'000);
  EXPECT_EQ(b.startFraction(), a.startFraction());
  EXPECT_EQ(b.nsPerPixel(), a.nsPerPixel());
  EXPECT_EQ(b.width(), a.width());
  // A time of A and its counterpart in B sit on the same pixel.
  const gapscope::TimeNs t = a.start() + 12'345;
  EXPECT_DOUBLE_EQ(b.toPixel(t - 1'699'999'000'000'000'000), a.toPixel(t));
  EXPECT_EQ(b.shifted(1'699'999'000'000'000'000), a);
}
