// Mann-Whitney U counted the slow way, for the tests: the pairs one by one,
// the exact two-sided p-value over every split of the pooled values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::compare {

// Pairs (a, b) with a > b, ties half.
inline double pairCount(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b) {
  double u = 0;
  for (TimeNs x : a)
    for (TimeNs y : b) u += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  return u;
}

// The two-sided p-value of U over every split of the pooled steps into
// |a| and |b| (each choice of |a| places once).
inline double enumeratedPValue(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b) {
  std::vector<TimeNs> pooled = a;
  pooled.insert(pooled.end(), b.begin(), b.end());
  const double observed = pairCount(a, b);
  const double centre = static_cast<double>(a.size() * b.size()) / 2.0;
  std::vector<bool> inA(pooled.size(), false);
  std::fill(inA.begin(), inA.begin() + static_cast<std::ptrdiff_t>(a.size()), true);
  std::size_t atLeastAsFar = 0;
  std::size_t splits = 0;
  do {
    std::vector<TimeNs> x, y;
    for (std::size_t i = 0; i < pooled.size(); ++i) (inA[i] ? x : y).push_back(pooled[i]);
    ++splits;
    if (std::abs(pairCount(x, y) - centre) >= std::abs(observed - centre) - 1e-9) ++atLeastAsFar;
  } while (std::prev_permutation(inA.begin(), inA.end()));
  return static_cast<double>(atLeastAsFar) / static_cast<double>(splits);
}

}  // namespace gapscope::compare
