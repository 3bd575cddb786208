#include "gapscope/model/correlation_index.h"

#include <algorithm>

#include "gapscope/model/types.h"

namespace gapscope {

void CorrelationIndex::build(std::vector<Entry> entries) {
  table_ = {};
  sorted_ = {};
  if (entries.empty()) return;
  const auto [low, high] = std::minmax_element(entries.begin(), entries.end(),
                                               [](const Entry& a, const Entry& b) { return a.first < b.first; });
  // The span in unsigned arithmetic: ids may be anything an int64 holds.
  const std::uint64_t span = static_cast<std::uint64_t>(high->first) - static_cast<std::uint64_t>(low->first);
  if (!denseFor(span, entries.size())) {
    std::sort(entries.begin(), entries.end());
    sorted_ = std::move(entries);
    return;
  }
  // Dense: no sort (it was a third of the indices' time on millions of
  // slices). An id keeps its smallest slice index, the first in sorted
  // order; kNoIndex is the largest value a slot can hold.
  first_ = low->first;
  table_.assign(static_cast<std::size_t>(span) + 1, kNoIndex);
  for (const Entry& e : entries) {
    std::uint32_t& slot = table_[static_cast<std::uint64_t>(e.first) - static_cast<std::uint64_t>(first_)];
    slot = std::min(slot, e.second);
  }
}

void CorrelationIndex::adoptTable(std::int64_t first, std::vector<std::uint32_t> table) {
  sorted_ = {};
  first_ = first;
  table_ = std::move(table);
}

std::uint32_t CorrelationIndex::find(std::int64_t correlation) const {
  if (correlation == kNoCorrelation) return kNoIndex;
  if (!table_.empty()) {
    const std::uint64_t at = static_cast<std::uint64_t>(correlation) - static_cast<std::uint64_t>(first_);
    return at < table_.size() ? table_[at] : kNoIndex;
  }
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), Entry{correlation, 0});
  if (it == sorted_.end() || it->first != correlation) return kNoIndex;
  return it->second;
}

std::size_t CorrelationIndex::memoryBytes() const {
  return table_.capacity() * sizeof(std::uint32_t) + sorted_.capacity() * sizeof(Entry);
}

}  // namespace gapscope
