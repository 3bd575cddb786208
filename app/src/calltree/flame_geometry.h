// Where each frame of a flame graph goes: widths proportional to a metric,
// as fractions of the view's width, one row per depth. Pure geometry (no
// Qt), so the widths can be checked against the tree's figures in a test.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/calltree/call_tree.h"

namespace gapscope::app {

struct FlameFrame {
  std::uint32_t node = kNoIndex;    // kNoIndex: the frame of a thread
  std::uint32_t thread = kNoIndex;  // index into CallTree::threads
  int depth = 0;                    // 0: the threads' row
  double x0 = 0;                    // fractions of the width, [0, 1]
  double x1 = 0;
  std::int64_t value = 0;  // the frame's weight
};

struct FlameOptions {
  calltree::Metric metric = calltree::Metric::Cpu;
  // Widths from the self figures: the bottom-up tree, where a frame's
  // callers split its self value. Top-down trees use the totals.
  bool selfWeights = false;
  std::uint32_t thread = kNoIndex;    // kNoIndex: every thread side by side
  std::uint32_t zoomNode = kNoIndex;  // shown full width, its callers above as a path
  double minFraction = 0;             // narrower frames (and what they hold) are left out
};

struct FlameLayout {
  std::vector<FlameFrame> frames;  // parents before their children
  int depths = 0;
  std::int64_t total = 0;  // the weight of the full width
};

// A node's weight: its figure, or what its children weigh together when
// that is more (a tree built for a range keeps path nodes with no calls of
// their own, and spilled slices may exceed their parent).
std::vector<std::int64_t> flameWeights(const calltree::CallTree& tree, const FlameOptions& options);

FlameLayout layoutFlame(const calltree::CallTree& tree, const FlameOptions& options);

}  // namespace gapscope::app
