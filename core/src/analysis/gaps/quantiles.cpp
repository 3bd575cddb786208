#include "quantiles.h"

#include "gapscope/analysis/gaps.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace gapscope::analysis::gaps_detail {
namespace {

constexpr std::size_t kSmall = 4096;  // below this, selecting directly is cheaper
constexpr int kBucketBits = 16;

std::vector<TimeNs> selectDirectly(const TimeNs* first, const TimeNs* last,
                                   const std::vector<std::size_t>& ranks) {
  std::vector<TimeNs> copy(first, last);
  std::vector<TimeNs> out;
  for (std::size_t k : ranks) {
    std::nth_element(copy.begin(), copy.begin() + static_cast<std::ptrdiff_t>(k), copy.end());
    out.push_back(copy[k]);
  }
  return out;
}

}  // namespace

std::vector<TimeNs> valuesAtRanks(const TimeNs* first, const TimeNs* last,
                                  const std::vector<std::size_t>& ranks) {
  auto n = static_cast<std::size_t>(last - first);
  if (n < kSmall) return selectDirectly(first, last, ranks);
  auto [minIt, maxIt] = std::minmax_element(first, last);
  const TimeNs lo = *minIt;
  // Unsigned offsets from the minimum never overflow, whatever the signs.
  const auto range = static_cast<std::uint64_t>(*maxIt) - static_cast<std::uint64_t>(lo);
  if (range == 0) return std::vector<TimeNs>(ranks.size(), lo);
  const int width = std::bit_width(range);
  const int shift = width > kBucketBits ? width - kBucketBits : 0;
  auto bucketOf = [&](TimeNs v) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(lo)) >> shift);
  };
  std::vector<std::uint32_t> count((range >> shift) + 1, 0);
  for (const TimeNs* p = first; p != last; ++p) ++count[bucketOf(*p)];

  // For each rank: its bucket and its rank within the bucket.
  std::vector<std::size_t> bucket(ranks.size()), within(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    std::size_t before = 0, b = 0;
    while (before + count[b] <= ranks[r]) before += count[b++];
    bucket[r] = b;
    within[r] = ranks[r] - before;
  }
  std::vector<TimeNs> out(ranks.size());
  if (shift == 0) {
    // One value per bucket (a range below 2^16, as launch times in ns
    // mostly have): the bucket is the answer, no second pass.
    for (std::size_t r = 0; r < ranks.size(); ++r)
      out[r] = static_cast<TimeNs>(static_cast<std::uint64_t>(lo) + bucket[r]);
    return out;
  }
  std::vector<std::vector<TimeNs>> members(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) members[r].reserve(count[bucket[r]]);
  for (const TimeNs* p = first; p != last; ++p) {
    std::size_t b = bucketOf(*p);
    for (std::size_t r = 0; r < ranks.size(); ++r)
      if (b == bucket[r]) members[r].push_back(*p);
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const auto& m = members[r];
    // A long tail (one 3 s launch among 2 us ones) puts most values in one
    // bucket: select within it the same way; each level narrows the range
    // by 16 bits, so there are at most four.
    out[r] = m.size() == n ? selectDirectly(m.data(), m.data() + m.size(), {within[r]})[0]
                           : valuesAtRanks(m.data(), m.data() + m.size(), {within[r]})[0];
  }
  return out;
}

}  // namespace gapscope::analysis::gaps_detail

namespace gapscope::analysis {

Distribution distributionOf(const std::vector<TimeNs>& values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::size_t n = values.size();
  d.max = *std::max_element(values.begin(), values.end());
  // Lower median and nearest-rank p90 (rank ceil(0.9 n)).
  auto at = gaps_detail::valuesAtRanks(values.data(), values.data() + n, {(n - 1) / 2, (9 * n + 9) / 10 - 1});
  d.median = at[0];
  d.p90 = at[1];
  return d;
}

}  // namespace gapscope::analysis
