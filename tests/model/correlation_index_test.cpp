// CorrelationIndex against a search of the entries themselves: the lowest
// slice index of an id, kNoIndex for ids absent and for 0 (no correlation),
// in its flat table (dense ids) and its sorted pairs (sparse ones).
#include "gapscope/model/correlation_index.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "gapscope/model/types.h"

using gapscope::CorrelationIndex;
using gapscope::kNoIndex;

namespace {

std::uint32_t searched(const std::vector<CorrelationIndex::Entry>& entries, std::int64_t id) {
  std::uint32_t best = kNoIndex;
  if (id == gapscope::kNoCorrelation) return best;
  for (const auto& [c, slice] : entries)
    if (c == id) best = std::min(best, slice);
  return best;
}

void expectSameAsSearching(const std::vector<CorrelationIndex::Entry>& entries, const std::vector<std::int64_t>& ids) {
  CorrelationIndex index;
  index.build(entries);
  for (std::int64_t id : ids) ASSERT_EQ(index.find(id), searched(entries, id)) << "id " << id;
}

TEST(CorrelationIndex, DenseIdsWithGapsAndRepeats) {
  std::mt19937 rng(3);
  std::vector<CorrelationIndex::Entry> entries;
  for (std::uint32_t slice = 0; slice < 3000; ++slice) entries.emplace_back(-500 + static_cast<int>(rng() % 2000), slice);
  std::shuffle(entries.begin(), entries.end(), rng);
  CorrelationIndex index;
  index.build(entries);
  EXPECT_TRUE(index.dense());
  std::vector<std::int64_t> ids;
  for (std::int64_t id = -600; id < 1600; ++id) ids.push_back(id);  // 0 among them
  ids.push_back(std::numeric_limits<std::int64_t>::min());
  ids.push_back(std::numeric_limits<std::int64_t>::max());
  expectSameAsSearching(entries, ids);
}

TEST(CorrelationIndex, SparseIdsAcrossTheWholeRange) {
  std::mt19937_64 rng(5);
  std::vector<CorrelationIndex::Entry> entries;
  std::vector<std::int64_t> ids{0, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  for (std::uint32_t slice = 0; slice < 500; ++slice) {
    const auto id = static_cast<std::int64_t>(rng());
    entries.emplace_back(id, slice);
    if (slice % 3 == 0) entries.emplace_back(id, slice + 1000);  // repeated: the lower slice wins
    ids.push_back(id);
    ids.push_back(id + 1);
  }
  entries.emplace_back(std::numeric_limits<std::int64_t>::min(), 7);
  entries.emplace_back(std::numeric_limits<std::int64_t>::max(), 8);
  CorrelationIndex index;
  index.build(entries);
  EXPECT_FALSE(index.dense());
  expectSameAsSearching(entries, ids);
}

TEST(CorrelationIndex, FlatTableOnlyWhileNoBiggerThanThePairs) {
  // 10 entries: ids spanning 39 values (0..39 apart) fit, 40 do not.
  for (std::int64_t span : {39, 40}) {
    std::vector<CorrelationIndex::Entry> entries;
    for (std::uint32_t i = 0; i < 9; ++i) entries.emplace_back(1 + i, i);
    entries.emplace_back(1 + span, 9);
    CorrelationIndex index;
    index.build(entries);
    EXPECT_EQ(index.dense(), span < 40);
    expectSameAsSearching(entries, {0, 1, 5, 9, 10, 1 + span, 2 + span});
  }
}

TEST(CorrelationIndex, EmptyFindsNothing) {
  CorrelationIndex index;
  EXPECT_EQ(index.find(1), kNoIndex);
  index.build({});
  EXPECT_EQ(index.find(1), kNoIndex);
  EXPECT_EQ(index.memoryBytes(), 0u);
}

}  // namespace
