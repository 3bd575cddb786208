// Per-step figures (stages "step windows" and "steps").
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "call_table.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/steps.h"
#include "gpu_ops.h"

namespace gapscope::analysis::gaps_detail {

// A device gap shorter than minGapNs (not in the gap list), kept for the
// per-step figures.
struct GapSpan {
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::Other;
  HtaIdleKind hta = HtaIdleKind::Other;
};

// Per step and device: the window of the GPU work the step launched.
struct StepWindow {
  TimeNs lo = std::numeric_limits<TimeNs>::max();
  TimeNs hi = std::numeric_limits<TimeNs>::min();
  std::uint64_t ops = 0;
};

// What each step launched: its per-device windows (step-major: step i,
// device d at i * devices + d) and its counts over all devices.
struct StepWork {
  std::vector<StepWindow> windows;
  std::vector<StepStats> counts;  // only the count fields are set
};
StepWork stepWork(const Trace& trace, const StepAnnotations& steps, const CallTable& calls,
                  const GpuTimelines& gpu);
// Every device gap is either in out.gaps (listed: device gaps come first,
// device by device in time order) or in `unlisted` (per device, in time
// order).
void fillSteps(const Trace& trace, const StepAnnotations& steps, const GpuTimelines& gpu,
               StepWork work, const std::vector<std::vector<GapSpan>>& unlisted, GapAnalysis& out);

}  // namespace gapscope::analysis::gaps_detail
