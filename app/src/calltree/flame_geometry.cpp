#include "calltree/flame_geometry.h"

#include <algorithm>

#include "gapscope/model/time_limits.h"

namespace gapscope::app {
namespace {

class FlameBuilder {
 public:
  FlameBuilder(const calltree::CallTree& tree, const FlameOptions& options)
      : tree_(tree), options_(options), weights_(flameWeights(tree, options)) {}

  FlameLayout build() {
    const std::vector<std::uint32_t> threads = shownThreads();
    for (std::uint32_t t : threads) out_.total = addSaturating(out_.total, threadWeight(t));
    if (options_.zoomNode != kNoIndex) out_.total = weights_[options_.zoomNode];
    double x = 0;
    for (std::uint32_t t : threads) {
      const double width = share(options_.zoomNode != kNoIndex ? out_.total : threadWeight(t));
      if (options_.zoomNode != kNoIndex && tree_.nodes[options_.zoomNode].thread != t) continue;
      add({kNoIndex, t, 0, x, x + width, options_.zoomNode != kNoIndex ? out_.total : threadWeight(t)});
      if (options_.zoomNode != kNoIndex) {
        addZoomPath(t);
      } else {
        addChildren(tree_.threads[t].roots, 1, x, t);
      }
      x += width;
    }
    return std::move(out_);
  }

 private:
  std::vector<std::uint32_t> shownThreads() const {
    std::vector<std::uint32_t> threads;
    for (std::uint32_t t = 0; t < tree_.threads.size(); ++t) {
      if (options_.thread == kNoIndex || options_.thread == t) threads.push_back(t);
    }
    return threads;
  }

  std::int64_t threadWeight(std::uint32_t t) const {
    std::int64_t sum = 0;
    for (std::uint32_t r : tree_.threads[t].roots) sum = addSaturating(sum, weights_[r]);
    return sum;
  }

  double share(std::int64_t value) const {
    return out_.total > 0 ? static_cast<double>(value) / static_cast<double>(out_.total) : 0.0;
  }

  // The zoomed node's callers, each full width, then the node and its subtree.
  void addZoomPath(std::uint32_t thread) {
    std::vector<std::uint32_t> path;
    for (std::uint32_t n = options_.zoomNode; n != kNoIndex; n = tree_.nodes[n].parent) path.push_back(n);
    int depth = 1;
    for (auto it = path.rbegin(); it != path.rend(); ++it, ++depth) {
      add({*it, thread, depth, 0.0, 1.0, *it == options_.zoomNode ? out_.total : weights_[*it]});
    }
    addChildren(tree_.nodes[options_.zoomNode].children, depth, 0.0, thread);
  }

  // Children side by side from x, heaviest first (as flame graphs sort).
  void addChildren(const std::vector<std::uint32_t>& children, int depth, double x, std::uint32_t thread) {
    std::vector<std::uint32_t> order(children);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return weights_[a] > weights_[b]; });
    for (std::uint32_t n : order) {
      const double width = share(weights_[n]);
      if (width <= options_.minFraction || weights_[n] <= 0) continue;
      add({n, thread, depth, x, x + width, weights_[n]});
      addChildren(tree_.nodes[n].children, depth + 1, x, thread);
      x += width;
    }
  }

  void add(const FlameFrame& frame) {
    out_.frames.push_back(frame);
    out_.depths = std::max(out_.depths, frame.depth + 1);
  }

  const calltree::CallTree& tree_;
  const FlameOptions& options_;
  std::vector<std::int64_t> weights_;
  FlameLayout out_;
};

}  // namespace

std::vector<std::int64_t> flameWeights(const calltree::CallTree& tree, const FlameOptions& options) {
  std::vector<std::int64_t> weights(tree.nodes.size(), 0);
  std::vector<std::int64_t> childSum(tree.nodes.size(), 0);
  // Children come after their parents: one backward pass.
  for (auto i = tree.nodes.size(); i-- > 0;) {
    const calltree::Figure& f = tree.nodes[i].figure(options.metric);
    weights[i] = std::max(options.selfWeights ? f.self : f.total, childSum[i]);
    const std::uint32_t parent = tree.nodes[i].parent;
    if (parent != kNoIndex) childSum[parent] = addSaturating(childSum[parent], weights[i]);
  }
  return weights;
}

FlameLayout layoutFlame(const calltree::CallTree& tree, const FlameOptions& options) {
  return FlameBuilder(tree, options).build();
}

}  // namespace gapscope::app
