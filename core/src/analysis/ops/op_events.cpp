#include "analysis/ops/op_events.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace gapscope::analysis::ops {
namespace {

// Names PyTorch drops before building its event list (profiler_util's
// _filter_name): profiler bookkeeping ops and trivial autograd queries.
// Dropping them (not just their rows) gives their time to the parent's self CPU.
constexpr std::array<std::string_view, 8> kFilteredNames = {
    "[memory]",
    "[OutOfMemory]",
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
};

// String ids of the few names and categories classification looks for, so
// the per-slice work compares integers, not text.
struct SpecialStrings {
  std::vector<StringId> filteredNames;
  std::optional<StringId> traceCategory;  // "Trace": Kineto's session span...
  std::optional<StringId> spansPid;       // ...on pid "Spans"
  std::vector<StringId> deviceCategories;

  explicit SpecialStrings(const StringTable& strings) {
    for (std::string_view name : kFilteredNames) {
      if (auto id = lookup(strings, name)) filteredNames.push_back(*id);
    }
    traceCategory = lookup(strings, "Trace");
    spansPid = lookup(strings, "Spans");
    // PyTorch gives these Kineto activities the CUDA device type although
    // Kineto may write them on a stream-less track (e.g. "Context Sync" on tid -1).
    for (std::string_view category : {"cuda_sync", "cuda_profiler_range"}) {
      if (auto id = lookup(strings, category)) deviceCategories.push_back(*id);
    }
  }

  static std::optional<StringId> lookup(const StringTable& strings, std::string_view text) {
    StringId id = kEmptyString;
    return strings.find(text, &id) ? std::optional<StringId>(id) : std::nullopt;
  }

  bool isDeviceCategory(StringId category) const {
    return std::find(deviceCategories.begin(), deviceCategories.end(), category) != deviceCategories.end();
  }
  bool isFilteredName(StringId name) const {
    return std::find(filteredNames.begin(), filteredNames.end(), name) != filteredNames.end();
  }
  // Kineto writes the profiling session itself as a slice ("PyTorch Profiler
  // (0)", category "Trace", pid "Spans"); it is not a PyTorch event.
  bool isKinetoTraceSpan(const Slice& s, const Track& track) const {
    return traceCategory && spansPid && s.category == *traceCategory && track.pid.label == *spansPid;
  }
};

OpEventClass classify(const SpecialStrings& special, const Slice& s, const Track& track) {
  // Python frames (with_stack=True) are a call stack, not operators: PyTorch
  // removes them from its event list before building the tree.
  if (track.kind == TrackKind::Async || s.kind == SliceKind::PythonFunction) return OpEventClass::Skip;
  if (special.isKinetoTraceSpan(s, track) || special.isFilteredName(s.name)) return OpEventClass::Skip;
  if (isGpuKind(s.kind) || track.kind == TrackKind::GpuStream || special.isDeviceCategory(s.category)) {
    return OpEventClass::Gpu;
  }
  return OpEventClass::Cpu;
}

}  // namespace

std::vector<OpEventClass> classifyOpEvents(const Trace& trace) {
  const SpecialStrings special(trace.strings);
  std::vector<OpEventClass> classes(trace.slices.size(), OpEventClass::Skip);
  for (const Track& track : trace.tracks) {
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
      classes[i] = classify(special, trace.slices[i], track);
    }
  }
  return classes;
}
namespace {

using EventLists = std::vector<std::vector<std::uint32_t>>;  // per track: CPU events

void sortEvents(const Trace& trace, std::vector<std::uint32_t>& events) {
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    const Slice& x = trace.slices[a];
    const Slice& y = trace.slices[b];
    if (x.start != y.start) return x.start < y.start;
    return x.end() > y.end();
  };
  // Tracks are stored in this order already (checking is much cheaper than
  // sorting); the stable sort keeps equal events in file order, as Python's
  // sort does.
  if (std::is_sorted(events.begin(), events.end(), before)) return;
  std::stable_sort(events.begin(), events.end(), before);
}

void nestTrack(const Trace& trace, const std::vector<std::uint32_t>& events, std::vector<std::uint32_t>& parent) {
  std::vector<std::uint32_t> open;
  for (std::uint32_t i : events) {
    const Slice& s = trace.slices[i];
    parent[i] = kNoIndex;
    while (!open.empty()) {
      const Slice& top = trace.slices[open.back()];
      if (s.start >= top.end() || s.end() > top.end()) {
        open.pop_back();
        continue;
      }
      parent[i] = open.back();
      break;
    }
    open.push_back(i);
  }
}

