// Internal pieces of the launch-gap analysis, shared by its .cpp files.
//
// The trace's slices are 64 bytes each and a big trace holds millions, so
// the analysis reads them as few times as it can and writes little beside
// its result: one pass over the CPU tracks copies the runtime/driver calls
// into compact CallRecs, one pass over the GPU tracks copies kernels,
// memcpys and memsets into compact GpuOps; busy blocks are made on the fly
// from those and never stored. Fresh memory costs a page fault per 4 KiB
// (on the 10-million-event benchmark, a third of the analysis' CPU time
// goes to faults), so temporaries are few and sized once.
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

// Parent links of one CPU track's slices (local indices), one word per
// slice: the parent's index, or kNoParent, with kSpilled set when the
// slice overlaps a sibling without nesting. A spilled slice gets no self
// time; its parent is the innermost slice open at its start, so ancestor
// walks pass through it. (Slice indices stay far below 2^31: a slice is 64
// bytes.)
struct TrackTree {
  static constexpr std::uint32_t kSpilled = 1u << 31;
  static constexpr std::uint32_t kNoParent = kSpilled - 1;
  std::vector<std::uint32_t> links;
};

// Builds a TrackTree one slice at a time, in track order.
class TrackTreeBuilder {
 public:
  TrackTreeBuilder(const Slice* first, std::uint32_t count, TrackTree& tree)
      : first_(first), tree_(tree) {
    tree_.links.resize(count);
  }
  void add(std::uint32_t i) {
    const Slice& s = first_[i];
    while (!open_.empty() && first_[open_.back()].end() <= s.start) open_.pop_back();
    bool nests = open_.empty() || first_[open_.back()].end() >= s.end();
    std::uint32_t parent = open_.empty() ? TrackTree::kNoParent : open_.back();
    tree_.links[i] = nests ? parent : parent | TrackTree::kSpilled;
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
};

// Reads the CPU side in one pass: calls, sync calls, wait calls (bound to
// streams through cuda_sync markers), step annotations and, when `trees`
// is given, each CPU track's parent links for the CPU-op attribution
// (indexed by track; other tracks get none).
CallTable buildCallTable(const Trace& trace, std::vector<TrackTree>* trees);

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

struct StreamTimeline {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<GpuOp> ops;  // sorted by start, longer first at ties
  std::uint64_t listedGaps = 0;  // gaps of at least minGapNs (countGaps)
};

struct DeviceTimeline {
  std::int32_t device = -1;
  std::vector<std::uint32_t> streams;  // indices into the stream list
  std::uint64_t ops = 0;
  std::uint64_t listedGaps = 0;  // gaps of at least minGapNs (countGaps)
};

struct GpuTimelines {
  std::vector<StreamTimeline> streams;  // sorted by (device, stream)
  std::vector<DeviceTimeline> devices;  // sorted by device
  std::uint64_t ops = 0;
  std::uint64_t opsWithCorrelation = 0;
  std::uint64_t orphanOps = 0;  // a correlation id that names no call
  // Per position in CallTable::calls: how many GPU ops it launched (bindOps).
  std::vector<std::uint32_t> opsPerCall;
};

// Collects GPU ops per stream and device (unbound: GpuOp::call unset), so
// it can run beside buildCallTable.
GpuTimelines collectGpuOps(const Trace& trace);
// Binds the ops to their calls through the correlation ids.
void bindOps(const Trace& trace, const CallTable& calls, GpuTimelines& gpu);
// Counts every stream's and device's gaps of at least minGapNs, so the gap
// list can be laid out before it is filled (needs no binding).
void countGaps(GpuTimelines& gpu, TimeNs minGapNs);

// The busy blocks of one stream, in time order, made from its ops as they
// are asked for. Ops that touch (one starts where the other ends) share a
// block.
class StreamBlocks {
 public:
  explicit StreamBlocks(const std::vector<GpuOp>& ops)
      : op_(ops.data()), end_(ops.data() + ops.size()) {}
  bool next(BusyBlock& b) {
    if (op_ == end_) return false;
    b = {op_->start, op_->end, op_->slice, op_->call, op_->slice, op_->call};
    for (++op_; op_ != end_ && op_->start <= b.end; ++op_) {
      if (op_->end > b.end) {
        b.end = op_->end;
        b.lastSlice = op_->slice;
        b.lastCall = op_->call;
      }
    }
    return true;
  }

 private:
  const GpuOp* op_;
  const GpuOp* end_;
};

// The busy blocks of one device: its streams' blocks merged by start (at
// equal starts the stream listed first comes first). Devices have a
// handful of streams, so the next block is found by scanning the heads.
class DeviceBlocks {
 public:
  DeviceBlocks(const GpuTimelines& gpu, const DeviceTimeline& d);
  bool next(BusyBlock& b);

 private:
  bool nextStreamBlock(BusyBlock& b);
  std::vector<StreamBlocks> streams_;
  std::vector<BusyBlock> heads_;
  std::vector<std::uint8_t> live_;
  BusyBlock pending_;
  bool hasPending_ = false;
};

// Decides a gap's cause from the launch of the op that ends it. Gaps are
// asked for in time order per stream or device, so each Lookups remembers
// where the previous answer was found on each thread.
class GapClassifier {
 public:
  GapClassifier(const CallTable& calls, const GapOptions& options)
      : calls_(calls), options_(options) {}
  // Search hints of one caller (one per thread of the analysis).
  struct Lookups {
    std::vector<std::uint32_t> syncHint;  // per track
  };
  // The gap between two consecutive blocks. `stream` is the stream of a
  // stream gap; device gaps pass nullptr (no stream-wait check then: with
  // the whole device idle, no event was pending).
  Gap classify(const BusyBlock& before, const BusyBlock& after, const std::int64_t* stream,
               Lookups& lookups) const;

