// The GPU side of the gap analysis: ops per stream bound to their launch
// calls, busy blocks per stream and per device.
#include <algorithm>
#include <map>

#include "gap_context.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// Appends a block (or an op as a one-op block) to a sorted-by-start run of
// blocks, merging overlaps; ops that touch (one starts where the other
// ends) leave no gap.
void extendBlocks(std::vector<BusyBlock>& blocks, const BusyBlock& next) {
  if (blocks.empty() || next.start > blocks.back().end) {
    blocks.push_back(next);
    return;
  }
  BusyBlock& b = blocks.back();
  if (next.end > b.end) {
    b.end = next.end;
    b.lastSlice = next.lastSlice;
    b.lastCall = next.lastCall;
  }
}

std::vector<BusyBlock> streamBlocks(const std::vector<GpuOp>& ops) {
  std::vector<BusyBlock> blocks;
  blocks.reserve(ops.size());
  for (const GpuOp& op : ops) extendBlocks(blocks, {op.start, op.end, op.slice, op.call, op.slice, op.call});
  return blocks;
}

// Merges the streams' blocks by start. Devices have a handful of streams,
// so the next block is found by scanning the heads.
std::vector<BusyBlock> deviceBlocks(const std::vector<StreamTimeline>& streams,
                                    const std::vector<std::uint32_t>& members) {
  if (members.size() == 1) return streams[members[0]].blocks;
  std::size_t total = 0;
  for (std::uint32_t m : members) total += streams[m].blocks.size();
  std::vector<std::size_t> pos(members.size(), 0);
  std::vector<BusyBlock> out;
  out.reserve(total);
  for (std::size_t n = 0; n < total; ++n) {
    std::size_t best = members.size();
    for (std::size_t m = 0; m < members.size(); ++m) {
      const auto& list = streams[members[m]].blocks;
      if (pos[m] < list.size() &&
          (best == members.size() ||
           list[pos[m]].start < streams[members[best]].blocks[pos[best]].start))
        best = m;
    }
    extendBlocks(out, streams[members[best]].blocks[pos[best]++]);
  }
  return out;
}

// Sorts a stream's ops (and their correlation ids alongside) by start,
// longer first at ties, as the model orders a track.
void sortOps(StreamTimeline& st) {
  std::vector<std::uint32_t> order(st.ops.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const GpuOp& x = st.ops[a];
    const GpuOp& y = st.ops[b];
    return x.start != y.start ? x.start < y.start : x.end - x.start > y.end - y.start;
  });
  std::vector<GpuOp> ops(order.size());
  std::vector<std::int64_t> correlations(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    ops[i] = st.ops[order[i]];
    correlations[i] = st.correlations[order[i]];
  }
  st.ops = std::move(ops);
  st.correlations = std::move(correlations);
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
    for (std::uint32_t ti : tracks) {
      const Track& t = trace.tracks[ti];
      st.ops.reserve(st.ops.size() + t.sliceCount);
      st.correlations.reserve(st.ops.size() + t.sliceCount);
      for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
        if (!isGpuActivity(s->kind)) continue;
        st.ops.push_back({s->start, s->end(), static_cast<std::uint32_t>(s - trace.slices.data()),
                          kNoIndex});
        st.correlations.push_back(s->correlation);
      }
    }
    if (st.ops.empty()) continue;
    // One track per stream is the rule; two tracks naming the same stream
    // (string and numeric tids in one file) need one sort.
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

void bindAndBuildBlocks(const CallTable& calls, GpuTimelines& gpu) {
  for (StreamTimeline& st : gpu.streams) {
    for (std::size_t i = 0; i < st.ops.size(); ++i) {
      std::int64_t correlation = st.correlations[i];
      if (correlation == kNoCorrelation) continue;
      ++gpu.opsWithCorrelation;
      st.ops[i].call = calls.byCorrelation.find(correlation);
      if (st.ops[i].call == kNoIndex) ++gpu.orphanOps;
    }
    st.correlations = {};
    st.blocks = streamBlocks(st.ops);
  }
  for (DeviceTimeline& d : gpu.devices) d.blocks = deviceBlocks(gpu.streams, d.streams);
}

}  // namespace gapscope::analysis::gaps_detail
