// What a node's calls launched (device time, kernel launches) and the
// launch-overhead idle charged to them, summed up the tree.
#include <unordered_map>

#include "calltree/call_tree_detail.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::calltree::detail {
namespace {

// The tree being charged, and which launch calls count.
struct Charging {
  const Trace& trace;
  const CallTreeOptions& options;
  CallTree& tree;
  // The node a launch call's work is charged to; kNoIndex when not counted.
  std::uint32_t nodeOf(std::uint32_t slice) const {
    if (slice >= tree.nodeOfSlice.size() || !counted(trace.slices[slice], options)) return kNoIndex;
    return tree.nodeOfSlice[slice];
  }
};

// Each GPU op goes to the runtime/driver call with its correlation id, the
// same link the gap analysis and the operator table follow; a graph launch
// gets every op of its graph (they share the call's correlation id).
void chargeDeviceTime(const Trace& trace, Charging& out) {
  for (const Slice& op : trace.slices) {
    if (!isGpuActivity(op.kind) || op.correlation == kNoCorrelation) continue;
    const std::uint32_t launch = trace.launchForCorrelation(op.correlation);
    const std::uint32_t node = launch == kNoIndex ? kNoIndex : out.nodeOf(launch);
    if (node == kNoIndex) continue;
    Figure& device = out.tree.nodes[node].deviceNs;
    device.self = addSaturating(device.self, op.dur);
  }
}

void countKernelLaunches(const Trace& trace, Charging& out) {
  std::unordered_map<StringId, bool> isKernelLaunchName;  // launchKindForName once per name
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::CudaRuntime && s.kind != SliceKind::CudaDriver) continue;
    const std::uint32_t node = out.nodeOf(i);
    if (node == kNoIndex) continue;
    auto [it, added] = isKernelLaunchName.try_emplace(s.name, false);
    if (added) it->second = analysis::isKernelLaunch(analysis::launchKindForName(trace.str(s.name)));
    if (it->second) out.tree.nodes[node].launches.self += 1;
  }
}

// A listed device gap of cause launch_overhead waited for the launch call
// that ended it (Gap::launch): its node gets the gap's duration.
void chargeLaunchOverheadIdle(const analysis::GapAnalysis& gaps, Charging& out) {
  for (const analysis::Gap& gap : gaps.gaps) {
    if (gap.stream != -1 || gap.cause != analysis::GapCause::LaunchOverhead || gap.launch == kNoIndex) continue;
    const std::uint32_t node = out.nodeOf(gap.launch);
    if (node == kNoIndex) continue;
    Figure& idle = out.tree.nodes[node].idleNs;
    idle.self = addSaturating(idle.self, gap.dur);
  }
}

// Nodes come parents first, so one backward pass sums children into parents.
void sumTotals(std::vector<CallNode>& nodes) {
  for (CallNode& n : nodes) {
    n.deviceNs.total = n.deviceNs.self;
    n.launches.total = n.launches.self;
    n.idleNs.total = n.idleNs.self;
  }
  for (auto i = nodes.size(); i-- > 0;) {
    const CallNode& n = nodes[i];
    if (n.parent == kNoIndex) continue;
    CallNode& p = nodes[n.parent];
    p.deviceNs.total = addSaturating(p.deviceNs.total, n.deviceNs.total);
    p.launches.total += n.launches.total;
    p.idleNs.total = addSaturating(p.idleNs.total, n.idleNs.total);
  }
}

}  // namespace

void chargeLaunchedWork(const Trace& trace, const analysis::GapAnalysis& gaps, const CallTreeOptions& options,
                        CallTree& tree) {
  Charging out{trace, options, tree};
  chargeDeviceTime(trace, out);
  countKernelLaunches(trace, out);
  chargeLaunchOverheadIdle(gaps, out);
  sumTotals(tree.nodes);
}

}  // namespace gapscope::calltree::detail
