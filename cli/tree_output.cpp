#include "tree_output.h"

#include <algorithm>
#include <ostream>

#include "output.h"

namespace gapscope::cli {
namespace {

using calltree::CallNode;
using calltree::CallTree;
using calltree::Metric;
using Json = nlohmann::ordered_json;

Json chromeIdJson(const Trace& trace, const ChromeId& id) {
  return id.label != kEmptyString ? Json(std::string(trace.str(id.label))) : Json(id.num);
}

// ';' separates frames and the last ' ' the value; a name keeps its spaces
// (the value is found from the end) but loses separators and line breaks.
std::string foldedFrame(std::string_view name) {
  std::string frame(name);
  for (char& c : frame) {
    if (c == ';') c = ':';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return frame;
}

// Walks one thread's nodes depth first, keeping the folded path of each.
void foldThread(std::ostream& out, const Trace& trace, const CallTree& tree, const calltree::ThreadCalls& thread,
                Metric metric) {
  struct Visit {
    std::uint32_t node;
    std::size_t prefixLength;  // length of the parent's path
  };
  std::string path = foldedFrame(threadLabel(trace, trace.tracks[thread.track]));
  std::vector<Visit> stack;
  for (auto it = thread.roots.rbegin(); it != thread.roots.rend(); ++it) stack.push_back({*it, path.size()});
  while (!stack.empty()) {
    const Visit v = stack.back();
    stack.pop_back();
    const CallNode& node = tree.nodes[v.node];
    path.resize(v.prefixLength);
    path += ';';
    path += foldedFrame(calltree::nodeName(trace, node));
    const std::int64_t self = node.figure(metric).self;
    if (self > 0) out << path << ' ' << self << '\n';
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back({*it, path.size()});
  }
}

void addFigures(Json& j, const char* prefix, const calltree::Figure& f, bool isTime) {
  const std::string p(prefix);
  const char* unit = isTime ? "_us" : "";
  j[p + "_total" + unit] = isTime ? Json(format::usNumber(f.total)) : Json(f.total);
  j[p + "_self" + unit] = isTime ? Json(format::usNumber(f.self)) : Json(f.self);
}

Json nodeJson(const Trace& trace, const CallTree& tree, std::uint32_t id, Metric metric) {
  const CallNode& n = tree.nodes[id];
  Json j;
  j["name"] = std::string(calltree::nodeName(trace, n));
  j["calls"] = n.calls;
  addFigures(j, "cpu", n.cpuNs, true);
  addFigures(j, "device", n.deviceNs, true);
  addFigures(j, "launches", n.launches, false);
  addFigures(j, "idle", n.idleNs, true);
  j["children"] = Json::array();
  for (std::uint32_t c : childrenByTotal(tree, n.children, metric)) {
    j["children"].push_back(nodeJson(trace, tree, c, metric));
  }
  return j;
}

}  // namespace

std::vector<std::uint32_t> childrenByTotal(const CallTree& tree, const std::vector<std::uint32_t>& ids,
                                           Metric metric) {
  std::vector<std::uint32_t> sorted = ids;
  std::stable_sort(sorted.begin(), sorted.end(), [&](std::uint32_t a, std::uint32_t b) {
    return tree.nodes[a].figure(metric).total > tree.nodes[b].figure(metric).total;
  });
  return sorted;
}

void writeFolded(std::ostream& out, const Trace& trace, const CallTree& tree,
                 const std::vector<const calltree::ThreadCalls*>& threads, Metric metric) {
  for (const calltree::ThreadCalls* thread : threads) foldThread(out, trace, tree, *thread, metric);
}

void writeTreeJson(std::ostream& out, const std::string& path, const Trace& trace, const CallTree& tree,
                   const std::vector<const calltree::ThreadCalls*>& threads, Metric metric) {
  Json j;
  j["trace"] = path;
  j["metric"] = calltree::metricName(metric);
  j["threads"] = Json::array();
  for (const calltree::ThreadCalls* thread : threads) {
    const Track& track = trace.tracks[thread->track];
    Json t;
    t["pid"] = chromeIdJson(trace, track.pid);
    t["tid"] = chromeIdJson(trace, track.tid);
    t["name"] = threadLabel(trace, track);
    addFigures(t, "cpu", thread->totals(tree.nodes, Metric::Cpu), true);
    addFigures(t, "device", thread->totals(tree.nodes, Metric::Device), true);
    addFigures(t, "launches", thread->totals(tree.nodes, Metric::Launches), false);
    addFigures(t, "idle", thread->totals(tree.nodes, Metric::Idle), true);
    t["nodes"] = Json::array();
    for (std::uint32_t r : childrenByTotal(tree, thread->roots, metric)) {
      t["nodes"].push_back(nodeJson(trace, tree, r, metric));
    }
    j["threads"].push_back(std::move(t));
  }
  writeJson(out, j);
}

}  // namespace gapscope::cli
