#include "gapscope/timeline/histogram.h"

#include <algorithm>
#include <limits>

namespace gapscope::timeline {

namespace {

// The 1-2-5 x 10^k value at or below v (v >= 1).
TimeNs edgeAtOrBelow(TimeNs v) {
  TimeNs decade = 1;
  while (decade <= v / 10) decade *= 10;
  for (TimeNs m : {5, 2, 1}) {
    if (decade * m <= v) return decade * m;
  }
  return decade;
}

// The 1-2-5 x 10^k value after e; the int64 maximum past 5e18 (10^19 does
// not fit), which ends the bins.
TimeNs nextEdge(TimeNs e) {
  TimeNs decade = 1;
  while (decade <= e / 10) decade *= 10;
  const TimeNs lead = e / decade;
  if (lead == 1) return 2 * decade;
  if (lead == 2) return 5 * decade;
  if (decade > std::numeric_limits<TimeNs>::max() / 10) return std::numeric_limits<TimeNs>::max();
  return 10 * decade;
}

}  // namespace

std::size_t DurationHistogram::binOf(TimeNs v) const {
  // hi is ascending: the first bin whose upper edge is above v.
  const auto it = std::upper_bound(hi.begin(), hi.end(), v);
  const auto i = static_cast<std::size_t>(it - hi.begin());
  return i < bins() && v >= lo[i] ? i : bins();
}

DurationHistogram makeDurationHistogram(const std::vector<TimeNs>& values) {
  DurationHistogram h;
  if (values.empty()) return h;
  TimeNs minPositive = std::numeric_limits<TimeNs>::max();
  TimeNs max = std::numeric_limits<TimeNs>::min();
  bool zero = false;
  for (TimeNs v : values) {
    if (v < 0) h.hasNegativeBin = true;
    if (v == 0) zero = true;
    if (v > 0) minPositive = std::min(minPositive, v);
    max = std::max(max, v);
  }
  if (h.hasNegativeBin) {
    h.lo.push_back(std::numeric_limits<TimeNs>::min());
    h.hi.push_back(0);
  }
  if (max >= 0) {
    TimeNs edge = minPositive == std::numeric_limits<TimeNs>::max() ? 1 : edgeAtOrBelow(minPositive);
    if (zero) {
      h.lo.push_back(0);
      h.hi.push_back(edge);
    }
    while (edge <= max) {
      const TimeNs next = nextEdge(edge);
      h.lo.push_back(edge);
      h.hi.push_back(next);
      if (next == std::numeric_limits<TimeNs>::max()) break;  // the last bin holds the rest
      edge = next;
    }
  }
  h.count.assign(h.lo.size(), 0);
  for (TimeNs v : values) {
    const std::size_t b = h.binOf(v);
    if (b < h.bins()) ++h.count[b];
  }
  return h;
}

}  // namespace gapscope::timeline
