// Per-step counts of a recording: the gap analysis' own per-step figures
// (analysis/steps.h says what a step is), so `gapscope-cli record`, `gaps
// --per-step` and `diff` count the same ops for the same step.
#include "gapscope/gpu/step_counts.h"

#include "gapscope/analysis/gaps.h"

namespace gapscope::gpu {

std::vector<StepCounts> countPerStep(const Trace& t, const analysis::GpuBusy& busy) {
  analysis::GapOptions options;
  options.blameCpuOps = false;  // counts only: no blame, no launch list
  options.keepLaunches = false;
  const analysis::GapAnalysis gaps = analysis::analyzeGaps(t, busy, options);
  std::vector<StepCounts> steps;
  steps.reserve(gaps.steps.size());
  for (const analysis::StepStats& s : gaps.steps) {
    StepCounts c{std::string(t.str(s.name)), s.cpuStart, s.cpuNs()};
    c.kernels = static_cast<std::uint32_t>(s.kernels);
    c.memcpys = static_cast<std::uint32_t>(s.memcpys);
    c.memsets = static_cast<std::uint32_t>(s.memsets);
    for (const analysis::UtilizationStats& d : s.devices) c.gpuBusy += d.busyNs;
    steps.push_back(std::move(c));
  }
  return steps;
}

}  // namespace gapscope::gpu
