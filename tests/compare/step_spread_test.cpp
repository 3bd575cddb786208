// The Mann-Whitney U test of two runs' step times, against counts made
// another way: U by counting the pairs, the exact p-value by enumerating
// every way to deal the pooled steps to A and B, the normal approximation
// against a permutation test and against published values.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "gapscope/compare/step_spread.h"
#include "u_count.h"

namespace gapscope::compare {
namespace {

// A permutation test's two-sided p-value from `rounds` random splits.
double permutationPValue(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b, int rounds) {
  std::vector<TimeNs> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const double centre = static_cast<double>(a.size() * b.size()) / 2.0;
  const double observed = std::abs(pairCount(a, b) - centre);
  std::mt19937 random(12345);
  int atLeastAsFar = 0;
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(pooled.begin(), pooled.end(), random);
    const std::vector<TimeNs> x(pooled.begin(), pooled.begin() + static_cast<std::ptrdiff_t>(a.size()));
    const std::vector<TimeNs> y(pooled.begin() + static_cast<std::ptrdiff_t>(a.size()), pooled.end());
    if (std::abs(pairCount(x, y) - centre) >= observed - 1e-9) ++atLeastAsFar;
  }
  return static_cast<double>(atLeastAsFar) / rounds;
}

TEST(StepSpread, ExactForAFewStepsWithoutTies) {
  // scipy.stats.mannwhitneyu's documented example: U = 17, p = 0.1111 (exact).
  const std::vector<TimeNs> males{19, 22, 16, 29, 24};
  const std::vector<TimeNs> females{20, 11, 17, 12};
  const StepSpreadTest t = stepSpreadTest(males, females);
  EXPECT_EQ(t.method, SpreadMethod::Exact);
  EXPECT_DOUBLE_EQ(t.u, 17.0);
  EXPECT_NEAR(t.pValue, 1.0 / 9.0, 1e-12);
  EXPECT_NEAR(t.pValue, enumeratedPValue(males, females), 1e-12);
  EXPECT_TRUE(t.canTell);  // 2 / C(9, 4) = 0.016
  EXPECT_FALSE(t.beyondSpread());
}

TEST(StepSpread, ExactAgainstEveryWayToDealTheSteps) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    const std::size_t m = 1 + random() % 8;
    const std::size_t n = 1 + random() % 8;
    std::vector<TimeNs> pooled(m + n);
    std::iota(pooled.begin(), pooled.end(), TimeNs{1000});  // distinct: no ties
    std::shuffle(pooled.begin(), pooled.end(), random);
    const std::vector<TimeNs> a(pooled.begin(), pooled.begin() + static_cast<std::ptrdiff_t>(m));
    const std::vector<TimeNs> b(pooled.begin() + static_cast<std::ptrdiff_t>(m), pooled.end());
    const StepSpreadTest t = stepSpreadTest(a, b);
    ASSERT_EQ(t.method, SpreadMethod::Exact);
    EXPECT_DOUBLE_EQ(t.u, pairCount(a, b));
    EXPECT_NEAR(t.pValue, enumeratedPValue(a, b), 1e-12) << m << " and " << n;
  }
}

TEST(StepSpread, NormalWithTiesAgainstAPermutationTest) {
  std::mt19937 random(3);
  for (int round = 0; round < 6; ++round) {
    std::vector<TimeNs> a, b;
    const TimeNs shift = round;  // 0: the same spread; larger: B faster
    for (int i = 0; i < 12; ++i) a.push_back(20 + static_cast<TimeNs>(random() % 8));
    for (int i = 0; i < 14; ++i) b.push_back(20 - shift + static_cast<TimeNs>(random() % 8));  // ties: 8 values
    const StepSpreadTest t = stepSpreadTest(a, b);
    ASSERT_EQ(t.method, SpreadMethod::Normal);
    EXPECT_DOUBLE_EQ(t.u, pairCount(a, b));
    EXPECT_NEAR(t.pValue, permutationPValue(a, b, 40000), 0.02) << "shift " << shift;
  }
}

TEST(StepSpread, NormalWithoutTiesAgainstAPermutationTest) {
  const std::vector<TimeNs> a{19, 22, 16, 29, 24, 30, 31, 32, 27};
  const std::vector<TimeNs> b{20, 11, 17, 12, 13, 14, 15, 18, 26};
  const StepSpreadTest t = stepSpreadTest(a, b);
  EXPECT_EQ(t.method, SpreadMethod::Normal);  // more than 8 steps a side
  EXPECT_DOUBLE_EQ(t.u, pairCount(a, b));
  EXPECT_NEAR(t.pValue, permutationPValue(a, b, 40000), 0.01);
  EXPECT_TRUE(t.beyondSpread());
}

// Values from an implementation of scipy.stats.mannwhitneyu's formulas
// written apart (Python, over the pairs and the tie groups), to 1e-12.
TEST(StepSpread, NormalWithTiesAgainstAnIndependentImplementation) {
  const StepSpreadTest t =
      stepSpreadTest({20, 21, 21, 22, 23, 23, 23, 25, 26, 28}, {18, 19, 19, 20, 21, 21, 22, 22, 24, 19, 17, 20});
  EXPECT_EQ(t.method, SpreadMethod::Normal);
  EXPECT_DOUBLE_EQ(t.u, 101.0);
  EXPECT_NEAR(t.pValue, 0.007138521582511788, 1e-12);
  EXPECT_EQ(spreadClause(t), "beyond the steps' spread (p = 0.0071 over 10 and 12 steps)");
}

