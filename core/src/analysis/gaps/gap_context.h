// Internal pieces of the launch-gap analysis, shared by its .cpp files.
//
// The trace's slices are 64 bytes each and a big trace holds millions, so
// the analysis reads them as few times as it can: one pass over the CPU
// tracks copies the runtime/driver calls into compact CallRecs (with their
// launch kind), one pass over the GPU tracks copies kernels, memcpys and
// memsets into compact GpuOps already bound to their call. Everything after
// that (busy blocks, gap causes, launch statistics, steps) works on those
// records; only the CPU-op attribution walks the slices again, and only
// inside the gaps, moving forward in time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/model/trace.h"

namespace gapscope::analysis::gaps_detail {

// Maps a correlation id to a small integer (the position of a CPU call in
// CallTable::calls). Kineto and CUPTI hand out dense, increasing ids, so a
// direct table is used when the ids are dense enough; otherwise a sorted
// vector with binary search.
class CorrelationMap {
 public:
  // Maps correlations[i] to i; ids must be non-zero.
  void build(const std::vector<std::int64_t>& correlations);
  std::uint32_t find(std::int64_t correlation) const;  // kNoIndex when absent

 private:
  std::int64_t base_ = 0;
  std::vector<std::uint32_t> dense_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> sorted_;
};

// A CPU runtime/driver call that carries a correlation id.
struct CallRec {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
  std::uint32_t track = kNoIndex;
  StringId name = kEmptyString;
  LaunchKind kind = LaunchKind::None;
};

// A blocking call (synchronize, synchronous memcpy) on one thread.
struct SyncRec {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
};

// A cudaStreamWaitEvent call and the stream it made wait, when a cuda_sync
// marker says so (kAnyStream otherwise).
inline constexpr std::int64_t kAnyStream = -2;
struct WaitRec {
  TimeNs start = 0;
  std::uint32_t slice = kNoIndex;
  std::int64_t stream = kAnyStream;
};

// What each CPU thread did that matters to the GPU queue.
struct ThreadCalls {
  std::vector<SyncRec> blockingSyncs;  // sorted by start
  std::vector<WaitRec> waits;          // sorted by start
};

// Parent links of one CPU track's slices (local indices). A slice that
// overlaps a sibling without nesting ("spilled") gets no self time; its
// parent is the innermost slice open at its start, so ancestor walks pass
// through it.
struct TrackTree {
  std::vector<std::uint32_t> parent;
  std::vector<std::uint8_t> spilled;
};

// Builds a TrackTree one slice at a time, in track order.
class TrackTreeBuilder {
 public:
  TrackTreeBuilder(const Slice* first, std::uint32_t count, TrackTree& tree)
      : first_(first), tree_(tree) {
    tree_.parent.resize(count);
    tree_.spilled.resize(count);
  }
  void add(std::uint32_t i) {
    const Slice& s = first_[i];
    while (!open_.empty() && first_[open_.back()].end() <= s.start) open_.pop_back();
    bool nests = open_.empty() || first_[open_.back()].end() >= s.end();
    tree_.parent[i] = open_.empty() ? kNoIndex : open_.back();
    tree_.spilled[i] = nests ? 0 : 1;
    if (nests) open_.push_back(i);
  }

 private:
  const Slice* first_;
  TrackTree& tree_;
  std::vector<std::uint32_t> open_;  // nested slices still running, innermost last
};
TrackTree buildTrackTree(const Slice* first, std::uint32_t count);

struct CallTable {
  std::vector<CallRec> calls;        // in track order, each track's by start
  CorrelationMap byCorrelation;      // correlation -> position in `calls`
  std::vector<ThreadCalls> threads;  // indexed by track
  std::uint64_t launchCallsWithoutCorrelation = 0;
  std::vector<std::uint32_t> steps;  // ProfilerStep#N annotations, sorted by start
  std::vector<TrackTree> trees;      // per CPU track, when asked for
};

// Reads the CPU side in one pass: calls, sync calls, wait calls (bound to
// streams through cuda_sync markers), step annotations and, with
// `withTrees`, each CPU track's parent links for the CPU-op attribution.
CallTable buildCallTable(const Trace& trace, bool withTrees);

// A kernel, memcpy or memset, bound to its launch call.
struct GpuOp {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
  std::uint32_t call = kNoIndex;  // position in CallTable::calls
};

// A maximal interval during which at least one op ran: the op that starts
// it and the op whose end ends it.
struct BusyBlock {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t firstSlice = kNoIndex;
  std::uint32_t firstCall = kNoIndex;
  std::uint32_t lastSlice = kNoIndex;
  std::uint32_t lastCall = kNoIndex;
};

// Every device gap, listed or not, in the compact form the per-step
// figures need.
struct GapSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::Other;
  HtaIdleKind hta = HtaIdleKind::Other;
};

struct StreamTimeline {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<GpuOp> ops;  // sorted by start
  std::vector<std::int64_t> correlations;  // of `ops`, until they are bound
  std::vector<BusyBlock> blocks;
};

struct DeviceTimeline {
  std::int32_t device = -1;
  std::vector<std::uint32_t> streams;  // indices into the stream list
  std::vector<BusyBlock> blocks;
  std::vector<GapSpan> gaps;
  std::uint64_t ops = 0;
};

struct GpuTimelines {
  std::vector<StreamTimeline> streams;  // sorted by (device, stream)
  std::vector<DeviceTimeline> devices;  // sorted by device
  std::uint64_t ops = 0;
  std::uint64_t opsWithCorrelation = 0;
  std::uint64_t orphanOps = 0;  // a correlation id that names no call
};

