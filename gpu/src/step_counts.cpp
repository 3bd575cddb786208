#include "gapscope/gpu/step_counts.h"

#include <algorithm>
#include <limits>
#include <map>

namespace gapscope::gpu {

namespace {

bool isStepName(std::string_view name) { return name.rfind("ProfilerStep#", 0) == 0; }

// The window of one step's GPU work on one device.
struct Window {
  TimeNs lo = std::numeric_limits<TimeNs>::max();
  TimeNs hi = std::numeric_limits<TimeNs>::min();
};

std::vector<StepCounts> stepAnnotations(const Trace& t) {
  std::vector<StepCounts> steps;
  for (const Slice& s : t.slices) {
    if (s.kind == SliceKind::UserAnnotation && isStepName(t.str(s.name)))
      steps.push_back(StepCounts{std::string(t.str(s.name)), s.start, s.dur});
  }
  std::sort(steps.begin(), steps.end(), [](const StepCounts& a, const StepCounts& b) { return a.cpuStart < b.cpuStart; });
  return steps;
}

// The step whose CPU range holds `at`, or nullptr.
StepCounts* stepAt(std::vector<StepCounts>& steps, TimeNs at) {
  auto it = std::upper_bound(steps.begin(), steps.end(), at,
                             [](TimeNs v, const StepCounts& s) { return v < s.cpuStart; });
  if (it == steps.begin()) return nullptr;
  StepCounts& step = *(it - 1);
  return at < step.cpuStart + step.cpuDur ? &step : nullptr;
}

}  // namespace

std::vector<StepCounts> countPerStep(const Trace& t, const analysis::GpuBusy& busy) {
  std::vector<StepCounts> steps = stepAnnotations(t);
  std::vector<std::map<std::int32_t, Window>> windows(steps.size());
  for (const Slice& op : t.slices) {
    if (!isGpuActivity(op.kind)) continue;
    std::uint32_t launch = t.launchForCorrelation(op.correlation);
    if (launch == kNoIndex) continue;
    StepCounts* step = stepAt(steps, t.slices[launch].start);
    if (!step) continue;
    if (op.kind == SliceKind::Kernel) ++step->kernels;
    if (op.kind == SliceKind::Memcpy) ++step->memcpys;
    if (op.kind == SliceKind::Memset) ++step->memsets;
    Window& w = windows[static_cast<std::size_t>(step - steps.data())][t.tracks[op.track].device];
    w.lo = std::min(w.lo, op.start);
    w.hi = std::max(w.hi, op.end());
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    for (const auto& [device, w] : windows[i]) {
      if (const analysis::DeviceBusy* d = busy.device(device)) steps[i].gpuBusy += d->intervals.busyIn(w.lo, w.hi);
    }
  }
  return steps;
}

}  // namespace gapscope::gpu
