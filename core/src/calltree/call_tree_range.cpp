// A tree built for a range keeps only the nodes with a call inside it.
#include "calltree/call_tree_detail.h"

namespace gapscope::calltree::detail {
namespace {

// Per node: a counted call in its subtree? Children come after parents, so
// one backward pass carries the answer up.
std::vector<bool> subtreesWithCalls(const std::vector<CallNode>& nodes) {
  std::vector<bool> keep(nodes.size(), false);
  for (auto i = nodes.size(); i-- > 0;) {
    if (nodes[i].calls > 0) keep[i] = true;
    if (keep[i] && nodes[i].parent != kNoIndex) keep[nodes[i].parent] = true;
  }
  return keep;
}

std::vector<std::uint32_t> renumber(const std::vector<bool>& keep) {
  std::vector<std::uint32_t> to(keep.size(), kNoIndex);
  std::uint32_t next = 0;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) to[i] = next++;
  }
  return to;
}

void remapList(std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& to) {
  std::vector<std::uint32_t> kept;
  for (std::uint32_t id : ids) {
    if (to[id] != kNoIndex) kept.push_back(to[id]);
  }
  ids = std::move(kept);
}

}  // namespace

void keepCountedNodes(const Trace& trace, const CallTreeOptions& options, CallTree& tree) {
  if (!options.range) return;
  const std::vector<bool> keep = subtreesWithCalls(tree.nodes);
  const std::vector<std::uint32_t> to = renumber(keep);
  std::vector<CallNode> kept;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    if (!keep[i]) continue;
    CallNode node = std::move(tree.nodes[i]);
    if (node.parent != kNoIndex) node.parent = to[node.parent];
    remapList(node.children, to);
    kept.push_back(std::move(node));
  }
  tree.nodes = std::move(kept);
  for (ThreadCalls& thread : tree.threads) remapList(thread.roots, to);
  for (std::uint32_t s = 0; s < tree.nodeOfSlice.size(); ++s) {
    std::uint32_t& node = tree.nodeOfSlice[s];
    node = node == kNoIndex || !counted(trace.slices[s], options) ? kNoIndex : to[node];
  }
}

}  // namespace gapscope::calltree::detail
