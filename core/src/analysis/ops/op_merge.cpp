// PyTorch's _remove_dup_nodes on the operator table's CPU forest: a call
// that is the only child of a call of the same name (aten::mul dispatching
// to aten::mul, aten::copy_ to aten::copy_) is folded into that parent, so
// it counts once. See docs/operator-table.md.
#include "analysis/ops/op_events.h"

namespace gapscope::analysis::ops {
namespace {

std::vector<std::uint32_t> countChildren(const CpuForest& forest) {
  std::vector<std::uint32_t> children(forest.parent.size(), 0);
  for (std::uint32_t i : forest.preorder) {
    if (forest.parent[i] != kNoIndex) ++children[forest.parent[i]];
  }
  return children;
}

}  // namespace

void mergeSameNameOnlyChildren(const Trace& trace, CpuForest& forest, std::vector<TimeNs>& directDevice) {
  std::vector<std::uint32_t> children = countChildren(forest);
  forest.removed.assign(forest.parent.size(), false);
  std::vector<std::uint32_t> kept;
  kept.reserve(forest.preorder.size());
  // Parents come before children, so when an event is visited its parent's
  // fate is settled: a removed parent has already handed its place to the
  // survivor it merged into (one step up is enough).
  for (std::uint32_t i : forest.preorder) {
    std::uint32_t& parent = forest.parent[i];
    if (parent != kNoIndex && forest.removed[parent]) parent = forest.parent[parent];
    const bool merge = parent != kNoIndex && children[parent] == 1 &&
                       trace.slices[parent].name == trace.slices[i].name;
    if (!merge) {
      kept.push_back(i);
      continue;
    }
    forest.removed[i] = true;
    children[parent] = children[i];
    directDevice[parent] = directDevice[i];
  }
  forest.preorder = std::move(kept);
}

}  // namespace gapscope::analysis::ops
