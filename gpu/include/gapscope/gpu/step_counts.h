// GPU work per step of a recording (or of any trace with steps: see
// analysis/steps.h): the GPU ops launched from inside each step's CPU range,
// as the gap analysis' per-step figures count them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/model/trace.h"

namespace gapscope::gpu {

struct StepCounts {
  std::string name;  // "ProfilerStep#3" (or the step annotation's name)
  TimeNs cpuStart = 0;
  TimeNs cpuDur = 0;
  std::uint32_t kernels = 0;
  std::uint32_t memcpys = 0;
  std::uint32_t memsets = 0;
  // GPU busy time (gpu_busy.h) inside the step's GPU window
  // (analysis::kStepWindowText), summed over devices: the gap analysis'
  // per-step busy time.
  TimeNs gpuBusy = 0;
};

// Steps in time order. A GPU op counts for the step whose range holds the
// start of its launch call (found through the correlation id); ops whose
// launch lies outside every step are not counted.
std::vector<StepCounts> countPerStep(const Trace& trace, const analysis::GpuBusy& busy);

}  // namespace gapscope::gpu
