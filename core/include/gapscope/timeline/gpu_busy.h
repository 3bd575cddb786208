// GPU busy time over time, for the utilisation chart above the timeline:
// per device the union of its kernel, memcpy and memset intervals (streams
// overlapping count once), then per bin of any time range the busy share.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::timeline {

struct DeviceBusyIntervals {
  std::int32_t device = -1;
  std::vector<std::pair<TimeNs, TimeNs>> busy;  // sorted, disjoint [start, end)
  std::vector<TimeNs> prefix;  // prefix[i]: busy time of busy[0, i)
};

// One entry per device with GPU activity, sorted by device. O(n log n).
std::vector<DeviceBusyIntervals> buildDeviceBusy(const Trace& trace);

// Busy time inside [start, end). O(log n).
TimeNs busyIn(const DeviceBusyIntervals& d, TimeNs start, TimeNs end);

// Busy share (0..1) of each of `bins` equal bins of [start, end).
std::vector<double> utilisationBins(const DeviceBusyIntervals& d, TimeNs start, TimeNs end, int bins);

}  // namespace gapscope::timeline
