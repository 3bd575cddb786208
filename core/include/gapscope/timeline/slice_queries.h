// Questions the timeline asks about slices: which one is under the mouse,
// its self time, its launch/kernel partner, which slices match a search.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gapscope/model/time_limits.h"
#include "gapscope/model/trace.h"
#include "gapscope/timeline/layout.h"

namespace gapscope::timeline {

// The slice of `row` containing time t; failing that the nearest one
// within `slop` ns (for slices too thin to hit). kNoIndex when none.
std::uint32_t sliceAt(const Trace& trace, const TimelineLayout& layout, std::uint32_t row,
                      TimeNs t, TimeNs slop);

// Duration minus the time covered by its direct children (the slices one
// row deeper on the same track that lie inside it).
TimeNs selfTime(const Trace& trace, const TimelineLayout& layout, std::uint32_t slice);

// The other end of a launch: for a runtime/driver launch call its GPU
// activity, for a GPU activity its launch call (by correlation id, else by
// a launch flow). kNoIndex when there is none.
std::uint32_t launchPartner(const Trace& trace, std::uint32_t slice);

// Slices whose name contains `query` (ASCII case-insensitive), in start
// order (ties by track). Empty for an empty query.
std::vector<std::uint32_t> findSlicesByName(const Trace& trace, std::string_view query);

// Slices named exactly `name` (and, when `shapes` is given, with those
// input shapes), in start order. For "highlight occurrences" of a table row.
std::vector<std::uint32_t> findSlicesNamed(const Trace& trace, std::string_view name,
                                           const std::string_view* shapes = nullptr);

// Slices of `track` (all its rows) overlapping [start, end), in start order.
std::vector<std::uint32_t> slicesOverlapping(const Trace& trace, const TimelineLayout& layout,
                                             std::uint32_t track, TimeNs start, TimeNs end);

// Of `slices`, the longest one (first on ties) of those starting at or
// after `from`, else of them all; kNoIndex when empty.
std::uint32_t longestSlice(const Trace& trace, const std::vector<std::uint32_t>& slices,
                           TimeNs from = -kMaxAbsTimeNs);

}  // namespace gapscope::timeline
