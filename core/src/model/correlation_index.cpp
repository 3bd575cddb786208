#include "gapscope/model/correlation_index.h"

#include <algorithm>

#include "gapscope/model/types.h"

namespace gapscope {

void CorrelationIndex::build(std::vector<Entry> entries) {
  table_ = {};
  sorted_ = {};
  if (entries.empty()) return;
  std::sort(entries.begin(), entries.end());
  // The span in unsigned arithmetic: ids may be anything an int64 holds.
  const std::uint64_t span =
      static_cast<std::uint64_t>(entries.back().first) - static_cast<std::uint64_t>(entries.front().first);
  if (span >= std::uint64_t{4} * entries.size()) {
    sorted_ = std::move(entries);
    return;
  }
  first_ = entries.front().first;
  table_.assign(static_cast<std::size_t>(span) + 1, kNoIndex);
  // Sorted: the first entry of each id is the one kept.
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    table_[static_cast<std::uint64_t>(it->first) - static_cast<std::uint64_t>(first_)] = it->second;
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
