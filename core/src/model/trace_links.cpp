// Flow binding, correlation indices, instants and counters for finish().
#include <algorithm>
#include <map>
#include <tuple>

#include "layout.h"

namespace gapscope::detail {

namespace {

// Innermost slice on a track whose [start, end] contains ts, walking up
// through parents (siblings before the candidate ended before it began).
std::uint32_t enclosingSlice(const Trace& t, const SortedSlices& sorted, std::uint32_t track,
                             TimeNs ts) {
  const Track& tr = t.tracks[track];
  const Slice* b = t.trackBegin(tr);
  const Slice* e = t.trackEnd(tr);
  const Slice* it = std::upper_bound(b, e, ts, [](TimeNs v, const Slice& s) { return v < s.start; });
  if (it == b) return kNoIndex;
  auto j = static_cast<std::uint32_t>(it - t.slices.data()) - 1;
  int spillSteps = 0;
  while (j != kNoIndex && j >= tr.firstSlice) {
    const Slice& s = t.slices[j];
    if (s.start <= ts && ts <= s.end()) return j;
    if (s.flags & kSliceSpilled) {
      // Spilled slices have no parent chain; look a little further back.
      if (++spillSteps > 64 || j == tr.firstSlice) return kNoIndex;
      --j;
    } else {
      j = sorted.parent[j];
    }
  }
  return kNoIndex;
}

std::uint32_t nextSliceFrom(const Trace& t, std::uint32_t track, TimeNs ts) {
  const Track& tr = t.tracks[track];
  const Slice* b = t.trackBegin(tr);
  const Slice* e = t.trackEnd(tr);
  const Slice* it = std::lower_bound(b, e, ts, [](const Slice& s, TimeNs v) { return s.start < v; });
  return it == e ? kNoIndex : static_cast<std::uint32_t>(it - t.slices.data());
}

FlowKind flowKindFor(std::string_view category) {
  if (category == "ac2g" || category == "async") return FlowKind::LaunchToGpu;
  if (category == "fwdbwd") return FlowKind::FwdBwd;
  return FlowKind::Other;
}

int phaseRank(char phase) { return phase == 's' ? 0 : phase == 't' ? 1 : 2; }

void bindFlowsV1(BuilderState& s, Trace& t, const SortedSlices& sorted,
                 const std::vector<std::uint32_t>& trackMap) {
  auto& fl = s.flows;
  std::stable_sort(fl.begin(), fl.end(), [](const PendingFlow& a, const PendingFlow& b) {
    return std::make_tuple(a.event.category, a.event.id, a.seq) <
           std::make_tuple(b.event.category, b.event.id, b.seq);
  });
  std::size_t i = 0;
  while (i < fl.size()) {
    std::size_t j = i;
    while (j < fl.size() && fl[j].event.category == fl[i].event.category &&
           fl[j].event.id == fl[i].event.id)
      ++j;
    // One id may carry several flows over time: each 's' starts a chain.
    std::stable_sort(fl.begin() + i, fl.begin() + j, [](const PendingFlow& a, const PendingFlow& b) {
      return std::make_tuple(a.event.ts, phaseRank(a.event.phase), a.seq) <
             std::make_tuple(b.event.ts, phaseRank(b.event.phase), b.seq);
    });
    std::uint32_t prev = kNoIndex;
    bool open = false;    // a chain started and not finished
    bool linked = false;  // the open chain produced at least one flow
    std::uint64_t openOffset = 0;
    auto closeChain = [&] {
      if (open && !linked) {
        s.issues.add("orphan_flow_start", Severity::Warning, openOffset,
                     "flow start without a step or finish with the same id");
      }
      open = linked = false;
    };
    for (std::size_t k = i; k < j; ++k) {
      const FlowEvent& e = fl[k].event;
      std::uint32_t track = trackMap[fl[k].track];
      bool finishNext = e.phase == 'f' && !e.bindEnclosing;
      std::uint32_t slice = finishNext ? nextSliceFrom(t, track, e.ts)
                                       : enclosingSlice(t, sorted, track, e.ts);
      if (slice == kNoIndex) {
        s.issues.add("unbound_flow_point", Severity::Warning, e.offset,
                     "flow event with no slice to bind to on its thread at its time");
        continue;
      }
      if (e.phase == 's') {
        closeChain();
        prev = slice;
        open = true;
        openOffset = e.offset;
        continue;
      }
      if (!open) {
        s.issues.add("orphan_flow_end", Severity::Warning, e.offset,
                     "flow step or finish without a start with the same id");
        continue;
      }
      t.flows.push_back({prev, slice, e.id, e.category, e.name, flowKindFor(s.strings.view(e.category))});
      prev = slice;
      linked = true;
      if (e.phase == 'f') open = false;
    }
    closeChain();
    i = j;
  }
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

void bindFlows(BuilderState& s, Trace& t, const SortedSlices& sorted,
               const std::vector<std::uint32_t>& trackMap) {
  bindFlowsV1(s, t, sorted, trackMap);
  bindFlowsV2(s, t, sorted);
  std::sort(t.flows.begin(), t.flows.end(), [](const Flow& a, const Flow& b) {
    return std::tie(a.from, a.to) < std::tie(b.from, b.to);
  });
}

namespace {

void buildCorrelationIndices(Trace& t) {
  auto& gpu = TraceAccess::gpuByCorrelation(t);
  auto& launch = TraceAccess::launchByCorrelation(t);
  for (std::uint32_t j = 0; j < t.slices.size(); ++j) {
    const Slice& sl = t.slices[j];
    if (sl.correlation == kNoCorrelation) continue;
    if (isGpuActivity(sl.kind)) gpu.emplace_back(sl.correlation, j);
    else if (sl.kind == SliceKind::CudaRuntime || sl.kind == SliceKind::CudaDriver)
      launch.emplace_back(sl.correlation, j);
  }
  // Sorted by (correlation, slice index): slice order is time order on a
  // track, so a graph launch's first GPU op comes first.
  std::sort(gpu.begin(), gpu.end());
  std::sort(launch.begin(), launch.end());
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

void finishIndices(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap) {
  buildCorrelationIndices(t);
  buildInstants(s, t, trackMap);
  buildCounters(s, t);
  t.kernelInfos = std::move(s.kernelInfos);
}

}  // namespace gapscope::detail
