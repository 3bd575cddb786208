// Flow binding, correlation indices, instants and counters for finish().
#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <map>
#include <tuple>

#include "layout.h"
#include "parallel.h"

namespace gapscope::detail {

namespace {

// First index in [0, n) whose slice is not in the prefix `inPrefix` holds
// for (a partition point), searched outwards from `hint`: flow events come
// in time order per thread, so the answer is usually near the last one.
template <typename InPrefix>
std::size_t partitionNear(const Slice* a, std::size_t n, std::size_t hint, InPrefix inPrefix) {
  std::size_t lo;
  std::size_t hi;
  std::size_t step = 1;
  if (hint < n && inPrefix(a[hint])) {
    lo = hint + 1;
    hi = lo;
    while (hi < n && inPrefix(a[hi])) {
      lo = hi + 1;
      hi = std::min(n, lo + step);
      step *= 2;
    }
  } else {
    hi = std::min(hint, n);
    lo = hi;
    while (lo > 0 && !inPrefix(a[lo - 1])) {
      hi = lo - 1;
      lo = hi >= step ? hi - step : 0;
      step *= 2;
    }
  }
  return static_cast<std::size_t>(std::partition_point(a + lo, a + hi, inPrefix) - a);
}

// Per track, where the last search ended.
struct Fingers {
  std::vector<std::size_t> upper;
  std::vector<std::size_t> lower;
  explicit Fingers(std::size_t tracks) : upper(tracks, 0), lower(tracks, 0) {}
};

// Innermost slice on a track whose [start, end] contains ts, walking up
// through parents (siblings before the candidate ended before it began).
std::uint32_t enclosingSlice(const Trace& t, std::uint32_t track,
                             TimeNs ts, Fingers& fingers) {
  const Track& tr = t.tracks[track];
  const Slice* b = t.trackBegin(tr);
  const std::size_t upper = partitionNear(b, tr.sliceCount, fingers.upper[track],
                                          [ts](const Slice& s) { return s.start <= ts; });
  fingers.upper[track] = upper;
  if (upper == 0) return kNoIndex;
  auto j = static_cast<std::uint32_t>(tr.firstSlice + upper) - 1;
  int spillSteps = 0;
  while (j != kNoIndex && j >= tr.firstSlice) {
    const Slice& s = t.slices[j];
    if (s.start <= ts && ts <= s.end()) return j;
    if (s.flags & kSliceSpilled) {
      // A spilled slice before ts may still hold it: look a little further back.
      if (++spillSteps > 64 || j == tr.firstSlice) return kNoIndex;
      --j;
    } else {
      j = s.parent;
    }
  }
  return kNoIndex;
}

std::uint32_t nextSliceFrom(const Trace& t, std::uint32_t track, TimeNs ts, Fingers& fingers) {
  const Track& tr = t.tracks[track];
  const std::size_t lower = partitionNear(t.trackBegin(tr), tr.sliceCount, fingers.lower[track],
                                          [ts](const Slice& s) { return s.start < ts; });
  fingers.lower[track] = lower;
  return lower == tr.sliceCount ? kNoIndex : static_cast<std::uint32_t>(tr.firstSlice + lower);
}

FlowKind flowKindFor(std::string_view category) {
  if (category == "ac2g" || category == "async") return FlowKind::LaunchToGpu;
  if (category == "fwdbwd") return FlowKind::FwdBwd;
  return FlowKind::Other;
}

int phaseRank(char phase) { return phase == 's' ? 0 : phase == 't' ? 1 : 2; }

// Kineto's launch flows (ac2g) have three shapes that every trace it writes
// contains and that are no defect (docs/import-issues.md): they are counted
// as known producer quirks, everything else that does not chain as a problem.
class FlowIssues {
 public:
  FlowIssues(const StringTable& strings, const Trace& t, ImportIssues& issues)
      : strings_(strings), t_(t), issues_(issues) {}

  // A start that nothing finished.
  void orphanStart(const PendingFlow& e, std::uint32_t slice) {
    if (isLaunchFlow(e) && launchesNothing(slice)) {
      // Kineto starts a flow on synchronisation calls too; it ends only on a
      // cuda_sync record, which exists only when sync activities are traced.
      issues_.addQuirk("sync_flow_without_end", e.offset,
                         "Kineto flow start on a synchronisation call with no cuda_sync record to end on");
      return;
    }
    if (isLaunchFlow(e) && isLaunch(slice)) {
      issues_.add("launch_without_gpu_work", Severity::Warning, e.offset,
                    "a launch call (kernel, memcpy, memset, graph) whose flow has no finish: its GPU work is not in "
                    "the trace");
      return;
    }
    issues_.add("orphan_flow_start", Severity::Warning, e.offset,
                  "flow start without a step or finish with the same id");
  }

