// The GPU side of the gap analysis: ops per stream, busy blocks per stream
// and per device.
#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

#include "gap_context.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// Appends `op` to a sorted-by-start run of blocks, merging overlaps; ops
// that touch (one starts where the other ends) leave no gap.
void extendBlocks(std::vector<BusyBlock>& blocks, TimeNs start, TimeNs end, std::uint32_t firstOp,
                  std::uint32_t lastOp) {
  if (blocks.empty() || start > blocks.back().end) {
    blocks.push_back({start, end, firstOp, lastOp});
    return;
  }
  BusyBlock& b = blocks.back();
  if (end > b.end) {
    b.end = end;
    b.lastOp = lastOp;
  }
}

std::vector<BusyBlock> streamBlocks(const Trace& trace, const std::vector<std::uint32_t>& ops) {
  std::vector<BusyBlock> blocks;
  for (std::uint32_t op : ops) {
    const Slice& s = trace.slices[op];
    extendBlocks(blocks, s.start, s.end(), op, op);
  }
  return blocks;
}

// Merges the streams' blocks by start (a k-way merge: each list is sorted).
std::vector<BusyBlock> deviceBlocks(const std::vector<StreamTimeline>& streams,
                                    const std::vector<std::uint32_t>& members) {
  if (members.size() == 1) return streams[members[0]].blocks;
  using Head = std::tuple<TimeNs, std::uint32_t, std::size_t>;  // start, member, position
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
  for (std::uint32_t m = 0; m < members.size(); ++m) {
    const auto& b = streams[members[m]].blocks;
    if (!b.empty()) heap.emplace(b[0].start, m, 0);
  }
  std::vector<BusyBlock> out;
  while (!heap.empty()) {
    auto [start, m, pos] = heap.top();
    heap.pop();
    const auto& list = streams[members[m]].blocks;
    const BusyBlock& b = list[pos];
    extendBlocks(out, b.start, b.end, b.firstOp, b.lastOp);
    if (pos + 1 < list.size()) heap.emplace(list[pos + 1].start, m, pos + 1);
  }
  return out;
}

void sortOps(const Trace& trace, std::vector<std::uint32_t>& ops) {
  std::stable_sort(ops.begin(), ops.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Slice& x = trace.slices[a];
    const Slice& y = trace.slices[b];
    return x.start != y.start ? x.start < y.start : x.dur > y.dur;
  });
}

}  // namespace

GpuTimelines buildGpuTimelines(const Trace& trace) {
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
    for (std::uint32_t ti : tracks) {
      const Track& t = trace.tracks[ti];
      for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
        const Slice& s = trace.slices[i];
        if (!isGpuActivity(s.kind)) continue;
        st.ops.push_back(i);
        if (s.correlation != kNoCorrelation) ++gpu.opsWithCorrelation;
      }
    }
    if (st.ops.empty()) continue;
    // One track per stream is the rule; two tracks naming the same stream
    // (string and numeric tids in one file) need one sort.
    if (tracks.size() > 1) sortOps(trace, st.ops);
    st.blocks = streamBlocks(trace, st.ops);
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
  for (DeviceTimeline& d : gpu.devices) d.blocks = deviceBlocks(gpu.streams, d.streams);
  return gpu;
}

}  // namespace gapscope::analysis::gaps_detail
