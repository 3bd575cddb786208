// The call tree's machine-readable outputs for `gapscope-cli tree`: nested
// JSON and the collapsed-stack ("folded") lines flamegraph.pl and speedscope
// read. docs/calltree.md describes both.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "gapscope/calltree/call_tree.h"
#include "gapscope/model/trace.h"

namespace gapscope::cli {

using calltree::threadLabel;

// A node's children, largest total of `metric` first (ties: first called first).
std::vector<std::uint32_t> childrenByTotal(const calltree::CallTree& tree, const std::vector<std::uint32_t>& ids,
                                           calltree::Metric metric);

// One line per node with a non-zero self value of `metric`:
// "thread;frame;...;frame VALUE", VALUE an integer (ns for times).
void writeFolded(std::ostream& out, const Trace& trace, const calltree::CallTree& tree,
                 const std::vector<const calltree::ThreadCalls*>& threads, calltree::Metric metric);

// {"trace", "metric", "threads": [{pid, tid, name, totals, "nodes": [...]}]},
// nodes nested with every figure, children largest `metric` total first.
void writeTreeJson(std::ostream& out, const std::string& path, const Trace& trace, const calltree::CallTree& tree,
                   const std::vector<const calltree::ThreadCalls*>& threads, calltree::Metric metric);

}  // namespace gapscope::cli
