#include "gapscope/gpu/step_counts.h"

#include <algorithm>

namespace gapscope::gpu {

namespace {

bool isStepName(std::string_view name) { return name.rfind("ProfilerStep#", 0) == 0; }

}  // namespace

std::vector<StepCounts> countPerStep(const Trace& t) {
  std::vector<StepCounts> steps;
  for (const Slice& s : t.slices) {
    if (s.kind == SliceKind::UserAnnotation && isStepName(t.str(s.name)))
      steps.push_back(StepCounts{std::string(t.str(s.name)), s.start, s.dur});
  }
  std::sort(steps.begin(), steps.end(), [](const StepCounts& a, const StepCounts& b) { return a.cpuStart < b.cpuStart; });
  for (const Slice& op : t.slices) {
    if (!isGpuActivity(op.kind)) continue;
    std::uint32_t launch = t.launchForCorrelation(op.correlation);
    if (launch == kNoIndex) continue;
    TimeNs at = t.slices[launch].start;
    auto it = std::upper_bound(steps.begin(), steps.end(), at,
                               [](TimeNs v, const StepCounts& s) { return v < s.cpuStart; });
    if (it == steps.begin()) continue;
    StepCounts& step = *(it - 1);
    if (at >= step.cpuStart + step.cpuDur) continue;
    if (op.kind == SliceKind::Kernel) ++step.kernels;
    if (op.kind == SliceKind::Memcpy) ++step.memcpys;
    if (op.kind == SliceKind::Memset) ++step.memsets;
    step.gpuBusy += op.dur;
  }
  return steps;
}

}  // namespace gapscope::gpu
