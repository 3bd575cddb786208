#include "gapscope/calltree/call_tree.h"

#include <array>

#include "calltree/call_tree_detail.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::calltree {
namespace {

constexpr std::array<const char*, 4> kMetricNames = {"cpu", "device", "launches", "idle"};

}  // namespace

const char* metricName(Metric metric) { return kMetricNames[static_cast<std::size_t>(metric)]; }

bool metricForName(std::string_view name, Metric* metric) {
  for (std::size_t i = 0; i < kMetricNames.size(); ++i) {
    if (name != kMetricNames[i]) continue;
    *metric = static_cast<Metric>(i);
    return true;
  }
  return false;
}

const Figure& CallNode::figure(Metric metric) const {
  switch (metric) {
    case Metric::Cpu: return cpuNs;
    case Metric::Device: return deviceNs;
    case Metric::Launches: return launches;
    case Metric::Idle: return idleNs;
  }
  return cpuNs;
}

Figure ThreadCalls::totals(const std::vector<CallNode>& nodes, Metric metric) const {
  Figure sum;
  for (std::uint32_t r : roots) {
    sum.self = addSaturating(sum.self, nodes[r].figure(metric).self);
    sum.total = addSaturating(sum.total, nodes[r].figure(metric).total);
  }
  return sum;
}

std::vector<std::uint32_t> CallTree::slicesOf(std::uint32_t node) const {
  std::vector<std::uint32_t> slices;
  for (std::uint32_t s = 0; s < nodeOfSlice.size(); ++s) {
    if (nodeOfSlice[s] == node) slices.push_back(s);
  }
  return slices;
}

std::string_view nodeName(const Trace& trace, const CallNode& node) {
  return node.mergedSteps ? std::string_view("ProfilerStep*") : trace.str(node.name);
}

std::string threadLabel(const Trace& trace, const Track& track) {
  const std::string tid = chromeIdText(trace, track.tid);
  if (track.name == kEmptyString) return "thread " + tid;
  // Kineto names threads "thread 495 (python3)": the tid is there already.
  std::string name(trace.str(track.name));
  return name.find(tid) != std::string::npos ? name : name + " (" + tid + ")";
}

CallTree buildCallTree(const Trace& trace, const analysis::GapAnalysis& gaps, const CallTreeOptions& options) {
  CallTree tree = detail::buildNodes(trace, options);
  detail::chargeLaunchedWork(trace, gaps, options, tree);
  detail::keepCountedNodes(trace, options, tree);
  return tree;
}

}  // namespace gapscope::calltree
