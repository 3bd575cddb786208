// Private to the call tree: the two halves of buildCallTree.
#pragma once

#include <vector>

#include "gapscope/calltree/call_tree.h"

namespace gapscope::calltree::detail {

// What makes two frames under one parent the same frame: their name, or
// for merged steps their shared mark, whichever step each began with. Used
// wherever frames are merged or compared (top-down, bottom-up, recursion).
inline std::uint32_t frameKey(StringId name, bool mergedSteps) { return mergedSteps ? kNoIndex : name; }
inline std::uint32_t frameKey(const CallNode& node) { return frameKey(node.name, node.mergedSteps); }

// True when slice `s` is a call of the tree under `options`.
inline bool counted(const Slice& s, const CallTreeOptions& options) {
  return !options.range || options.range->contains(s.start);
}

// The nodes with calls and CPU time (of the counted slices), and per slice
// of the trace the node it was merged into.
CallTree buildNodes(const Trace& trace, const CallTreeOptions& options);

// Adds device time, kernel launches and launch-overhead idle of the counted
// launch calls to the nodes' self figures, then sums every figure but CPU
// time up into the totals.
void chargeLaunchedWork(const Trace& trace, const analysis::GapAnalysis& gaps, const CallTreeOptions& options,
                        CallTree& tree);

// Leaves out the nodes without a counted call in their subtree, and maps
// slices that are not counted to no node.
void keepCountedNodes(const Trace& trace, const CallTreeOptions& options, CallTree& tree);

}  // namespace gapscope::calltree::detail