  // A step or finish without an open chain; `chainStart` is the start of an
  // earlier chain of the same id, kNoIndex when there was none.
  void orphanEnd(const PendingFlow& e, std::uint32_t slice, std::uint32_t chainStart) {
    if (isLaunchFlow(e) && chainStart != kNoIndex && isLaunch(chainStart)) {
      issues_.addQuirk("launch_flow_extra_end", e.offset,
                         "further Kineto flow finish of one launch: a graph launch runs many kernels under one "
                         "correlation id and each gets a finish; the first is linked");
      return;
    }
    if (isLaunchFlow(e) && (launchesNothing(slice) || isSyncRecord(slice))) {
      issues_.addQuirk("flow_end_on_non_launch_call", e.offset,
                         "Kineto flow finish on a runtime call that launches no GPU work (cudaStreamIsCapturing, "
                         "cudaEventQuery, ...) or on its cuda_sync record: it has no start by design");
      return;
    }
    issues_.add("orphan_flow_end", Severity::Warning, e.offset,
                  "flow step or finish without a start with the same id");
  }

 private:
  bool isLaunchFlow(const PendingFlow& e) const {
    return flowKindFor(strings_.view(e.category)) == FlowKind::LaunchToGpu;
  }
  std::string_view name(std::uint32_t slice) const { return strings_.view(t_.slices[slice].name); }
  bool isRuntimeCall(std::uint32_t slice) const {
    const SliceKind k = t_.slices[slice].kind;
    return k == SliceKind::CudaRuntime || k == SliceKind::CudaDriver;
  }
  // Calls that enqueue GPU work: the launches, and every memcpy and memset form.
  bool isLaunch(std::uint32_t slice) const {
    const std::string_view n = name(slice);
    return isRuntimeCall(slice) && (isLaunchCallName(n) || n.starts_with("cudaMemcpy") ||
                                    n.starts_with("cudaMemset") || n.starts_with("cuMemcpy") ||
                                    n.starts_with("cuMemset"));
  }
  bool launchesNothing(std::uint32_t slice) const { return isRuntimeCall(slice) && !isLaunch(slice); }
  bool isSyncRecord(std::uint32_t slice) const { return strings_.view(t_.slices[slice].category) == "cuda_sync"; }

