// Steps of TraceBuilder::finish() (see trace_finish.cpp for the order).
#pragma once

#include <vector>

#include "builder_impl.h"

namespace gapscope::detail {

struct TraceAccess {
  static void setTimeRange(Trace& t, TimeNs min, TimeNs max) {
    t.minTime_ = min;
    t.maxTime_ = max;
  }
  static auto& gpuByCorrelation(Trace& t) { return t.gpuByCorrelation_; }
  static auto& launchByCorrelation(Trace& t) { return t.launchByCorrelation_; }
};

// After sorting: sorted position j holds the pending slice origin[j];
// position[i] is where pending slice i went.
struct SortedSlices {
  std::vector<std::uint32_t> origin;
  std::vector<std::uint32_t> position;
};

// Slices of each raw track in each part of the pending slices (the parts
// of partsFor(slices, threads)), counted in the pass that gathers the
// tracks' evidence, so that sorting the slices need not count them again.
struct RawTrackCounts {
  std::size_t slices = 0;                           // pending slices when counted
  std::vector<std::vector<std::uint32_t>> ofPart;   // per part, per raw track
};

std::vector<std::uint32_t> orderTracks(BuilderState& s, Trace& t,
                                       const std::vector<TrackKind>& kinds,
                                       const std::vector<std::int32_t>& device,
                                       const std::vector<std::int64_t>& stream);
// Maps slices to their final tracks (trackMap) and sorts them, in the parts
// (and so on the threads) `counts` was counted in.
SortedSlices sortSlices(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap,
                        const RawTrackCounts& counts);
// Sets each slice's depth and parent (Slice::parent) and the spill rows,
// tracks on up to `threads` threads.
void assignDepths(BuilderState& s, Trace& t, const SortedSlices& sorted, int threads);
// Puts pending flow events in (category, id, time, file) order, on up to
// `threads` threads; touches nothing but s.flows, so it can run while the
// slices are laid out.
void orderPendingFlows(BuilderState& s, int threads);
// Binds flow events to slices and chains them, on up to `threads` threads.
void bindFlows(BuilderState& s, Trace& t, const SortedSlices& sorted,
               const std::vector<std::uint32_t>& trackMap, int threads);
// The correlation indices (on up to `threads` threads), instants and counters.
void finishIndices(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap, int threads);

}  // namespace gapscope::detail
