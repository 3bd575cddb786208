#include "gapscope/timeline/histogram.h"

#include <gtest/gtest.h>

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