// Collects GPU ops per stream and device (unbound: GpuOp::call unset), so
// it can run beside buildCallTable.
GpuTimelines collectGpuOps(const Trace& trace);
// Binds the ops to their calls and builds the busy blocks of every stream
// and device (gaps are filled in by the runner).
void bindAndBuildBlocks(const CallTable& calls, GpuTimelines& gpu);

// Decides a gap's cause from the launch of the op that ends it.
class GapClassifier {
 public:
  GapClassifier(const CallTable& calls, const GapOptions& options)
      : calls_(calls), options_(options) {}
  // The gap between two consecutive blocks. `stream` is the stream of a
  // stream gap; device gaps pass nullptr (no stream-wait check then: with
  // the whole device idle, no event was pending).
  Gap classify(const BusyBlock& before, const BusyBlock& after, const std::int64_t* stream) const;

 private:
  const SyncRec* blockingSyncAt(std::uint32_t track, TimeNs t, TimeNs launchStart) const;
  const WaitRec* streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                   std::int64_t stream) const;

  const CallTable& calls_;
  const GapOptions& options_;
};

// Self time of CPU ops inside time windows on one track. Keeps each track's
// parent links once computed, so many windows cost little each.
class CpuBlamer {
 public:
  // `trees`: prebuilt per-track parent links (tracks without one are built
  // on first use).
  CpuBlamer(const Trace& trace, std::vector<TrackTree> trees);
  ~CpuBlamer();
  // Calls add(name, ns, untraced) for each slice's clipped self time (may
  // be negative for a parent; totals per name are never negative) and once
  // with untraced == true for the time covered by no slice.
  template <typename Add>
  void blame(std::uint32_t track, TimeNs start, TimeNs end, Add&& add);

 private:
  const TrackTree& tree(std::uint32_t track);
  // First slice of `track` starting at or after `t`. Gaps come in time
  // order, so the search gallops forward from the previous answer.
  std::uint32_t firstStartingAt(std::uint32_t track, TimeNs t);
  const Trace& trace_;
  std::vector<TrackTree> trees_;  // per track
  std::vector<bool> ready_;
  std::vector<std::uint32_t> hint_;  // per track: the previous answer
};

// Collects name -> self time for one gap (few names) or for many.
struct BlameTotals {
  std::vector<TimeNs> byName;      // indexed by StringId
  std::vector<std::uint8_t> seen;  // indexed by StringId
  std::vector<StringId> touched;   // names with an entry
  TimeNs untraced = 0;
  void add(StringId name, TimeNs ns, bool untracedTime);
  // Adds every entry to `other` (which keeps them); this one is unchanged.
  void addTo(BlameTotals& other) const;
  void clear();
  // Appends the entries to `pool`, largest first, at most maxOps (0: all),
  // zero entries dropped; returns how many; resets.
  std::size_t takeInto(std::vector<CpuOpBlame>& pool, std::size_t maxOps);
};

// Fills `stats` and, when `keep` is given, one LaunchInfo per launch.
void fillLaunchStats(const CallTable& calls, const GpuTimelines& gpu, const GapOptions& options,
                     std::size_t nameCount, LaunchStats& stats, std::vector<LaunchInfo>* keep);

// Per step and device: the window of the GPU work the step launched.
struct StepWindow {
  TimeNs lo = std::numeric_limits<TimeNs>::max();
  TimeNs hi = std::numeric_limits<TimeNs>::min();
  std::uint64_t ops = 0;
};
std::vector<StepWindow> stepWindows(const Trace& trace, const CallTable& calls,
                                    const GpuTimelines& gpu);
// Needs the device gaps (DeviceTimeline::gaps).
void fillSteps(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
               const std::vector<StepWindow>& windows, GapAnalysis& out);

Verdict makeVerdict(const GapAnalysis& analysis, const GapOptions& options);

// "1.234 ms", "12.345 us", "850 ns": exact decimals of integer ns.
std::string formatDuration(TimeNs ns);

template <typename Add>
void CpuBlamer::blame(std::uint32_t track, TimeNs start, TimeNs end, Add&& add) {
  if (end <= start || track >= trace_.tracks.size()) return;
  const Track& t = trace_.tracks[track];
  const Slice* first = trace_.trackBegin(t);
  const TrackTree& tree = this->tree(track);
  TimeNs rootTime = 0;
  auto visit = [&](std::uint32_t local) {
    if (tree.spilled[local]) return;
    const Slice& s = first[local];
    TimeNs clip = std::min(s.end(), end) - std::max(s.start, start);
    if (clip <= 0) return;
    add(s.name, clip, false);
    std::uint32_t p = tree.parent[local];
    if (p == kNoIndex)
      rootTime += clip;
    else
      add(first[p].name, -clip, false);
  };
  // Slices starting before the window that still run at its start are the
  // last slice starting before it and that slice's ancestors.
  std::uint32_t lo = firstStartingAt(track, start);
  if (lo > 0) {
    for (std::uint32_t j = lo - 1; j != kNoIndex; j = tree.parent[j]) visit(j);
  }
  for (std::uint32_t i = lo; i < t.sliceCount && first[i].start < end; ++i) visit(i);
  add(kEmptyString, (end - start) - rootTime, true);
}

}  // namespace gapscope::analysis::gaps_detail
