// Internal pieces of the launch-gap analysis, shared by its .cpp files.
//
// The analysis makes one pass over the CPU tracks (launch and sync calls,
// ProfilerStep annotations) and one over the GPU tracks (kernels, memcpys,
// memsets, cuda_sync markers), then sweeps each stream's ops, already sorted
// by start in the model, into busy blocks and the gaps between them. Device
// blocks come from a k-way merge of the stream blocks. Nothing is re-sorted
// except the small per-device stream lists and the final gap list.
#pragma once

#include <algorithm>
#include <cstdint>
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
  // `pairs` holds (correlation, value); ids must be non-zero.
  void build(std::vector<std::pair<std::int64_t, std::uint32_t>> pairs);
  std::uint32_t find(std::int64_t correlation) const;  // kNoIndex when absent

 private:
  std::int64_t base_ = 0;
  std::vector<std::uint32_t> dense_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> sorted_;
};

// A cudaStreamWaitEvent call and the stream it made wait, when a cuda_sync
// marker says so (kAnyStream otherwise).
inline constexpr std::int64_t kAnyStream = -2;
struct WaitCall {
  std::uint32_t slice = kNoIndex;
  std::int64_t stream = kAnyStream;
};

// What each CPU thread did that matters to the GPU queue.
struct ThreadCalls {
  std::vector<std::uint32_t> blockingSyncs;  // slice indices, sorted by start
  std::vector<WaitCall> waits;               // sorted by start
};

struct CallTable {
  std::vector<std::uint32_t> calls;  // CPU runtime/driver calls with a correlation id
  CorrelationMap byCorrelation;      // correlation -> position in `calls`
  std::vector<ThreadCalls> threads;  // indexed by track
  std::uint64_t launchCallsWithoutCorrelation = 0;
  // ProfilerStep#N annotations, sorted by start.
  std::vector<std::uint32_t> steps;

  std::uint32_t callFor(std::int64_t correlation) const {
    std::uint32_t pos = byCorrelation.find(correlation);
    return pos == kNoIndex ? kNoIndex : calls[pos];
  }
};

// Reads the CPU side: calls, sync calls, wait calls (bound to streams
// through cuda_sync markers), step annotations.
CallTable buildCallTable(const Trace& trace);

// A maximal interval during which at least one op ran.
struct BusyBlock {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t firstOp = kNoIndex;  // the op that starts the block
  std::uint32_t lastOp = kNoIndex;   // the op whose end ends the block
};

// Every gap, listed or not, in the compact form the totals and the
// per-step figures need.
struct GapSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::Other;
  HtaIdleKind hta = HtaIdleKind::Other;
};

struct StreamTimeline {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<std::uint32_t> ops;  // GPU activity slices, sorted by start
  std::vector<BusyBlock> blocks;
  std::vector<GapSpan> gaps;
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
};

// Collects GPU ops per stream and device and their busy blocks (gaps are
// filled in by the classifier).
GpuTimelines buildGpuTimelines(const Trace& trace);

// Decides a gap's cause from the launch of the op that ends it.
class GapClassifier {
 public:
  GapClassifier(const Trace& trace, const CallTable& calls, const GapOptions& options)
      : trace_(trace), calls_(calls), options_(options) {}
  // `stream` is the stream of a stream gap; device gaps pass nullptr (no
  // stream-wait check then: with the whole device idle, no event was pending).
  Gap classify(TimeNs start, TimeNs end, std::uint32_t before, std::uint32_t after,
               const std::int64_t* stream) const;

 private:
  std::uint32_t blockingSyncAt(std::uint32_t track, TimeNs t, TimeNs launchStart) const;
  std::uint32_t streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                  std::int64_t stream) const;

  const Trace& trace_;
  const CallTable& calls_;
  const GapOptions& options_;
};

// Parent links of one CPU track's slices (local indices). A slice that
// overlaps a sibling without nesting ("spilled") gets no self time; its
// parent is the innermost slice open at its start, so ancestor walks pass
// through it.
struct TrackTree {
  std::vector<std::uint32_t> parent;
  std::vector<std::uint8_t> spilled;
};
TrackTree buildTrackTree(const Slice* first, std::uint32_t count);

// Self time of CPU ops inside time windows on one track. Keeps each track's
// parent links once computed, so many windows cost little each.
class CpuBlamer {
 public:
  explicit CpuBlamer(const Trace& trace);
  ~CpuBlamer();
  // Calls add(name, ns, untraced) for each slice's clipped self time (may
  // be negative for a parent; totals per name are never negative) and once
  // with untraced == true for the time covered by no slice.
  template <typename Add>
  void blame(std::uint32_t track, TimeNs start, TimeNs end, Add&& add);

 private:
  const TrackTree& tree(std::uint32_t track);
  const Trace& trace_;
  std::vector<TrackTree> trees_;  // per track
  std::vector<bool> ready_;
};

// Collects name -> self time for one gap (few names) or for many.
struct BlameTotals {
  std::vector<TimeNs> byName;           // indexed by StringId
  std::vector<std::uint8_t> seen;       // indexed by StringId
  std::vector<StringId> touched;        // names with an entry
  TimeNs untraced = 0;
  void add(StringId name, TimeNs ns, bool untracedTime);
  // Largest first, at most maxOps (0: all), zero entries dropped; resets.
  std::vector<CpuOpBlame> take(std::size_t maxOps);
};

void fillLaunchStats(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
                     const GapOptions& options, GapAnalysis& out);

void fillSteps(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
               GapAnalysis& out);

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
  std::uint32_t lo = 0, hi = t.sliceCount;
  while (lo < hi) {
    std::uint32_t mid = lo + (hi - lo) / 2;
    if (first[mid].start < start) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) {
    for (std::uint32_t j = lo - 1; j != kNoIndex; j = tree.parent[j]) visit(j);
  }
  for (std::uint32_t i = lo; i < t.sliceCount && first[i].start < end; ++i) visit(i);
  add(kEmptyString, (end - start) - rootTime, true);
}

}  // namespace gapscope::analysis::gaps_detail
