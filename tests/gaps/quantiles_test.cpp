// The exact order statistics behind the launch distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "analysis/gaps/quantiles.h"

using gapscope::TimeNs;
using gapscope::analysis::gaps_detail::valuesAtRanks;

namespace {

void expectMatchesSorting(std::vector<TimeNs> values) {
  std::vector<std::size_t> ranks = {0, values.size() / 2, (values.size() * 9) / 10, values.size() - 1};
  auto got = valuesAtRanks(values.data(), values.data() + values.size(), ranks);
  std::sort(values.begin(), values.end());
  for (std::size_t i = 0; i < ranks.size(); ++i) EXPECT_EQ(got[i], values[ranks[i]]) << "rank " << ranks[i];
}

}  // namespace

TEST(Quantiles, SmallInputs) {
  expectMatchesSorting({5});
  expectMatchesSorting({3, 1, 2});
  expectMatchesSorting(std::vector<TimeNs>(100, 7));
}

TEST(Quantiles, LargeUniformLongTailedNegativeAndConstantInputs) {
  std::mt19937_64 rng(42);
  std::vector<TimeNs> uniform(200000);
  for (auto& v : uniform) v = static_cast<TimeNs>(rng() % 1000000);
  expectMatchesSorting(uniform);

  // Launch durations: mostly a few microseconds, a handful of seconds.
  std::vector<TimeNs> tail(300000);
  for (auto& v : tail) v = 2000 + static_cast<TimeNs>(rng() % 6000);
  for (int i = 0; i < 5; ++i) tail[rng() % tail.size()] = 3'000'000'000LL + i;
  expectMatchesSorting(tail);

  // Queue times can be negative (the kernel started before the call returned).
  std::vector<TimeNs> mixed(50000);
  for (auto& v : mixed) v = static_cast<TimeNs>(rng() % 20000) - 15000;
  mixed[7] = INT64_MIN / 2;
  mixed[8] = INT64_MAX / 2;
  expectMatchesSorting(mixed);

  expectMatchesSorting(std::vector<TimeNs>(10000, -3));

  // A range below 2^16: one value per histogram bucket.
  std::vector<TimeNs> narrow(100000);
  for (auto& v : narrow) v = 2000 + static_cast<TimeNs>(rng() % 6000);
  expectMatchesSorting(narrow);
  std::vector<TimeNs> narrowNegative(100000);
  for (auto& v : narrowNegative) v = -40000 + static_cast<TimeNs>(rng() % 65536);
  expectMatchesSorting(narrowNegative);
}
