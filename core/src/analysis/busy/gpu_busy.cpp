#include "gapscope/analysis/gpu_busy.h"

#include <algorithm>
#include <map>

#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {

void BusyIntervals::add(TimeNs start, TimeNs end) {
  if (end <= start) return;
  if (!spans_.empty() && start <= spans_.back().second) {
    if (end > spans_.back().second) {
      prefix_.back() += end - spans_.back().second;
      spans_.back().second = end;
    }
    return;
  }
  spans_.emplace_back(start, end);
  prefix_.push_back(prefix_.back() + (end - start));
}

// Busy time of (-inf, t): whole intervals before t plus the part of the one holding t.
TimeNs BusyIntervals::busyBefore(TimeNs t) const {
  const auto it = std::partition_point(spans_.begin(), spans_.end(),
                                       [&](const auto& iv) { return iv.second <= t; });
  const auto i = static_cast<std::size_t>(it - spans_.begin());
  TimeNs total = prefix_[i];
  if (it != spans_.end() && it->first < t) total += t - it->first;
  return total;
}

TimeNs BusyIntervals::busyIn(TimeNs start, TimeNs end) const {
  if (end <= start || spans_.empty()) return 0;
  return busyBefore(end) - busyBefore(start);
}

double BusyRow::utilization() const { return busyShare(busy, activeNs()); }

TimeNs GpuBusy::total() const {
  TimeNs sum = 0;
  for (const DeviceBusy& d : devices) sum = addSaturating(sum, d.busy);
  return sum;
}

const DeviceBusy* GpuBusy::device(std::int32_t id) const {
  for (const DeviceBusy& d : devices)
    if (d.device == id) return &d;
  return nullptr;
}

const BusyRow* GpuBusy::stream(std::int32_t device, std::int64_t stream) const {
  for (const BusyRow& s : streams)
    if (s.device == device && s.stream == stream) return &s;
  return nullptr;
}

namespace {

using Span = std::pair<TimeNs, TimeNs>;

// Counts one activity into the row's window and activity count.
void countActivity(BusyRow& row, const Slice& s) {
  if (row.activities == 0 || s.start < row.firstStart) row.firstStart = s.start;
  if (row.activities == 0 || s.end() > row.lastEnd) row.lastEnd = s.end();
  ++row.activities;
}

// Adds a track's activities (in start order) to a stream's row and intervals.
void addTrack(const Trace& trace, const Track& track, BusyRow& row, BusyIntervals& intervals) {
  for (const Slice* s = trace.trackBegin(track); s != trace.trackEnd(track); ++s) {
    if (!isGpuActivity(s->kind)) continue;
    countActivity(row, *s);
    intervals.add(s->start, s->end());
  }
}

// One stream's busy intervals, from the one or more tracks naming it.
BusyIntervals streamIntervals(const Trace& trace, const std::vector<std::uint32_t>& tracks, BusyRow& row) {
  BusyIntervals intervals;
  if (tracks.size() == 1) {
    addTrack(trace, trace.tracks[tracks[0]], row, intervals);  // a track is sorted by start already
    return intervals;
  }
  // Two tracks naming one stream (string and numeric tids in one file): sort.
  std::vector<Span> spans;
  for (std::uint32_t ti : tracks) {
    const Track& track = trace.tracks[ti];
    for (const Slice* s = trace.trackBegin(track); s != trace.trackEnd(track); ++s) {
      if (!isGpuActivity(s->kind)) continue;
      countActivity(row, *s);
      spans.emplace_back(s->start, s->end());
    }
  }
  std::sort(spans.begin(), spans.end());
  for (const auto& [start, end] : spans) intervals.add(start, end);
  return intervals;
}

void addToDevice(DeviceBusy& device, const BusyRow& stream) {
  if (device.activities == 0 || stream.firstStart < device.firstStart) device.firstStart = stream.firstStart;
  if (device.activities == 0 || stream.lastEnd > device.lastEnd) device.lastEnd = stream.lastEnd;
  device.activities += stream.activities;
}

// The device's intervals: its streams' merged by start (a device has a
// handful of streams, so the next one is found by scanning the heads).
void mergeStreams(DeviceBusy& device, std::vector<BusyIntervals>& streams) {
  if (streams.size() == 1) {
    device.intervals = std::move(streams.front());
  } else {
    std::vector<std::size_t> next(streams.size(), 0);
    for (;;) {
      std::size_t best = streams.size();
      for (std::size_t k = 0; k < streams.size(); ++k) {
        if (next[k] == streams[k].spans().size()) continue;
        if (best == streams.size() || streams[k].spans()[next[k]].first < streams[best].spans()[next[best]].first)
          best = k;
      }
      if (best == streams.size()) break;
      const Span& span = streams[best].spans()[next[best]++];
      device.intervals.add(span.first, span.second);
    }
  }
  device.busy = device.intervals.total();
}

}  // namespace

GpuBusy computeGpuBusy(const Trace& trace) {
  std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::uint32_t>> tracksByStream;
  for (std::uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const Track& t = trace.tracks[ti];
    if (t.kind == TrackKind::GpuStream) tracksByStream[{t.device, t.stream}].push_back(ti);
  }
  GpuBusy out;
  std::vector<BusyIntervals> deviceStreams;  // the current device's streams
  auto closeDevice = [&] {
    if (!deviceStreams.empty()) mergeStreams(out.devices.back(), deviceStreams);
    deviceStreams.clear();
  };
  for (const auto& [key, tracks] : tracksByStream) {
    BusyRow row{key.first, key.second};
    BusyIntervals intervals = streamIntervals(trace, tracks, row);
    if (row.activities == 0) continue;
    row.busy = intervals.total();
    if (out.devices.empty() || out.devices.back().device != row.device) {
      closeDevice();
      out.devices.emplace_back().device = row.device;
    }
    addToDevice(out.devices.back(), row);
    deviceStreams.push_back(std::move(intervals));
    out.streams.push_back(row);
  }
  closeDevice();
  return out;
}

std::vector<std::pair<std::int32_t, TimeNs>> busyIn(const GpuBusy& busy, TimeRange range) {
  std::vector<std::pair<std::int32_t, TimeNs>> out;
  for (const DeviceBusy& d : busy.devices) out.emplace_back(d.device, d.intervals.busyIn(range.start, range.end));
  return out;
}

std::vector<double> utilisationBins(const BusyIntervals& busy, TimeNs start, TimeNs end, int bins) {
  std::vector<double> out(static_cast<std::size_t>(std::max(bins, 0)), 0.0);
  if (bins <= 0 || end <= start) return out;
  const double width = static_cast<double>(end - start) / bins;
  for (int i = 0; i < bins; ++i) {
    const auto a = start + static_cast<TimeNs>(width * i);
    const auto b = start + static_cast<TimeNs>(width * (i + 1));
    if (b > a) out[static_cast<std::size_t>(i)] = static_cast<double>(busy.busyIn(a, b)) / static_cast<double>(b - a);
  }
  return out;
}

}  // namespace gapscope::analysis