  const StringTable& strings_;
  const Trace& t_;
  ImportIssues& issues_;
};

// Binds each event to its slice. The events are in (category, id, time)
// order (orderPendingFlows); ids grow with time in practice, so per thread
// each search starts next to the previous one. A finger only shortens a
// search, so parts of the events bind on their own threads.
void bindEventsToSlices(std::vector<PendingFlow>& fl, const Trace& t, const std::vector<std::uint32_t>& trackMap,
                        int threads) {
  const int parts = partsFor(fl.size(), threads);
  std::vector<Fingers> fingersOf(static_cast<std::size_t>(parts), Fingers(t.tracks.size()));
  forEachPart(parts, [&](int p) {
    Fingers& fingers = fingersOf[static_cast<std::size_t>(p)];
    const auto [from, to] = partRange(fl.size(), parts, p);
    for (std::size_t k = from; k < to; ++k) {
      PendingFlow& f = fl[k];
      const std::uint32_t track = trackMap[f.track];
      const bool finishNext = f.phase == 'f' && !f.bindEnclosing;
      f.slice = finishNext ? nextSliceFrom(t, track, f.ts, fingers) : enclosingSlice(t, track, f.ts, fingers);
    }
  });
}

// What chaining one part of the events makes.
struct ChainedPart {
  std::vector<Flow> flows;
  ImportIssues issues;
};

// Chains the events [from, to), whole (category, id) groups: one id may
// carry several flows over time, and each 's' starts a chain.
void chainGroups(const std::vector<PendingFlow>& fl, std::size_t from, std::size_t to, const StringTable& strings,
                 const Trace& t, ChainedPart& out) {
  FlowIssues issues(strings, t, out.issues);
  std::size_t i = from;
  while (i < to) {
    std::size_t j = i;
    while (j < to && fl[j].category == fl[i].category && fl[j].id == fl[i].id) ++j;
    std::uint32_t prev = kNoIndex;
    std::uint32_t chainStart = kNoIndex;  // the slice of the latest 's'
    const PendingFlow* openEvent = nullptr;
    bool open = false;    // a chain started and not finished
    bool linked = false;  // the open chain produced at least one flow
    auto closeChain = [&] {
      if (open && !linked) issues.orphanStart(*openEvent, chainStart);
      open = linked = false;
    };
    for (std::size_t k = i; k < j; ++k) {
      const PendingFlow& e = fl[k];
      const std::uint32_t slice = e.slice;
      if (slice == kNoIndex) {
        out.issues.add("unbound_flow_point", Severity::Warning, e.offset,
                       "flow event with no slice to bind to on its thread at its time");
        continue;
      }
      if (e.phase == 's') {
        closeChain();
        prev = chainStart = slice;
        open = true;
        openEvent = &e;
        continue;
      }
      if (!open) {
        issues.orphanEnd(e, slice, chainStart);
        continue;
      }
      out.flows.push_back({prev, slice, e.id, e.category, e.name, flowKindFor(strings.view(e.category))});
      prev = slice;
      linked = true;
      if (e.phase == 'f') open = false;
    }
    closeChain();
    i = j;
  }
}

// Where each part's events begin: near equal parts, each moved on to the
// start of a (category, id) group, so that no chain is split.
std::vector<std::size_t> groupAlignedStarts(const std::vector<PendingFlow>& fl, int parts) {
  std::vector<std::size_t> starts(static_cast<std::size_t>(parts) + 1, fl.size());
  starts[0] = 0;
  for (int p = 1; p < parts; ++p) {
    std::size_t b = std::max(partRange(fl.size(), parts, p).first, starts[static_cast<std::size_t>(p) - 1]);
    while (b > 0 && b < fl.size() && fl[b].category == fl[b - 1].category && fl[b].id == fl[b - 1].id) ++b;
    starts[static_cast<std::size_t>(p)] = b;
  }
  return starts;
}

// Binding and chaining run on the parts' threads; the parts' flows and
// issues are then joined in part order, as one thread would have made them.
void bindFlowsV1(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap, int threads) {
  auto& fl = s.flows;
  bindEventsToSlices(fl, t, trackMap, threads);
  const int parts = partsFor(fl.size(), threads);
  const std::vector<std::size_t> starts = groupAlignedStarts(fl, parts);
  // Made here, at most a flow per event: a part's thread that allocates
  // gets a malloc arena of its own.
  std::vector<ChainedPart> chained(static_cast<std::size_t>(parts));
  for (std::size_t p = 0; p < chained.size(); ++p) chained[p].flows.reserve(starts[p + 1] - starts[p]);
  forEachPart(parts, [&](int p) {
    const auto at = static_cast<std::size_t>(p);
    chainGroups(fl, starts[at], starts[at + 1], s.strings, t, chained[at]);
  });
  std::size_t total = t.flows.size();
  std::vector<std::size_t> firstFlow(chained.size());
  for (std::size_t p = 0; p < chained.size(); ++p) {
    firstFlow[p] = total;
    total += chained[p].flows.size();
    s.issues.merge(chained[p].issues);
  }
  t.flows.resize(total);
  forEachPart(parts, [&](int p) {
    const auto at = static_cast<std::size_t>(p);
    std::copy(chained[at].flows.begin(), chained[at].flows.end(), t.flows.begin() + static_cast<std::ptrdiff_t>(firstFlow[at]));
  });
  fl = {};
}

void bindFlowsV2(BuilderState& s, Trace& t, const SortedSlices& sorted) {
  std::multimap<std::uint64_t, std::uint32_t> sources;
  for (const auto& b : s.binds) {
    if (b.out) sources.emplace(b.bindId, sorted.position[b.slice]);
  }
  for (const auto& b : s.binds) {
    if (!b.in) continue;
    auto range = sources.equal_range(b.bindId);
    if (range.first == range.second) {
      s.issues.add("orphan_flow_end", Severity::Warning, s.offsets[b.slice],
                   "flow_in with no flow_out slice of the same bind_id");
    }
    for (auto it = range.first; it != range.second; ++it) {
      std::uint32_t to = sorted.position[b.slice];
      t.flows.push_back({it->second, to, b.bindId, kEmptyString, kEmptyString, FlowKind::Other});
    }
  }
  s.binds = {};
}

}  // namespace

void orderPendingFlows(BuilderState& s, int threads) {
  auto& fl = s.flows;
  for (std::uint32_t k = 0; k < fl.size(); ++k) fl[k].order = k;
  // `order` is unique: no two events are equivalent, so any thread count
  // gives the same order.
  parallelSort(
      fl.begin(), fl.end(),
      [](const PendingFlow& a, const PendingFlow& b) {
        return std::make_tuple(a.category, a.id, a.ts, phaseRank(a.phase), a.order) <
               std::make_tuple(b.category, b.id, b.ts, phaseRank(b.phase), b.order);
      },
      threads);
}

void bindFlows(BuilderState& s, Trace& t, const SortedSlices& sorted,
               const std::vector<std::uint32_t>& trackMap, int threads) {
  bindFlowsV1(s, t, trackMap, threads);
  bindFlowsV2(s, t, sorted);
  // By (from, to), then every other field: flows equal in all of them are
  // interchangeable, so the order is the same on any number of threads.
  parallelSort(
      t.flows.begin(), t.flows.end(),
      [](const Flow& a, const Flow& b) {
        return std::tie(a.from, a.to, a.id, a.category, a.name, a.kind) <
               std::tie(b.from, b.to, b.id, b.category, b.name, b.kind);
      },
      threads);
}

namespace {

// The correlation index a slice goes into: GPU ops and the runtime or
// driver calls that launched them.
enum Side : std::size_t { kGpuSide = 0, kLaunchSide = 1, kSides = 2, kNoSide = 2 };

Side correlationSide(const Slice& sl) {
  if (sl.correlation == kNoCorrelation) return kNoSide;
  if (isGpuActivity(sl.kind)) return kGpuSide;
  if (sl.kind == SliceKind::CudaRuntime || sl.kind == SliceKind::CudaDriver) return kLaunchSide;
  return kNoSide;
}

// How many ids one side holds, the lowest and the highest.
struct IdSpan {
  std::size_t count = 0;
  std::int64_t low = std::numeric_limits<std::int64_t>::max();
  std::int64_t high = std::numeric_limits<std::int64_t>::min();

