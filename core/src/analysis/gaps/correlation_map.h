// Correlation ids to positions in the call table (call_table.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::analysis::gaps_detail {

// Maps a correlation id to a small integer (the position of a CPU call in
// CallTable::calls). Kineto and CUPTI hand out dense, increasing ids, so a
// direct table is used when the ids are dense enough; otherwise a sorted
// vector with binary search.
class CorrelationMap {
 public:
  // Maps correlations[i] to i; ids must be non-zero.
  void build(const std::vector<std::int64_t>& correlations);
  std::uint32_t find(std::int64_t correlation) const;  // kNoIndex when absent

 private:
  std::int64_t base_ = 0;
  std::vector<std::uint32_t> dense_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> sorted_;
};

}  // namespace gapscope::analysis::gaps_detail
