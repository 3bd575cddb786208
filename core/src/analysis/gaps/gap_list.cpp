// rankGaps(): the gap list by the device idle time each gap holds;
// rankAllGaps() and listRanked(): the same list ranked once, then filtered.
#include "gapscope/analysis/gap_list.h"

#include <algorithm>

#include "model/parallel.h"

namespace gapscope::analysis {

TimeNs deviceIdleIn(const GpuBusy& busy, std::int32_t device, TimeNs start, TimeNs dur) {
  const DeviceBusy* d = busy.device(device);
  return d ? dur - d->intervals.busyIn(start, start + dur) : dur;
}

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

// A row with the order's whole key beside it: a sort that looked the gaps
// up for its ties took a tenth of a second for 0.7M rows.
struct KeyedRow {
  TimeNs deviceIdle;
  TimeNs dur;
  TimeNs start;
  std::uint32_t gap;
  bool deviceGap;
};

// Largest device idle first; at equal device idle the device's own gap
// (it says it most directly), then longest, then earliest. Total: no two
// rows are equivalent, so any sort gives the same order. (A type, not a
// function, so that the sorts inline it.)
struct RankedBefore {
  bool operator()(const KeyedRow& x, const KeyedRow& y) const {
    if (x.deviceIdle != y.deviceIdle) return x.deviceIdle > y.deviceIdle;
    if (x.deviceGap != y.deviceGap) return x.deviceGap;
    if (x.dur != y.dur) return x.dur > y.dur;
    return x.start != y.start ? x.start < y.start : x.gap < y.gap;
  }
};

// The listable gaps `keep` admits, in gap order: device gaps, and with
// `streams` the stream gaps that are not exactly a gap of their device.
template <typename Keep>
std::vector<KeyedRow> keyedRows(const GapAnalysis& a, const GpuBusy& busy, bool streams, Keep keep,
                                std::size_t expected = 0) {
  std::vector<KeyedRow> rows;
  rows.reserve(expected);
  const DeviceGapIndex deviceGaps(a);
  for (std::uint32_t i = 0; i < a.gaps.size(); ++i) {
    const Gap& g = a.gaps[i];
    if (!keep(g)) continue;
    if (g.stream < 0) {
      rows.push_back({g.dur, g.dur, g.start, i, true});
    } else if (streams && !deviceGaps.sameAsDeviceGap(g)) {
      rows.push_back({deviceIdleIn(busy, g.device, g.start, g.dur), g.dur, g.start, i, false});
    }
  }
  return rows;
}

std::vector<RankedGap> withoutKeys(const std::vector<KeyedRow>& rows) {
  std::vector<RankedGap> out;
  out.reserve(rows.size());
  for (const KeyedRow& r : rows) out.push_back({r.gap, r.deviceIdle});
  return out;
}

}  // namespace

std::vector<RankedGap> rankGaps(const GapAnalysis& a, const GpuBusy& busy, const GapListOptions& options) {
  std::vector<KeyedRow> rows = keyedRows(a, busy, options.streams, [&](const Gap& g) { return wanted(g, options); });
  std::sort(rows.begin(), rows.end(), RankedBefore());
  return withoutKeys(rows);
}

std::vector<RankedGap> rankAllGaps(const GapAnalysis& a, const GpuBusy& busy, int threads) {
  // Room for every gap: never outgrown, and what the stream gaps left out
  // would have taken is never touched, so it takes no memory.
  std::vector<KeyedRow> rows = keyedRows(a, busy, true, [](const Gap&) { return true; }, a.gaps.size());
  detail::parallelSort(rows.begin(), rows.end(), RankedBefore(), threads);
  return withoutKeys(rows);
}

std::vector<RankedGap> listRanked(const GapAnalysis& a, const std::vector<RankedGap>& all,
                                  const GapListOptions& options) {
  std::vector<RankedGap> out;
  for (const RankedGap& r : all) {
    const Gap& g = a.gaps[r.gap];
    if ((g.stream < 0 || options.streams) && wanted(g, options)) out.push_back(r);
  }
  return out;
}

}  // namespace gapscope::analysis
