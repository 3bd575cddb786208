// Exact order statistics of integer nanoseconds without sorting: a
// histogram of the values' top 16 bits (relative to the minimum) finds the
// bucket that holds each wanted rank, and only that bucket's values are
// selected from. Two passes over the data, whatever its size (one when the
// values span less than 2^16 ns, each bucket then holding one value); millions of
// launch durations take milliseconds, where std::nth_element took ten times
// as long and needed a copy it could reorder.
#pragma once

#include <cstddef>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::analysis::gaps_detail {

// The values of rank ranks[i] (0-based, in ascending order of value) of
// [first, last), for every i; ranks must be < last - first.
std::vector<TimeNs> valuesAtRanks(const TimeNs* first, const TimeNs* last,
                                  const std::vector<std::size_t>& ranks);

}  // namespace gapscope::analysis::gaps_detail