 private:
  const SyncRec* blockingSyncAt(std::uint32_t track, TimeNs t, TimeNs launchStart,
                                Lookups& lookups) const;
  const WaitRec* streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                   std::int64_t stream) const;

  const CallTable& calls_;
  const GapOptions& options_;
};

// Collects name -> self time for one gap or for many. A gap names a few
// ops, found fastest by a short linear search; past kFewNames (a long gap,
// or the totals of many gaps) an index by StringId takes over.
class BlameTotals {
 public:
  void add(StringId name, TimeNs ns) {
    if (!indexed_) {
      for (Entry& e : entries_) {
        if (e.name == name) {
          e.ns += ns;
          return;
        }
      }
      entries_.push_back({name, ns});
      if (entries_.size() > kFewNames) buildIndex();
      return;
    }
    addIndexed(name, ns);
  }
  void addUntraced(TimeNs ns) { untraced_ += ns; }
  // Adds every entry to byName (indexed by StringId, big enough) and
  // `untraced`; this one is unchanged.
  void addTo(std::vector<TimeNs>& byName, TimeNs& untraced) const;
  void clear();
  // Appends the entries to `pool`, largest first, at most maxOps (0: all),
  // zero entries dropped; returns how many; resets.
  std::size_t takeInto(std::vector<CpuOpBlame>& pool, std::size_t maxOps);

 private:
  static constexpr std::size_t kFewNames = 16;
  struct Entry {
    StringId name;
    TimeNs ns;
  };
  void buildIndex();
  void addIndexed(StringId name, TimeNs ns);
  std::vector<Entry> entries_;        // in the order first seen
  std::vector<std::uint32_t> index_;  // by StringId: position in entries_ + 1, 0 for none
  bool indexed_ = false;
  TimeNs untraced_ = 0;
};

// Self time of CPU ops inside time windows on one track. Several blamers
// (one per thread) can share one set of trees.
class CpuBlamer {
 public:
  CpuBlamer(const Trace& trace, const std::vector<TrackTree>& trees);
  // Adds each slice's self time clipped to [start, end) to `totals` (a
  // parent's may be negative there; totals per name never are), and the
  // time covered by no slice as untraced.
  void blame(std::uint32_t track, TimeNs start, TimeNs end, BlameTotals& totals);

 private:
  // First slice of `track` starting at or after `t`. Gaps come in time
  // order, so the search gallops forward from the previous answer.
  std::uint32_t firstStartingAt(std::uint32_t track, TimeNs t);
  const Trace& trace_;
  const std::vector<TrackTree>& trees_;  // per track
  std::vector<std::uint32_t> hint_;      // per track: the previous answer
};

// Attributes gaps to the CPU ops of their launching thread, into pools of
// CpuOpBlame entries (and, for launch-overhead gaps, into trace-wide
// totals). One per thread.
class GapBlamer {
 public:
  GapBlamer(const Trace& trace, const std::vector<TrackTree>& trees, const GapOptions& options)
      : blamer_(trace, trees), options_(options), nameCount_(trace.strings.size()) {}
  // Blames g's window on g.launchTrack; when `listed`, appends its entries
  // to `pool` and sets g.cpuOpsBegin (the position in `pool`) and
  // g.cpuOpsCount; adds to the overhead totals when `overhead`.
  void blame(Gap& g, bool listed, bool overhead, std::vector<CpuOpBlame>& pool);
  std::vector<CpuOpBlame> overheadCpuOps();

 private:
  CpuBlamer blamer_;
  const GapOptions& options_;
  std::size_t nameCount_;
  BlameTotals gapTotals_;
  // Launch-overhead time by CPU op name over every gap: many names, so one
  // slot per name (allocated at the first such gap).
  std::vector<TimeNs> overheadByName_;
  TimeNs overheadUntraced_ = 0;
};

// Fills `stats` and, when `keep` is given, one LaunchInfo per launch.
void fillLaunchStats(const CallTable& calls, const GpuTimelines& gpu, const GapOptions& options,
                     std::size_t nameCount, LaunchStats& stats, std::vector<LaunchInfo>* keep);

// A device gap shorter than minGapNs (not in the gap list), kept for the
// per-step figures.
struct GapSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::Other;
  HtaIdleKind hta = HtaIdleKind::Other;
};

// Per step and device: the window of the GPU work the step launched.
struct StepWindow {
  TimeNs lo = std::numeric_limits<TimeNs>::max();
  TimeNs hi = std::numeric_limits<TimeNs>::min();
  std::uint64_t ops = 0;
};
std::vector<StepWindow> stepWindows(const Trace& trace, const CallTable& calls,
                                    const GpuTimelines& gpu);
// Every device gap is either in out.gaps (listed: device gaps come first,
// device by device in time order) or in `unlisted` (per device, in time
// order).
void fillSteps(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
               const std::vector<StepWindow>& windows,
               const std::vector<std::vector<GapSpan>>& unlisted, GapAnalysis& out);

Verdict makeVerdict(const GapAnalysis& analysis, const GapOptions& options);

// analyzeGaps, optionally without the launch statistics (summarizeGaps
// needs none).
GapAnalysis analyze(const Trace& trace, const GapOptions& options, bool withLaunchStats);

}  // namespace gapscope::analysis::gaps_detail
