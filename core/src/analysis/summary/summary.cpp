// The trace summary: counts, span, per-device GPU busy time, import issues.
#include "gapscope/analysis/summary.h"

#include <algorithm>
#include <map>

namespace gapscope::analysis {

TimeNs unionLength(std::vector<std::pair<TimeNs, TimeNs>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  TimeNs total = 0;
  bool open = false;
  TimeNs runStart = 0;
  TimeNs runEnd = 0;
  for (const auto& [start, end] : intervals) {
    if (end <= start) continue;  // empty (or reversed) intervals cover nothing
    if (open && start <= runEnd) {
      runEnd = std::max(runEnd, end);
      continue;
    }
    if (open) total += runEnd - runStart;
    runStart = start;
    runEnd = end;
    open = true;
  }
  if (open) total += runEnd - runStart;
  return total;
}

namespace {

// The device a GPU activity ran on: its track's, else its kernel args'.
std::int32_t deviceOf(const Trace& trace, const Slice& s) {
  if (s.track < trace.tracks.size() && trace.tracks[s.track].device >= 0) return trace.tracks[s.track].device;
  if (s.kernelInfo < trace.kernelInfos.size()) return trace.kernelInfos[s.kernelInfo].device;
  return -1;
}

std::vector<DeviceBusy> gpuBusyPerDevice(const Trace& trace) {
  std::map<std::int32_t, std::vector<std::pair<TimeNs, TimeNs>>> intervals;
  for (const Slice& s : trace.slices) {
    if (isGpuActivity(s.kind)) intervals[deviceOf(trace, s)].emplace_back(s.start, s.end());
  }
  std::vector<DeviceBusy> result;
  for (auto& [device, list] : intervals) {
    DeviceBusy busy;
    busy.device = device;
    busy.activities = list.size();
    busy.firstStart = list.front().first;
    busy.lastEnd = list.front().second;
    for (const auto& [start, end] : list) {
      busy.firstStart = std::min(busy.firstStart, start);
      busy.lastEnd = std::max(busy.lastEnd, end);
    }
    busy.busy = unionLength(std::move(list));
    result.push_back(busy);
  }
  return result;
}

}  // namespace

TraceSummary summarizeTrace(const Trace& trace) {
  TraceSummary summary;
  summary.events = trace.eventCount;
  summary.tracks = trace.tracks.size();
  summary.slices = trace.slices.size();
  summary.flows = trace.flows.size();
  summary.instants = trace.instants.size();
  summary.counters = trace.counters.size();
  for (const Slice& s : trace.slices) {
    summary.kernels += s.kind == SliceKind::Kernel;
    summary.memcpys += s.kind == SliceKind::Memcpy;
    summary.memsets += s.kind == SliceKind::Memset;
  }
  summary.start = trace.minTime();
  summary.end = trace.maxTime();
  summary.gpuBusy = gpuBusyPerDevice(trace);
  for (const DeviceBusy& d : summary.gpuBusy) summary.gpuBusyTotal += d.busy;
  summary.issues = trace.issues.all();
  return summary;
}

}  // namespace gapscope::analysis