  void add(std::int64_t id) {
    ++count;
    low = std::min(low, id);
    high = std::max(high, id);
  }
  void add(const IdSpan& o) {
    count += o.count;
    low = std::min(low, o.low);
    high = std::max(high, o.high);
  }
  // In unsigned arithmetic: ids may be anything an int64 holds.
  std::uint64_t offsetOf(std::int64_t id) const {
    return static_cast<std::uint64_t>(id) - static_cast<std::uint64_t>(low);
  }
  bool dense() const { return count > 0 && CorrelationIndex::denseFor(offsetOf(high), count); }
};

using SideSpans = std::array<IdSpan, kSides>;

std::vector<SideSpans> spansByPart(const std::vector<Slice>& slices, int parts) {
  std::vector<SideSpans> out(static_cast<std::size_t>(parts));
  forEachPart(parts, [&](int p) {
    SideSpans spans;  // on this thread's stack, not beside another part's
    const auto [from, to] = partRange(slices.size(), parts, p);
    for (std::size_t j = from; j < to; ++j) {
      const Side side = correlationSide(slices[j]);
      if (side != kNoSide) spans[side].add(slices[j].correlation);
    }
    out[static_cast<std::size_t>(p)] = spans;
  });
  return out;
}

// slot = min(slot, value), where another part's thread may write the same
// slot (a graph launch's GPU ops share an id): the lowest index wins on any
// number of threads.
void lowerTo(std::uint32_t& slot, std::uint32_t value) {
  std::atomic_ref<std::uint32_t> shared(slot);
  std::uint32_t seen = shared.load(std::memory_order_relaxed);
  while (value < seen && !shared.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

// Dense ids (the usual case) go straight into a flat table from the slices,
// with no (id, slice) pairs made and sorted: on millions of slices those
// pairs, written to fresh memory, were most of the indices' time. Both
// passes over the slices are split between the threads.
void buildCorrelationIndices(Trace& t, int threads) {
  const int parts = partsFor(t.slices.size(), threads);
  const std::vector<SideSpans> byPart = spansByPart(t.slices, parts);
  SideSpans total;
  std::vector<std::array<std::size_t, kSides>> firstEntry(byPart.size());  // per part: where its pairs go
  for (std::size_t p = 0; p < byPart.size(); ++p) {
    for (std::size_t side = 0; side < kSides; ++side) {
      firstEntry[p][side] = total[side].count;
      total[side].add(byPart[p][side]);
    }
  }
  std::array<std::vector<std::uint32_t>, kSides> tables;
  std::array<std::vector<CorrelationIndex::Entry>, kSides> entries;
  for (std::size_t side = 0; side < kSides; ++side) {
    if (total[side].dense()) tables[side].assign(total[side].offsetOf(total[side].high) + 1, kNoIndex);
    else entries[side].resize(total[side].count);
  }
  forEachPart(parts, [&](int p) {
    std::array<std::size_t, kSides> next = firstEntry[static_cast<std::size_t>(p)];
    const auto [from, to] = partRange(t.slices.size(), parts, p);
    for (std::size_t j = from; j < to; ++j) {
      const Slice& sl = t.slices[j];
      const Side side = correlationSide(sl);
      if (side == kNoSide) continue;
      const auto index = static_cast<std::uint32_t>(j);
      if (!tables[side].empty()) lowerTo(tables[side][total[side].offsetOf(sl.correlation)], index);
      else entries[side][next[side]++] = {sl.correlation, index};
    }
  });
  // An id's first entry by slice index: slice order is time order on a
  // track, so a graph launch's first GPU op is the one found.
  const std::array<CorrelationIndex*, kSides> indices = {&TraceAccess::gpuByCorrelation(t),
                                                        &TraceAccess::launchByCorrelation(t)};
  for (std::size_t side = 0; side < kSides; ++side) {
    if (!tables[side].empty()) indices[side]->adoptTable(total[side].low, std::move(tables[side]));
    else indices[side]->build(std::move(entries[side]));
  }
}

void buildInstants(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap) {
  for (const auto& pi : s.instants) {
    Instant in;
    in.ts = pi.event.ts;
    in.name = pi.event.name;
    in.category = pi.event.category;
    in.scope = pi.event.scope;
    in.args = pi.event.args;
    if (pi.track != kNoIndex) {
      in.track = trackMap[pi.track];
      in.process = t.tracks[in.track].process;
    } else if (in.scope == 'p') {
      const auto& rp = s.processes[s.processIndex.at(pi.event.pid)];
      for (std::uint32_t p = 0; p < t.processes.size(); ++p)
        if (t.processes[p].pid == rp.pid) in.process = p;
    }
    t.instants.push_back(in);
  }
  std::stable_sort(t.instants.begin(), t.instants.end(),
                   [](const Instant& a, const Instant& b) { return a.ts < b.ts; });
  s.instants = {};
}

void buildCounters(BuilderState& s, Trace& t) {
  std::map<std::pair<std::uint32_t, StringId>, std::size_t> seriesIndex;
  std::vector<std::uint32_t> procOf(s.processes.size());
  for (std::uint32_t p = 0; p < t.processes.size(); ++p) {
    procOf[s.processIndex.at(t.processes[p].pid)] = p;
  }
  std::vector<std::vector<std::pair<TimeNs, double>>> points;
  for (const auto& c : s.counterPoints) {
    std::uint32_t proc = procOf[s.processIndex.at(c.pid)];
    auto [it, inserted] = seriesIndex.emplace(std::make_pair(proc, c.series), t.counters.size());
    if (inserted) {
      CounterSeries cs;
      cs.process = proc;
      cs.name = c.series;
      t.counters.push_back(std::move(cs));
      points.emplace_back();
    }
    points[it->second].emplace_back(c.ts, c.value);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::stable_sort(points[i].begin(), points[i].end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [ts, v] : points[i]) {
      t.counters[i].ts.push_back(ts);
      t.counters[i].values.push_back(v);
    }
  }
  s.counterPoints = {};
}

}  // namespace

void finishIndices(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap, int threads) {
  buildCorrelationIndices(t, threads);
  buildInstants(s, t, trackMap);
  buildCounters(s, t);
  t.kernelInfos = std::move(s.kernelInfos);
}

}  // namespace gapscope::detail
