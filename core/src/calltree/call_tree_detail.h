// Private to the call tree: the two halves of buildCallTree.
#pragma once

#include <vector>

#include "gapscope/calltree/call_tree.h"

namespace gapscope::calltree::detail {

// The nodes with calls and CPU time, and per slice of the trace the node it
// was merged into (kNoIndex for slices outside every thread's tree).
struct NodesOfSlices {
  CallTree tree;
  std::vector<std::uint32_t> nodeOfSlice;
};

NodesOfSlices buildNodes(const Trace& trace);

// Adds device time, kernel launches and launch-overhead idle to the nodes'
// self figures, then sums every figure but CPU time up into the totals.
void chargeLaunchedWork(const Trace& trace, const analysis::GapAnalysis& gaps, NodesOfSlices& nodes);

}  // namespace gapscope::calltree::detail
