// The bottom-up tree: each top-down node's figures carried up its chain of
// callers, merged by the names along the way.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "calltree/call_tree_detail.h"
#include "gapscope/calltree/call_tree.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::calltree {
namespace {

void addFigure(Figure& into, const Figure& from, bool withTotal) {
  into.self = addSaturating(into.self, from.self);
  if (withTotal) into.total = addSaturating(into.total, from.total);
}

// The frames above `node` with its name (recursion): only they can stand
// for the same bottom-up node as `node` does.
std::vector<std::uint32_t> sameNameAncestors(const std::vector<CallNode>& nodes, std::uint32_t node) {
  std::vector<std::uint32_t> found;
  for (std::uint32_t a = nodes[node].parent; a != kNoIndex; a = nodes[a].parent) {
    if (detail::frameKey(nodes[a]) == detail::frameKey(nodes[node])) found.push_back(a);
  }
  return found;
}

std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) { return (static_cast<std::uint64_t>(a) << 32) | b; }

class Inverter {
 public:
  explicit Inverter(const CallTree& topDown) : in_(topDown) {
    out_.tree.threads.reserve(in_.threads.size());
    for (const ThreadCalls& t : in_.threads) out_.tree.threads.push_back(ThreadCalls{t.track, {}});
    for (std::uint32_t n = 0; n < in_.nodes.size() && !recursive_; ++n) {
      recursive_ = !sameNameAncestors(in_.nodes, n).empty();
    }
  }

  // Walks from `node` up to its root, adding it to the inverted node of
  // each prefix of that walk. Nodes come parents first, so an enclosing
  // frame of the same name has been added already: where it stands for the
  // same inverted node, its total holds this node's.
  void add(std::uint32_t node) {
    const CallNode& from = in_.nodes[node];
    const std::vector<std::uint32_t> recursion = sameNameAncestors(in_.nodes, node);
    std::uint32_t inverted = kNoIndex;
    for (std::uint32_t a = node; a != kNoIndex; a = in_.nodes[a].parent) {
      inverted = childOf(inverted, in_.nodes[a], from.thread);
      const bool withTotal = std::none_of(recursion.begin(), recursion.end(), [&](std::uint32_t r) {
        return added_.count(pairKey(inverted, r)) > 0;
      });
      if (recursive_) added_.insert(pairKey(inverted, node));
      CallNode& to = out_.tree.nodes[inverted];
      to.calls += from.calls;
      addFigure(to.cpuNs, from.cpuNs, withTotal);
      addFigure(to.deviceNs, from.deviceNs, withTotal);
      addFigure(to.launches, from.launches, withTotal);
      addFigure(to.idleNs, from.idleNs, withTotal);
      origins_[inverted].push_back(node);
    }
  }

  BottomUpTree finish() {
    out_.originBegin.reserve(origins_.size() + 1);
    for (const std::vector<std::uint32_t>& list : origins_) {
      out_.originBegin.push_back(static_cast<std::uint32_t>(out_.originList.size()));
      out_.originList.insert(out_.originList.end(), list.begin(), list.end());
    }
    out_.originBegin.push_back(static_cast<std::uint32_t>(out_.originList.size()));
    return std::move(out_);
  }

 private:
  std::uint32_t childOf(std::uint32_t parent, const CallNode& frame, std::uint32_t thread) {
    const std::uint64_t key = (static_cast<std::uint64_t>(parent) << 32) | detail::frameKey(frame);
    auto [it, added] = index_[thread].try_emplace(key, static_cast<std::uint32_t>(out_.tree.nodes.size()));
    if (!added) return it->second;
    CallNode node;
    node.name = frame.name;
    node.mergedSteps = frame.mergedSteps;
    node.parent = parent;
    node.thread = thread;
    if (parent == kNoIndex) {
      out_.tree.threads[thread].roots.push_back(it->second);
    } else {
      node.depth = static_cast<std::uint16_t>(out_.tree.nodes[parent].depth + 1);
      out_.tree.nodes[parent].children.push_back(it->second);
    }
    out_.tree.nodes.push_back(std::move(node));
    origins_.emplace_back();
    return it->second;
  }

  const CallTree& in_;
  BottomUpTree out_;
  // (inverted node, top-down node) pairs added, kept for the nodes a
  // recursion may look up: every node once any frame repeats its name.
  std::unordered_set<std::uint64_t> added_;
  bool recursive_ = false;
  std::unordered_map<std::uint32_t, std::unordered_map<std::uint64_t, std::uint32_t>> index_;  // per thread
  std::vector<std::vector<std::uint32_t>> origins_;
};

}  // namespace

BottomUpTree buildBottomUp(const CallTree& topDown) {
  Inverter inverter(topDown);
  for (std::uint32_t node = 0; node < topDown.nodes.size(); ++node) inverter.add(node);
  return inverter.finish();
}

}  // namespace gapscope::calltree
