// Slice index by correlation id (Trace::gpuOpForCorrelation and
// launchForCorrelation). CUPTI numbers API calls one after another, so a
// trace's correlation ids are usually dense: where the ids span at most four
// times as many values as there are entries, a flat table indexed by
// (id - first id) answers with one read, in no more memory than the sorted
// pairs it replaces (4 bytes a value against 16 an entry). Elsewhere the
// sorted pairs are searched. Either way an id maps to its first entry in
// (id, slice index) order: for a graph launch's GPU ops, the earliest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gapscope {

class CorrelationIndex {
 public:
  using Entry = std::pair<std::int64_t, std::uint32_t>;  // (correlation, slice index)

  // `entries` in any order.
  void build(std::vector<Entry> entries);
  // Whether ids spanning `span` + 1 values for `entries` entries get the flat
  // table: the one rule for build() and adoptTable().
  static bool denseFor(std::uint64_t span, std::size_t entries) { return span < std::uint64_t{4} * entries; }
  // Takes a flat table made by the caller: table[id - first] is the id's
  // first slice index or kNoIndex (what build() makes of dense entries).
  void adoptTable(std::int64_t first, std::vector<std::uint32_t> table);
  // The slice of this correlation, or kNoIndex (types.h) when none has it.
  std::uint32_t find(std::int64_t correlation) const;
  bool dense() const { return !table_.empty(); }
  std::size_t memoryBytes() const;

 private:
  std::int64_t first_ = 0;
  std::vector<std::uint32_t> table_;  // dense: by correlation - first_
  std::vector<Entry> sorted_;         // sparse: sorted pairs
};

}  // namespace gapscope