// True when some event of `events` (nested into `parent`) contains `inner` fully.
bool trackContains(const Trace& trace, const std::vector<std::uint32_t>& events,
                   const std::vector<std::uint32_t>& parent, const Slice& inner) {
  auto it = std::upper_bound(events.begin(), events.end(), inner.start,
                             [&](TimeNs t, std::uint32_t i) { return t < trace.slices[i].start; });
  if (it == events.begin()) return false;
  for (std::uint32_t i = *(it - 1); i != kNoIndex; i = parent[i]) {
    const Slice& s = trace.slices[i];
    if (s.start <= inner.start && inner.end() <= s.end()) return true;
  }
  return false;
}

// Kineto exports its own overhead ("Activity Buffer Request", category
// "overhead") on pid -1 with no thread. PyTorch moves such an event onto the
// thread of the op it interrupted. Without the link we do the same when
// exactly one other thread has an event around it.
bool isProfilerOverhead(const Trace& trace, const Slice& s) {
  return s.kind == SliceKind::Other && trace.str(s.category) == "overhead";
}

std::uint32_t adoptingTrack(const Trace& trace, const EventLists& lists, const std::vector<std::uint32_t>& parent,
                            const Slice& overhead) {
  std::uint32_t found = kNoIndex;
  for (std::uint32_t t = 0; t < lists.size(); ++t) {
    if (t == overhead.track || !trackContains(trace, lists[t], parent, overhead)) continue;
    if (found != kNoIndex) return kNoIndex;  // ambiguous: leave it where it is
    found = t;
  }
  return found;
}

void adoptProfilerOverhead(const Trace& trace, EventLists& lists, std::vector<std::uint32_t>& parent) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> moves;  // (event, new track)
  for (const auto& events : lists) {
    for (std::uint32_t i : events) {
      const Slice& s = trace.slices[i];
      if (!isProfilerOverhead(trace, s)) continue;
      std::uint32_t track = adoptingTrack(trace, lists, parent, s);
      if (track != kNoIndex) moves.emplace_back(i, track);
    }
  }
  std::vector<bool> touched(lists.size(), false);
  for (auto [event, track] : moves) {
    auto& from = lists[trace.slices[event].track];
    from.erase(std::find(from.begin(), from.end(), event));
    lists[track].push_back(event);
    touched[trace.slices[event].track] = touched[track] = true;
  }
  for (std::uint32_t t = 0; t < lists.size(); ++t) {
    if (!touched[t]) continue;
    sortEvents(trace, lists[t]);
    nestTrack(trace, lists[t], parent);
  }
}

}  // namespace

CpuForest buildCpuForest(const Trace& trace, const std::vector<OpEventClass>& classes) {
  CpuForest forest;
  forest.parent.assign(trace.slices.size(), kNoIndex);
  EventLists lists(trace.tracks.size());
  for (std::uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
      if (classes[i] == OpEventClass::Cpu) lists[t].push_back(i);
    }
    sortEvents(trace, lists[t]);
    nestTrack(trace, lists[t], forest.parent);
  }
  adoptProfilerOverhead(trace, lists, forest.parent);
  for (const auto& events : lists) forest.preorder.insert(forest.preorder.end(), events.begin(), events.end());
  return forest;
}

std::uint32_t launchingOp(const Trace& trace, const CpuForest& forest, const Slice& gpuEvent) {
  if (gpuEvent.correlation == kNoCorrelation) return kNoIndex;
  std::uint32_t launch = trace.launchForCorrelation(gpuEvent.correlation);
  if (launch == kNoIndex || launch >= forest.parent.size()) return kNoIndex;
  // PyTorch links GPU work to the op whose "External id" Kineto wrote on it:
  // the innermost cpu_op running when the launch happened. record_function
  // ranges (user_annotation, ProfilerStep#N), runtime calls and python
  // frames set none, so a launch outside every cpu_op (a cudaGraphLaunch
  // straight under an annotation) leaves its GPU work unattributed.
  for (std::uint32_t op = forest.parent[launch]; op != kNoIndex; op = forest.parent[op]) {
    if (trace.slices[op].kind == SliceKind::CpuOp) return op;
  }
  return kNoIndex;
}

}  // namespace gapscope::analysis::ops
