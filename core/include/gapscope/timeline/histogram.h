// Duration histograms with 1-2-5 bins (1 us, 2 us, 5 us, 10 us, ...), the
// shape that suits launch gaps and queue times: most are microseconds, a
// few are milliseconds, and both ends matter.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::timeline {

struct DurationHistogram {
  // Bin i holds lo[i] <= v < hi[i]. A first bin (-inf, 0) appears when some
  // value is negative (a launch whose kernel started before the call returned).
  std::vector<TimeNs> lo;
  std::vector<TimeNs> hi;
  std::vector<std::uint64_t> count;
  bool hasNegativeBin = false;

  std::size_t bins() const { return count.size(); }
  // The bin of v; size() when outside every bin.
  std::size_t binOf(TimeNs v) const;
};

// Bins from the 1-2-5 edge at or below the smallest positive value up past
// the largest. Values of 0 go into a [0, first edge) bin. Empty input: no bins.
DurationHistogram makeDurationHistogram(const std::vector<TimeNs>& values);

}  // namespace gapscope::timeline
