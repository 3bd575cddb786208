#include "gapscope/timeline/histogram.h"

#include <gtest/gtest.h>

#include <limits>

using namespace gapscope;
using namespace gapscope::timeline;

TEST(DurationHistogram, OneTwoFiveBinsCoverEveryValue) {
  const auto h = makeDurationHistogram({1500, 1999, 2000, 4999, 12000});
  // 1 us, 2 us, 5 us, 10 us, 20 us edges.
  ASSERT_EQ(h.bins(), 4u);
  EXPECT_EQ(h.lo[0], 1000);
  EXPECT_EQ(h.hi[0], 2000);
  EXPECT_EQ(h.count[0], 2u);
  EXPECT_EQ(h.count[1], 2u);  // 2000 and 4999
  EXPECT_EQ(h.count[2], 0u);
  EXPECT_EQ(h.lo[3], 10000);
  EXPECT_EQ(h.count[3], 1u);
  EXPECT_FALSE(h.hasNegativeBin);
}

TEST(DurationHistogram, NegativeAndZeroValuesGetTheirOwnBins) {
  const auto h = makeDurationHistogram({-300, 0, 7});
  ASSERT_EQ(h.bins(), 3u);
  EXPECT_TRUE(h.hasNegativeBin);
  EXPECT_EQ(h.count[0], 1u);  // (-inf, 0)
  EXPECT_EQ(h.lo[1], 0);
  EXPECT_EQ(h.hi[1], 5);
  EXPECT_EQ(h.count[1], 1u);
  EXPECT_EQ(h.lo[2], 5);
  EXPECT_EQ(h.count[2], 1u);
  EXPECT_EQ(h.binOf(-1), 0u);
  EXPECT_EQ(h.binOf(1000), h.bins());
}

TEST(DurationHistogram, EmptyInputHasNoBins) {
  EXPECT_EQ(makeDurationHistogram({}).bins(), 0u);
}

TEST(DurationHistogram, ValuesNearTheInt64LimitEndInAnOpenLastBin) {
  // Found by fuzz_report (tests/fuzz/regressions/report/histogram-edge-past-1e19.json):
  // the edge after 5e18 is 1e19, which overflowed int64.
  const auto h = makeDurationHistogram({1000, 6'000'000'000'000'000'000, 9'000'000'000'000'000'000});
  ASSERT_GE(h.bins(), 2u);
  EXPECT_EQ(h.hi.back(), std::numeric_limits<TimeNs>::max());
  EXPECT_EQ(h.lo.back(), 5'000'000'000'000'000'000);
  EXPECT_EQ(h.count.back(), 2u);
  for (std::size_t i = 1; i < h.bins(); ++i) EXPECT_LT(h.lo[i - 1], h.lo[i]);
}
