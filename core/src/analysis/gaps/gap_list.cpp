// rankGaps(): the gap list by the device idle time each gap holds.
#include "gapscope/analysis/gap_list.h"

#include <algorithm>

namespace gapscope::analysis {
namespace {

// Device gaps sorted by (device, start): their run at the front of the gap
// list is already in that order.
class DeviceGapIndex {
 public:
  explicit DeviceGapIndex(const GapAnalysis& a) : gaps_(a.gaps) {
    while (count_ < gaps_.size() && gaps_[count_].stream < 0) ++count_;
  }
  // True when `g` (a stream gap) is exactly a gap of its whole device.
  bool sameAsDeviceGap(const Gap& g) const {
    const Gap* first = gaps_.data();
    const Gap* last = first + count_;
    const Gap* it = std::lower_bound(first, last, g, [](const Gap& d, const Gap& x) {
      return d.device != x.device ? d.device < x.device : d.start < x.start;
    });
    return it != last && it->device == g.device && it->start == g.start && it->dur == g.dur;
  }

 private:
  const std::vector<Gap>& gaps_;
  std::size_t count_ = 0;
};

bool wanted(const Gap& g, const GapListOptions& o) {
  if (g.dur < o.minGapNs) return false;
  if (o.timeRange && !o.timeRange->overlaps(g.start, g.end())) return false;
  return !o.durationRange || (g.dur >= o.durationRange->first && g.dur < o.durationRange->second);
}

}  // namespace

TimeNs deviceIdleIn(const GpuBusy& busy, std::int32_t device, TimeNs start, TimeNs dur) {
  const DeviceBusy* d = busy.device(device);
  return d ? dur - d->intervals.busyIn(start, start + dur) : dur;
}

std::vector<RankedGap> rankGaps(const GapAnalysis& a, const GpuBusy& busy, const GapListOptions& options) {
  // The order's whole key beside each row: a sort that looked the gaps up
  // for its ties took a tenth of a second for 0.7M rows, on the GUI thread.
  struct Keyed {
    TimeNs deviceIdle;
    TimeNs dur;
    TimeNs start;
    std::uint32_t gap;
    bool deviceGap;
  };
  std::vector<Keyed> keyed;
  const DeviceGapIndex deviceGaps(a);
  for (std::uint32_t i = 0; i < a.gaps.size(); ++i) {
    const Gap& g = a.gaps[i];
    if (!wanted(g, options)) continue;
    if (g.stream < 0) {
      keyed.push_back({g.dur, g.dur, g.start, i, true});
    } else if (options.streams && !deviceGaps.sameAsDeviceGap(g)) {
      keyed.push_back({deviceIdleIn(busy, g.device, g.start, g.dur), g.dur, g.start, i, false});
    }
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& x, const Keyed& y) {
    if (x.deviceIdle != y.deviceIdle) return x.deviceIdle > y.deviceIdle;
    // At equal device idle the device's own gap says it most directly.
    if (x.deviceGap != y.deviceGap) return x.deviceGap;
    if (x.dur != y.dur) return x.dur > y.dur;
    return x.start != y.start ? x.start < y.start : x.gap < y.gap;
  });
  std::vector<RankedGap> out;
  out.reserve(keyed.size());
  for (const Keyed& k : keyed) out.push_back({k.gap, k.deviceIdle});
  return out;
}

}  // namespace gapscope::analysis
