// The nodes of the call tree: each CPU thread's slices merged by their path
// of names, with calls and CPU total / self time.
#include <algorithm>
#include <unordered_map>

#include "calltree/call_tree_detail.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::calltree::detail {
namespace {

bool isCpuWork(SliceKind kind) {
  return kind == SliceKind::CpuOp || kind == SliceKind::UserAnnotation || kind == SliceKind::PythonFunction ||
         kind == SliceKind::CudaRuntime || kind == SliceKind::CudaDriver;
}

// Threads without CPU work (Kineto's "PyTorch Profiler" session span on pid
// "Spans") would only add a root that is no call.
bool holdsCpuWork(const Trace& trace, const Track& track) {
  if (track.kind != TrackKind::CpuThread) return false;
  return std::any_of(trace.trackBegin(track), trace.trackEnd(track),
                     [](const Slice& s) { return isCpuWork(s.kind); });
}

bool isSpilled(const Slice& s) { return (s.flags & kSliceSpilled) != 0; }

// The slice a slice's node hangs under. A spilled slice overlaps the slice
// open at its start without nesting in it (a record_function range, such as
// ProfilerStep#N or forward, opens in the Python frame of its __enter__ and
// outlives it): it goes under the nearest ancestor that holds it whole, so
// no node outlasts the node it hangs under.
std::uint32_t treeParent(const Trace& trace, std::uint32_t i) {
  const Slice& s = trace.slices[i];
  std::uint32_t p = s.parent;
  if (!isSpilled(s)) return p;
  while (p != kNoIndex && trace.slices[p].end() < s.end()) p = trace.slices[p].parent;
  return p;
}

// Time of `child` inside `parent`.
TimeNs overlapNs(const Slice& child, const Slice& parent) {
  return std::max<TimeNs>(0, std::min(child.end(), parent.end()) - std::max(child.start, parent.start));
}

// Which names are ProfilerStep#N (when steps are merged), looked up once per name.
class StepNames {
 public:
  StepNames(const Trace& trace, bool merge) : trace_(trace), known_(merge ? trace.strings.size() : 0, kUnknown) {}
  bool isStep(StringId name) {
    if (name >= known_.size()) return false;
    if (known_[name] == kUnknown) known_[name] = analysis::isProfilerStepName(trace_.str(name)) ? 1 : 0;
    return known_[name] == 1;
  }

 private:
  static constexpr std::int8_t kUnknown = -1;
  const Trace& trace_;
  std::vector<std::int8_t> known_;
};

// Merges one thread's slices into nodes keyed by (parent node, frameKey).
class ThreadMerger {
 public:
  ThreadMerger(const Trace& trace, std::uint32_t threadIndex, CallTree& out, StepNames& steps)
      : trace_(trace), thread_(threadIndex), out_(out), steps_(steps) {}

  // The node of slice `i`, creating it (and its ancestors' nodes) on first use.
  std::uint32_t nodeOf(std::uint32_t i) {
    pending_.clear();
    for (std::uint32_t s = i; s != kNoIndex && out_.nodeOfSlice[s] == kNoIndex; s = treeParent(trace_, s)) {
      pending_.push_back(s);
    }
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) assign(*it);
    return out_.nodeOfSlice[i];
  }

 private:
  void assign(std::uint32_t slice) {
    const Slice& s = trace_.slices[slice];
    const std::uint32_t parent = treeParent(trace_, slice);
    const std::uint32_t parentNode = parent == kNoIndex ? kNoIndex : out_.nodeOfSlice[parent];
    const bool step = steps_.isStep(s.name);
    const std::uint64_t key = (static_cast<std::uint64_t>(parentNode) << 32) | frameKey(s.name, step);
    auto [it, added] = children_.try_emplace(key, static_cast<std::uint32_t>(out_.nodes.size()));
    if (added) {
      addNode(s.name, parentNode);
      out_.nodes.back().mergedSteps = step;
    }
    out_.nodeOfSlice[slice] = it->second;
  }

  void addNode(StringId name, std::uint32_t parentNode) {
    CallTree& tree = out_;
    const auto id = static_cast<std::uint32_t>(tree.nodes.size());
    CallNode node;
    node.name = name;
    node.parent = parentNode;
    node.thread = thread_;
    if (parentNode == kNoIndex) {
      tree.threads[thread_].roots.push_back(id);
    } else {
      node.depth = static_cast<std::uint16_t>(tree.nodes[parentNode].depth + 1);
      tree.nodes[parentNode].children.push_back(id);
    }
    tree.nodes.push_back(std::move(node));
  }

  const Trace& trace_;
  std::uint32_t thread_;
  CallTree& out_;
  StepNames& steps_;
  std::unordered_map<std::uint64_t, std::uint32_t> children_;
  std::vector<std::uint32_t> pending_;  // slices still without a node, innermost first
};

// A spilled slice has no self time: the slices nested where it lies (the
// Python frames after its __enter__ returned, the operators) hold its time,
// and counting it again made a thread's self time add up to more than the
// thread ran (55.2 ms bottom-up of a 19.2 ms thread). Nor does it cover its
// ancestor's time, for the same reason.
void addCpuTimes(const Trace& trace, const Track& track, const CallTreeOptions& options, CallTree& out) {
  // Per slice of the track: time covered by its child slices.
  std::vector<TimeNs> childNs(track.sliceCount, 0);
  for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
    const Slice& s = trace.slices[i];
    if (s.parent == kNoIndex || isSpilled(s)) continue;
    TimeNs& covered = childNs[s.parent - track.firstSlice];
    covered = addSaturating(covered, overlapNs(s, trace.slices[s.parent]));
  }
  for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
    const Slice& s = trace.slices[i];
    if (!counted(s, options)) continue;
    CallNode& node = out.nodes[out.nodeOfSlice[i]];
    node.calls += 1;
    node.cpuNs.total = addSaturating(node.cpuNs.total, s.dur);
    if (isSpilled(s)) continue;
    node.cpuNs.self = addSaturating(node.cpuNs.self, std::max<TimeNs>(0, s.dur - childNs[i - track.firstSlice]));
  }
}

}  // namespace

CallTree buildNodes(const Trace& trace, const CallTreeOptions& options) {
  CallTree out;
  out.nodeOfSlice.assign(trace.slices.size(), kNoIndex);
  StepNames steps(trace, options.mergeSteps);
  for (std::uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (!holdsCpuWork(trace, track)) continue;
    const auto threadIndex = static_cast<std::uint32_t>(out.threads.size());
    out.threads.push_back(ThreadCalls{t, {}});
    ThreadMerger merger(trace, threadIndex, out, steps);
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) merger.nodeOf(i);
    addCpuTimes(trace, track, options, out);
  }
  return out;
}

}  // namespace gapscope::calltree::detail
