// The GPU side of the gap analysis: ops per stream bound to their launch
// calls, and the busy blocks of every stream and device.
#include <algorithm>
#include <map>

#include "gpu_ops.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// Sorts a stream's ops by start, longer first at ties, as the model orders
// a track.
void sortOps(StreamTimeline& st) {
  std::stable_sort(st.ops.begin(), st.ops.end(), [](const GpuOp& x, const GpuOp& y) {
    return x.start != y.start ? x.start < y.start : x.end - x.start > y.end - y.start;
  });
}

template <typename Blocks>
std::uint64_t countListed(Blocks blocks, TimeNs minGapNs) {
  std::uint64_t listed = 0;
  BusyBlock before, after;
  if (!blocks.next(before)) return 0;
  while (blocks.next(after)) {
    listed += after.start - before.end >= minGapNs;
    before = after;
  }
  return listed;
}

}  // namespace

GpuTimelines collectGpuOps(const Trace& trace) {
  GpuTimelines gpu;
  std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::uint32_t>> tracksByStream;
  for (std::uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const Track& t = trace.tracks[ti];
    if (t.kind == TrackKind::GpuStream) tracksByStream[{t.device, t.stream}].push_back(ti);
  }
  for (const auto& [key, tracks] : tracksByStream) {
    StreamTimeline st;
    st.device = key.first;
    st.stream = key.second;
    std::size_t bound = 0;
    for (std::uint32_t ti : tracks) bound += trace.tracks[ti].sliceCount;
    st.ops.reserve(bound);
    for (std::uint32_t ti : tracks) {
      const Track& t = trace.tracks[ti];
      for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
        if (!isGpuActivity(s->kind)) continue;
        st.ops.push_back({s->start, s->end(), static_cast<std::uint32_t>(s - trace.slices.data()),
                          kNoIndex});
      }
    }
    if (st.ops.empty()) continue;
    // One track per stream is the rule (and a track is sorted already);
    // two tracks naming the same stream (string and numeric tids in one
    // file) need one sort.
    if (tracks.size() > 1) sortOps(st);
    gpu.ops += st.ops.size();
    gpu.streams.push_back(std::move(st));
  }
  for (std::uint32_t si = 0; si < gpu.streams.size(); ++si) {
    const StreamTimeline& st = gpu.streams[si];
    if (gpu.devices.empty() || gpu.devices.back().device != st.device) {
      gpu.devices.emplace_back();
      gpu.devices.back().device = st.device;
    }
    gpu.devices.back().streams.push_back(si);
    gpu.devices.back().ops += st.ops.size();
  }
  return gpu;
}

void bindOps(const Trace& trace, const CallTable& calls, GpuTimelines& gpu) {
  gpu.opsPerCall.assign(calls.calls.size(), 0);
  for (StreamTimeline& st : gpu.streams) {
    for (GpuOp& op : st.ops) {
      std::int64_t correlation = trace.slices[op.slice].correlation;
      if (correlation == kNoCorrelation) continue;
      ++gpu.opsWithCorrelation;
      op.call = calls.byCorrelation.find(correlation);
      if (op.call == kNoIndex)
        ++gpu.orphanOps;
      else
        ++gpu.opsPerCall[op.call];
    }
  }
}

void countGaps(GpuTimelines& gpu, TimeNs minGapNs) {
  for (StreamTimeline& st : gpu.streams) st.listedGaps = countListed(StreamBlocks(st.ops), minGapNs);
  for (DeviceTimeline& d : gpu.devices) {
    // A one-stream device has exactly its stream's gaps.
    d.listedGaps = d.streams.size() == 1 ? gpu.streams[d.streams[0]].listedGaps
                                         : countListed(DeviceBlocks(gpu, d), minGapNs);
  }
}

DeviceBlocks::DeviceBlocks(const GpuTimelines& gpu, const DeviceTimeline& d) {
  streams_.reserve(d.streams.size());
  heads_.resize(d.streams.size());
  live_.resize(d.streams.size());
  for (std::size_t m = 0; m < d.streams.size(); ++m) {
    streams_.emplace_back(gpu.streams[d.streams[m]].ops);
    live_[m] = streams_[m].next(heads_[m]);
  }
}

bool DeviceBlocks::nextStreamBlock(BusyBlock& b) {
  std::size_t best = heads_.size();
  for (std::size_t m = 0; m < heads_.size(); ++m)
    if (live_[m] && (best == heads_.size() || heads_[m].start < heads_[best].start)) best = m;
  if (best == heads_.size()) return false;
  b = heads_[best];
  live_[best] = streams_[best].next(heads_[best]);
  return true;
}

bool DeviceBlocks::next(BusyBlock& b) {
  if (!hasPending_ && !nextStreamBlock(pending_)) return false;
  b = pending_;
  hasPending_ = false;
  while (nextStreamBlock(pending_)) {
    if (pending_.start > b.end) {
      hasPending_ = true;
      break;
    }
    if (pending_.end > b.end) {
      b.end = pending_.end;
      b.lastSlice = pending_.lastSlice;
      b.lastCall = pending_.lastCall;
    }
  }
  return true;
}

}  // namespace gapscope::analysis::gaps_detail