// scipy's rule: exact while the run with fewer steps has at most 8 and
// nothing ties, however many the other has (up to 1,000 here). At 8 a side
// U = 51 is just beyond: p = 0.0499 exact, 0.052 by the normal approximation.
TEST(StepSpread, ExactWhileTheSmallerRunHasAtMostEightSteps) {
  const std::vector<TimeNs> a{2, 6, 10, 11, 13, 14, 15, 16};
  const std::vector<TimeNs> b{1, 3, 4, 5, 7, 8, 9, 12};
  const StepSpreadTest eight = stepSpreadTest(a, b);
  EXPECT_EQ(eight.method, SpreadMethod::Exact);
  EXPECT_DOUBLE_EQ(eight.u, 51.0);
  EXPECT_NEAR(eight.pValue, enumeratedPValue(a, b), 1e-12);
  EXPECT_NEAR(eight.pValue, 642.0 / 12870.0, 1e-12);
  EXPECT_EQ(spreadClause(eight), "beyond the steps' spread (p = 0.0499 over 8 and 8 steps)");
  std::vector<TimeNs> forty;
  for (TimeNs i = 1; i <= 40; ++i) forty.push_back(4 * i);
  const StepSpreadTest threeAndForty = stepSpreadTest({101, 151, 161}, forty);
  EXPECT_EQ(threeAndForty.method, SpreadMethod::Exact);
  EXPECT_NEAR(threeAndForty.pValue, enumeratedPValue({101, 151, 161}, forty), 1e-12);
  EXPECT_NEAR(threeAndForty.pValue, 0.044404829430354106, 1e-12);
  std::vector<TimeNs> many;
  for (TimeNs i = 1; i <= 1001; ++i) many.push_back(4 * i);
  EXPECT_EQ(stepSpreadTest({101, 151, 161}, many).method, SpreadMethod::Normal);  // the cost stays bounded
}

TEST(StepSpread, TooFewStepsCannotTell) {
  // 3 and 3 steps: the smallest p-value is 2 / C(6, 3) = 0.1.
  const StepSpreadTest t = stepSpreadTest({10, 11, 12}, {20, 21, 22});
  EXPECT_NEAR(t.pValue, 0.1, 1e-12);
  EXPECT_FALSE(t.canTell);
  EXPECT_FALSE(t.beyondSpread());
  EXPECT_EQ(spreadClause(t), "too few steps (3 and 3) to tell from their spread");
  // A whole trace is one step.
  EXPECT_FALSE(stepSpreadTest({10}, {20, 21, 22, 23, 24, 25, 26, 27, 28}).canTell);
  EXPECT_FALSE(stepSpreadTest({}, {20, 21}).canTell);
  EXPECT_EQ(stepSpreadTest({}, {20, 21}).method, SpreadMethod::None);
  // Ties narrow the spread: 3 and 3 steps told apart after all.
  const StepSpreadTest tied = stepSpreadTest({5, 5, 5}, {1, 1, 1});
  EXPECT_LT(tied.pValue, kSpreadSignificance);
  EXPECT_TRUE(tied.canTell);
  EXPECT_EQ(spreadClause(tied).rfind("beyond the steps' spread (p = 0.04", 0), 0u) << spreadClause(tied);
  // 4 and 4: 2 / 70 = 0.029.
  const StepSpreadTest four = stepSpreadTest({10, 11, 12, 13}, {20, 21, 22, 23});
  EXPECT_TRUE(four.canTell);
  EXPECT_NEAR(four.pValue, 2.0 / 70.0, 1e-12);
  EXPECT_EQ(spreadClause(four), "beyond the steps' spread (p = 0.029 over 4 and 4 steps)");
}

TEST(StepSpread, TheClauseSaysWhetherTheStepsAreToldApart) {
  std::vector<TimeNs> a, b, c;
  for (int i = 0; i < 15; ++i) {
    a.push_back(1000 + i * 10);
    b.push_back(1005 + i * 10);  // interleaved with A
    c.push_back(100 + i);        // all shorter than A's
  }
  const StepSpreadTest within = stepSpreadTest(a, b);
  EXPECT_GT(within.pValue, 0.5);
  EXPECT_EQ(spreadClause(within).rfind("within the steps' spread (p = ", 0), 0u) << spreadClause(within);
  EXPECT_NE(spreadClause(within).find(" over 15 and 15 steps): record each run again to tell"), std::string::npos);
  const StepSpreadTest beyond = stepSpreadTest(a, c);
  EXPECT_DOUBLE_EQ(beyond.u, 225.0);
  EXPECT_EQ(spreadClause(beyond), "beyond the steps' spread (p < 0.001 over 15 and 15 steps)");
  // Every step the same: no spread, and no change either.
  const StepSpreadTest same = stepSpreadTest({5, 5, 5, 5, 5, 5, 5, 5, 5}, {5, 5, 5, 5, 5, 5, 5, 5, 5});
  EXPECT_DOUBLE_EQ(same.pValue, 1.0);
  EXPECT_FALSE(same.beyondSpread());
}

}  // namespace
}  // namespace gapscope::compare
