// The call tree of each CPU thread: the model's CPU nesting (Slice::parent)
// with slices merged by their path of names from the root, as a flame graph
// merges identical stacks. Each node carries the CPU time of its calls, the
// device time of the GPU work launched inside it, its kernel launch calls and
// the launch-overhead idle time charged to it. docs/calltree.md holds every
// definition and the output formats of `gapscope-cli tree`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::calltree {

// One figure of a node, counted over the node alone (self) and over the
// node and everything below it (total).
struct Figure {
  std::int64_t self = 0;
  std::int64_t total = 0;
};

enum class Metric : std::uint8_t {
  Cpu,       // ns of the node's slices (self: not inside a child slice)
  Device,    // ns of kernels, memcpys and memsets launched by its calls
  Launches,  // kernel launch calls (runtime, driver and graph launches)
  Idle,      // ns of device launch-overhead gaps ended by its launches
};
// "cpu", "device", "launches", "idle" (the CLI's --metric values).
const char* metricName(Metric metric);
// True and sets `metric` for one of the names above.
bool metricForName(std::string_view name, Metric* metric);

struct CallNode {
  StringId name = kEmptyString;
  std::uint32_t parent = kNoIndex;  // index into CallTree::nodes; kNoIndex for a root
  std::uint32_t thread = 0;         // index into CallTree::threads
  std::uint16_t depth = 0;          // 0 for roots
  // ProfilerStep#N frames merged into one node (CallTreeOptions::mergeSteps):
  // `name` is the first step's, the node reads "ProfilerStep*" (nodeName).
  bool mergedSteps = false;
  std::uint64_t calls = 0;          // slices merged into this node
  Figure cpuNs;
  Figure deviceNs;
  Figure launches;
  Figure idleNs;
  std::vector<std::uint32_t> children;  // in order of their first call

  const Figure& figure(Metric metric) const;
};

// One CPU thread track that holds CPU work (a cpu_op, user_annotation,
// python_function, cuda_runtime or cuda_driver slice).
struct ThreadCalls {
  std::uint32_t track = kNoIndex;
  std::vector<std::uint32_t> roots;  // in order of their first call
  Figure totals(const std::vector<CallNode>& nodes, Metric metric) const;
};

struct CallTree {
  std::vector<CallNode> nodes;  // parents before their children
  std::vector<ThreadCalls> threads;  // in track order
  // Per slice of the trace, the node it was merged into; kNoIndex for
  // slices outside every thread's tree (and, with a range, outside it).
  std::vector<std::uint32_t> nodeOfSlice;

  // The slices merged into `node`, by index (start order within a thread).
  std::vector<std::uint32_t> slicesOf(std::uint32_t node) const;
};

struct CallTreeOptions {
  // When set, only slices that start inside the range are calls (the rule
  // of the operator and kernel tables): their CPU time, and the device
  // time, launches and idle of the launch calls among them. Nesting still
  // comes from the whole trace, so a call inside keeps the path of the
  // calls around it that started before; nodes without a call inside the
  // range, themselves or below, are left out.
  std::optional<TimeRange> range;
  // Merge the ProfilerStep#N frames of a parent into one "ProfilerStep*"
  // node, as PyTorch's key_averages() does: a trace of thousands of steps
  // otherwise gives thousands of roots, each too narrow to draw.
  bool mergeSteps = false;
};

// Builds every thread's tree. `gaps` is the trace's gap analysis (its listed
// device gaps of cause launch_overhead are charged to the node of the launch
// call that ended them). O(n log n) in the slices and gaps.
CallTree buildCallTree(const Trace& trace, const analysis::GapAnalysis& gaps, const CallTreeOptions& options = {});

// The bottom-up (inverted) tree: its roots are the frames by name, each
// root's children the frames that called it, and so on up to the top of
// the stacks. A node stands for the top-down nodes whose path up from them
// reads its path down from the root (`origins`). Its self figures are their
// self figures summed; its totals the totals of those among them that no
// frame of the same name encloses (recursion counted once); its calls
// their calls. docs/calltree.md has an example.
struct BottomUpTree {
  CallTree tree;  // nodeOfSlice is empty: use origins and the top-down tree
  // origins of node i: originList[originBegin[i] .. originBegin[i + 1])
  std::vector<std::uint32_t> originBegin;
  std::vector<std::uint32_t> originList;
  std::vector<std::uint32_t> origins(std::uint32_t node) const {
    return {originList.begin() + originBegin[node], originList.begin() + originBegin[node + 1]};
  }
};

BottomUpTree buildBottomUp(const CallTree& topDown);

// A node's name: "ProfilerStep*" for merged steps, else its slices' name.
std::string_view nodeName(const Trace& trace, const CallNode& node);

// The first frame of a thread's stacks: its name ("NAME (TID)" when the
// name lacks the tid), or "thread TID" when the trace names no thread.
std::string threadLabel(const Trace& trace, const Track& track);

}  // namespace gapscope::calltree
