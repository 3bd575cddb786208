#include "gapscope/timeline/gpu_busy.h"

#include <algorithm>
#include <map>

namespace gapscope::timeline {

namespace {

// Busy time of [0, t): whole intervals before t plus the part of the one holding t.
TimeNs busyBefore(const DeviceBusyIntervals& d, TimeNs t) {
  const auto it = std::partition_point(d.busy.begin(), d.busy.end(),
                                       [&](const auto& iv) { return iv.second <= t; });
  const auto i = static_cast<std::size_t>(it - d.busy.begin());
  TimeNs total = d.prefix[i];
  if (it != d.busy.end() && it->first < t) total += t - it->first;
  return total;
}

}  // namespace

std::vector<DeviceBusyIntervals> buildDeviceBusy(const Trace& trace) {
  std::map<std::int32_t, std::vector<std::pair<TimeNs, TimeNs>>> byDevice;
  for (const Track& track : trace.tracks) {
    if (track.kind != TrackKind::GpuStream) continue;
    auto& v = byDevice[track.device];
    for (const Slice* s = trace.trackBegin(track); s != trace.trackEnd(track); ++s) {
      if (isGpuActivity(s->kind) && s->dur > 0) v.emplace_back(s->start, s->end());
    }
  }
  std::vector<DeviceBusyIntervals> out;
  for (auto& [device, intervals] : byDevice) {
    if (intervals.empty()) continue;
    std::sort(intervals.begin(), intervals.end());
    DeviceBusyIntervals d;
    d.device = device;
    for (const auto& iv : intervals) {
      if (!d.busy.empty() && iv.first <= d.busy.back().second) {
        d.busy.back().second = std::max(d.busy.back().second, iv.second);
      } else {
        d.busy.push_back(iv);
      }
    }
    d.prefix.assign(d.busy.size() + 1, 0);
    for (std::size_t i = 0; i < d.busy.size(); ++i) {
      d.prefix[i + 1] = d.prefix[i] + (d.busy[i].second - d.busy[i].first);
    }
    out.push_back(std::move(d));
  }
  return out;
}

TimeNs busyIn(const DeviceBusyIntervals& d, TimeNs start, TimeNs end) {
  if (end <= start || d.busy.empty()) return 0;
  return busyBefore(d, end) - busyBefore(d, start);
}

std::vector<double> utilisationBins(const DeviceBusyIntervals& d, TimeNs start, TimeNs end, int bins) {
  std::vector<double> out(static_cast<std::size_t>(std::max(bins, 0)), 0.0);
  if (bins <= 0 || end <= start) return out;
  const double width = static_cast<double>(end - start) / bins;
  for (int i = 0; i < bins; ++i) {
    const auto a = start + static_cast<TimeNs>(width * i);
    const auto b = start + static_cast<TimeNs>(width * (i + 1));
    if (b > a) out[static_cast<std::size_t>(i)] = static_cast<double>(busyIn(d, a, b)) / static_cast<double>(b - a);
  }
  return out;
}

}  // namespace gapscope::timeline
