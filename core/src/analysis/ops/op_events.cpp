#include "analysis/ops/op_events.h"

#include <algorithm>
#include <array>
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

bool isFilteredName(std::string_view name) {
  return std::find(kFilteredNames.begin(), kFilteredNames.end(), name) != kFilteredNames.end();
}

// Kineto writes the profiling session itself as a slice ("PyTorch Profiler
// (0)", category "Trace", pid "Spans"); it is not a PyTorch event.
bool isKinetoTraceSpan(const Trace& trace, const Slice& s, const Track& track) {
  return trace.str(s.category) == "Trace" && trace.str(track.pid.label) == "Spans";
}

OpEventClass classify(const Trace& trace, const Slice& s, const Track& track) {
  if (track.kind == TrackKind::Async) return OpEventClass::Skip;
  if (isKinetoTraceSpan(trace, s, track) || isFilteredName(trace.str(s.name))) return OpEventClass::Skip;
  if (isGpuKind(s.kind) || track.kind == TrackKind::GpuStream) return OpEventClass::Gpu;
  return OpEventClass::Cpu;
}

bool isAttributionTarget(SliceKind k) { return k == SliceKind::CpuOp || k == SliceKind::UserAnnotation; }

}  // namespace

std::vector<OpEventClass> classifyOpEvents(const Trace& trace) {
  std::vector<OpEventClass> classes(trace.slices.size(), OpEventClass::Skip);
  for (const Track& track : trace.tracks) {
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
      classes[i] = classify(trace, trace.slices[i], track);
    }
  }
  return classes;
}

CpuForest buildCpuForest(const Trace& trace, const std::vector<OpEventClass>& classes) {
  CpuForest forest;
  forest.parent.assign(trace.slices.size(), kNoIndex);
  std::vector<std::uint32_t> events;
  std::vector<std::uint32_t> open;
  for (const Track& track : trace.tracks) {
    events.clear();
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
      if (classes[i] == OpEventClass::Cpu) events.push_back(i);
    }
    // Tracks are stored sorted this way already; the stable sort keeps
    // equal events in file order, as Python's sort does.
    std::stable_sort(events.begin(), events.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Slice& x = trace.slices[a];
      const Slice& y = trace.slices[b];
      if (x.start != y.start) return x.start < y.start;
      return x.end() > y.end();
    });
    open.clear();
    for (std::uint32_t i : events) {
      const Slice& s = trace.slices[i];
      while (!open.empty()) {
        const Slice& top = trace.slices[open.back()];
        if (s.start >= top.end() || s.end() > top.end()) {
          open.pop_back();
          continue;
        }
        forest.parent[i] = open.back();
        break;
      }
      open.push_back(i);
      forest.preorder.push_back(i);
    }
  }
  return forest;
}

std::uint32_t launchingOp(const Trace& trace, const CpuForest& forest, const Slice& gpuEvent) {
  if (gpuEvent.correlation == kNoCorrelation) return kNoIndex;
  std::uint32_t launch = trace.launchForCorrelation(gpuEvent.correlation);
  if (launch == kNoIndex || launch >= forest.parent.size()) return kNoIndex;
  // PyTorch links GPU work to the op whose external correlation id was
  // pushed when the launch happened: the innermost cpu_op or record_function
  // (user_annotation) around it; runtime calls and python functions push none.
  for (std::uint32_t op = forest.parent[launch]; op != kNoIndex; op = forest.parent[op]) {
    if (isAttributionTarget(trace.slices[op].kind)) return op;
  }
  return kNoIndex;
}

}  // namespace gapscope::analysis::ops
