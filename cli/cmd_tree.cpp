// gapscope-cli tree: each CPU thread's call tree (gapscope/calltree) with
// CPU, device, launch and launch-overhead idle figures per node, as an
// indented text tree, nested JSON or folded stacks for flame graphs
// (docs/calltree.md).
#include <algorithm>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <unordered_set>

#include "command.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/calltree/call_tree.h"
#include "load_trace.h"
#include "output.h"
#include "tree_output.h"

namespace gapscope::cli {
namespace {

using calltree::CallNode;
using calltree::CallTree;
using calltree::Metric;
using calltree::ThreadCalls;

constexpr std::size_t kTextLargestNodes = 30;

enum class TreeFormat { Text, Json, Folded };

TreeFormat treeFormatOption(const Args& args) {
  const std::string format = args.get("format", "text");
  if (format == "text") return TreeFormat::Text;
  if (format == "json") return TreeFormat::Json;
  if (format == "folded") return TreeFormat::Folded;
  throw std::invalid_argument("--format expects text, json or folded, got '" + format + "'");
}

Metric metricOption(const Args& args) {
  Metric metric = Metric::Cpu;
  const std::string name = args.get("metric", "cpu");
  if (!calltree::metricForName(name, &metric)) {
    throw std::invalid_argument("--metric expects cpu, device, launches or idle, got '" + name + "'");
  }
  return metric;
}

// --thread TID matches the tid as written in the trace (a number or a name).
bool matchesThread(const Trace& trace, const Track& track, const std::string& tid) {
  if (track.tid.label != kEmptyString) return trace.str(track.tid.label) == tid;
  return std::to_string(track.tid.num) == tid;
}

std::vector<const ThreadCalls*> selectThreads(const Trace& trace, const CallTree& tree,
                                              const std::optional<std::string>& tid) {
  std::vector<const ThreadCalls*> threads;
  for (const ThreadCalls& t : tree.threads) {
    if (!tid || matchesThread(trace, trace.tracks[t.track], *tid)) threads.push_back(&t);
  }
  return threads;
}

std::string threadList(const Trace& trace, const CallTree& tree) {
  std::string text;
  for (const ThreadCalls& t : tree.threads) text += (text.empty() ? "" : ", ") + threadLabel(trace, trace.tracks[t.track]);
  return text.empty() ? "none" : text;
}

std::string metricText(std::int64_t value, Metric metric) {
  return metric == Metric::Launches ? std::to_string(value) : format::formatDuration(value, kTableTime);
}

// The `limit` nodes of one thread with the largest non-zero total, plus
// their ancestors so the text stays a tree.
std::unordered_set<std::uint32_t> largestNodes(const CallTree& tree, std::uint32_t thread, Metric metric,
                                               std::size_t limit) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    if (tree.nodes[i].thread == thread && tree.nodes[i].figure(metric).total > 0) ids.push_back(i);
  }
  // Ties go to the shallower node, so a chain of equal totals shows from its top.
  std::stable_sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) {
    const CallNode& x = tree.nodes[a];
    const CallNode& y = tree.nodes[b];
    if (x.figure(metric).total != y.figure(metric).total) return x.figure(metric).total > y.figure(metric).total;
    return x.depth < y.depth;
  });
  if (ids.size() > limit) ids.resize(limit);
  std::unordered_set<std::uint32_t> shown;
  for (std::uint32_t i : ids) {
    for (std::uint32_t n = i; n != kNoIndex && shown.insert(n).second; n = tree.nodes[n].parent) {
    }
  }
  return shown;
}

void addRows(TextTable& table, const Trace& trace, const CallTree& tree, const std::vector<std::uint32_t>& ids,
             const std::unordered_set<std::uint32_t>& shown, Metric metric) {
  for (std::uint32_t id : childrenByTotal(tree, ids, metric)) {
    if (!shown.count(id)) continue;
    const CallNode& n = tree.nodes[id];
    table.addRow({std::string(2 * n.depth, ' ') + std::string(calltree::nodeName(trace, n)),
                  metricText(n.figure(metric).total, metric), metricText(n.figure(metric).self, metric),
                  std::to_string(n.calls)});
    addRows(table, trace, tree, n.children, shown, metric);
  }
}

void printThreadText(std::ostream& out, const Trace& trace, const CallTree& tree, const ThreadCalls& thread,
                     Metric metric, std::size_t limit) {
  const auto threadIndex = static_cast<std::uint32_t>(&thread - tree.threads.data());
  const auto shown = largestNodes(tree, threadIndex, metric, limit);
  out << threadLabel(trace, trace.tracks[thread.track]) << ": " << calltree::metricName(metric) << " total "
      << metricText(thread.totals(tree.nodes, metric).total, metric) << ", " << shown.size() << " nodes shown\n";
  if (shown.empty()) return;
  using Align = TextTable::Align;
  TextTable table;
  table.addColumn("Call", Align::Left, 100);
  table.addColumn("Total");
  table.addColumn("Self");
  table.addColumn("Calls");
  addRows(table, trace, tree, thread.roots, shown, metric);
  table.print(out);
}

void printText(std::ostream& out, const std::string& path, const Trace& trace, const CallTree& tree,
               const std::vector<const ThreadCalls*>& threads, Metric metric, std::size_t limit) {
  out << "Trace:  " << path << "\nMetric: " << calltree::metricName(metric) << " (the " << limit
      << " largest nodes by total per thread)\n";
  if (tree.threads.empty()) {
    out << "no thread holds CPU work (cpu_op, user_annotation, python_function, cuda_runtime or cuda_driver slices)\n";
  }
  for (const ThreadCalls* thread : threads) {
    out << '\n';
    printThreadText(out, trace, tree, *thread, metric, limit);
  }
}

int runTree(const Args& args, std::ostream& out, std::ostream& err) {
  const TreeFormat format = treeFormatOption(args);
  const Metric metric = metricOption(args);
  const std::size_t limit = args.has("limit") ? limitOption(args) : kTextLargestNodes;
  const std::optional<std::string> tid = args.has("thread") ? std::optional(args.get("thread")) : std::nullopt;
  auto path = tracePathArgument(args, "tree", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "tree", err);
  if (!trace) return 1;
  calltree::CallTreeOptions options;
  options.mergeSteps = args.has("merge-steps");
  const CallTree tree = calltree::buildCallTree(*trace, analysis::analyzeGaps(*trace), options);
  const auto threads = selectThreads(*trace, tree, tid);
  if (tid && threads.empty()) {
    err << "gapscope-cli tree: no thread with CPU work has tid " << *tid << " (threads: " << threadList(*trace, tree)
        << ")\n";
    return 1;
  }
  switch (format) {
    case TreeFormat::Text: printText(out, *path, *trace, tree, threads, metric, limit); break;
    case TreeFormat::Json: writeTreeJson(out, *path, *trace, tree, threads, metric); break;
    case TreeFormat::Folded: writeFolded(out, *trace, tree, threads, metric); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("tree",
                     "tree TRACE [--metric cpu|device|launches|idle] [--format text|json|folded] [--thread TID] "
                     "[--limit N] [--merge-steps]",
                     "call tree per CPU thread (stacks merged by name path): CPU total/self, device time launched, "
                     "kernel launches, launch-overhead idle; folded = flame graph input (self values); "
                     "--limit: nodes shown in text, 30; --merge-steps: ProfilerStep#N frames as one ProfilerStep*",
                     {"merge-steps"}, runTree);

}  // namespace gapscope::cli
