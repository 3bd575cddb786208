// The frames owning the most launch-overhead idle: each launch call's idle
// (and its launches and device time) charged to the innermost Python frame
// around it and to the innermost module around it, summed by name. Outer
// frames are left out on purpose: every launch is inside `<module>`, so
// ranking totals would put the same outermost frames first in every trace.
#include <algorithm>
#include <map>

#include "gapscope/model/time_limits.h"
#include "report/report_build.h"

namespace gapscope::report {
namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

enum class FrameKind : std::uint8_t { Other, Python, Module, Operator };

struct FrameTotals {
  FrameKind kind = FrameKind::Other;
  std::int64_t idle = 0;
  std::int64_t launches = 0;
  std::int64_t device = 0;
};

const char* kindText(FrameKind kind) {
  switch (kind) {
    case FrameKind::Python: return "python";
    case FrameKind::Module: return "module";
    case FrameKind::Operator: return "operator";
    case FrameKind::Other: return "other";
  }
  return "other";
}

// Each node's kind, from the slices merged into it.
std::vector<FrameKind> nodeKinds(const Trace& trace, const calltree::CallTree& tree) {
  std::vector<FrameKind> kinds(tree.nodes.size(), FrameKind::Other);
  for (std::uint32_t s = 0; s < tree.nodeOfSlice.size(); ++s) {
    const std::uint32_t node = tree.nodeOfSlice[s];
    if (node == kNoIndex) continue;
    const Slice& slice = trace.slices[s];
    if (slice.kind == SliceKind::PythonFunction) {
      const std::string_view name = trace.str(slice.name);
      kinds[node] = name.substr(0, kModulePrefix.size()) == kModulePrefix ? FrameKind::Module : FrameKind::Python;
    } else if (slice.kind == SliceKind::CpuOp || slice.kind == SliceKind::UserAnnotation) {
      kinds[node] = FrameKind::Operator;
    }
  }
  return kinds;
}

// The nearest node above `node` (itself excluded) of kind `kind`; kNoIndex when none.
std::uint32_t innermost(const calltree::CallTree& tree, const std::vector<FrameKind>& kinds, std::uint32_t node,
                        FrameKind kind) {
  for (std::uint32_t a = tree.nodes[node].parent; a != kNoIndex; a = tree.nodes[a].parent) {
    if (kinds[a] == kind) return a;
  }
  return kNoIndex;
}

void charge(std::map<std::string_view, FrameTotals>& frames, const Trace& trace, const calltree::CallTree& tree,
            std::uint32_t owner, FrameKind kind, const calltree::CallNode& from) {
  if (owner == kNoIndex) return;
  FrameTotals& f = frames[calltree::nodeName(trace, tree.nodes[owner])];
  f.kind = kind;
  f.idle = addSaturating(f.idle, from.idleNs.self);
  f.launches = addSaturating(f.launches, from.launches.self);
  f.device = addSaturating(f.device, from.deviceNs.self);
}

}  // namespace

Table idleFramesTable(const Trace& trace, const calltree::CallTree& tree, std::size_t limit) {
  const std::vector<FrameKind> kinds = nodeKinds(trace, tree);
  const bool python = std::any_of(kinds.begin(), kinds.end(),
                                  [](FrameKind k) { return k == FrameKind::Python || k == FrameKind::Module; });
  std::map<std::string_view, FrameTotals> frames;
  std::int64_t allIdle = 0;
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const calltree::CallNode& node = tree.nodes[n];
    if (node.idleNs.self == 0 && node.launches.self == 0 && node.deviceNs.self == 0) continue;
    allIdle = addSaturating(allIdle, node.idleNs.self);
    if (python) {
      charge(frames, trace, tree, innermost(tree, kinds, n, FrameKind::Python), FrameKind::Python, node);
      charge(frames, trace, tree, innermost(tree, kinds, n, FrameKind::Module), FrameKind::Module, node);
    } else {
      charge(frames, trace, tree, innermost(tree, kinds, n, FrameKind::Operator), FrameKind::Operator, node);
    }
  }
  std::vector<std::pair<std::string_view, FrameTotals>> rows;
  for (const auto& f : frames) {
    if (f.second.idle > 0) rows.push_back(f);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.idle > b.second.idle; });
  Table t = makeTable("idle_frames", python ? "Python code owning GPU idle" : "Operators owning GPU idle",
                      {{"name", "Frame", ColumnKind::Text},
                       {"kind", "Kind", ColumnKind::Text},
                       {"idle_us", "Blamed idle", ColumnKind::Duration},
                       {"idle_pct", "Share of blamed idle", ColumnKind::Percent},
                       {"launches", "Launches", ColumnKind::Integer},
                       {"device_us", "Device time launched", ColumnKind::Duration}});
  t.note = python ? "Each launch's launch-overhead idle (docs/calltree.md) charged to the innermost Python frame and "
                    "the innermost module around it: the shares of each kind add up to at most 100 %."
                  : "No Python stacks in this trace (record with with_stack=True or with_modules=True to see Python "
                    "code): each launch's launch-overhead idle charged to the innermost operator or annotation "
                    "around it.";
  for (const auto& [name, f] : rows) {
    t.rows.push_back({textCell(name), textCell(kindText(f.kind)), durationCell(f.idle),
                      realCell(percentOf(static_cast<double>(f.idle), static_cast<double>(allIdle))),
                      intCell(f.launches), durationCell(f.device)});
  }
  limitRows(t, limit);
  return t;
}

}  // namespace gapscope::report
