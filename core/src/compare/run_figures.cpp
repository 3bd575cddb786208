// One run's figures for a comparison, read from its single-trace analyses:
// the gap analysis' per-step figures (or its whole-trace figures and its
// verdict's utilisation), the summary's span and kernel count.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "compare/compare_detail.h"
#include "gapscope/analysis/percent.h"
#include "gapscope/compare/compare.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::compare {
namespace {

using analysis::GapAnalysis;
using analysis::GapCause;
using analysis::kGapCauseCount;

TimeNs roundedDiv(TimeNs total, std::uint64_t n) {
  return n == 0 ? 0 : static_cast<TimeNs>(std::llround(static_cast<double>(total) / static_cast<double>(n)));
}

void setPerStep(RunFigures& f, const analysis::GpuTotals& totals, std::uint64_t kernels, std::uint64_t launches) {
  const double steps = static_cast<double>(f.steps);
  f.kernelsPerStep = static_cast<double>(kernels) / steps;
  f.launchesPerStep = static_cast<double>(launches) / steps;
  for (std::size_t c = 0; c < kGapCauseCount; ++c) f.idlePerStep.ns[c] = roundedDiv(totals.idle.ns[c], f.steps);
  f.activePerStep = roundedDiv(totals.active, f.steps);
  f.busyPerStep = roundedDiv(totals.busy, f.steps);
}

// The steps whose figures a comparison averages: all but a warm-up
// (StepStats::warmUp), whose length `f` keeps for the warning.
std::vector<analysis::StepStats> measuredSteps(const GapAnalysis& gaps, RunFigures& f) {
  std::vector<analysis::StepStats> steps;
  for (const analysis::StepStats& s : gaps.steps) {
    if (!s.warmUp) {
      steps.push_back(s);
      continue;
    }
    f.warmUpStepTime = s.cpuNs();
  }
  return steps;
}

void fromSteps(const std::vector<analysis::StepStats>& steps, RunFigures& f) {
  const analysis::GpuTotals totals = analysis::totalsOverSteps(steps);
  std::uint64_t kernels = 0;
  std::uint64_t launches = 0;
  std::vector<TimeNs> times;
  times.reserve(steps.size());
  for (const analysis::StepStats& s : steps) {
    kernels += s.kernels;
    launches += s.launches;
    times.push_back(s.cpuNs());
    f.stepNumbers.push_back(s.number);
    f.stepTimeTotal = addSaturating(f.stepTimeTotal, s.cpuNs());
  }
  f.steps = steps.size();
  f.stepTimes = times;
  const analysis::Distribution d = analysis::distributionOf(times);
  f.stepTimeMedian = d.median;
  f.stepTimeP90 = d.p90;
  // Over the steps' GPU windows, as the per-step columns beside it and the
  // ranks table count it: a trace's start-up (NCCL set-up, the first
  // copies) lies outside every step.
  f.gpuBusyPct = 100.0 * totals.busyShare();
  setPerStep(f, totals, kernels, launches);
}

void fromWholeTrace(const analysis::TraceAnalysis& run, RunFigures& f) {
  const GapAnalysis& gaps = run.gaps();
  const analysis::GpuTotals totals = analysis::totalsOf(gaps.devices);
  f.steps = 1;
  f.stepTimeMedian = f.stepTimeP90 = f.stepTimeTotal = run.summary().span();
  f.stepTimes = {f.stepTimeMedian};
  f.stepNumbers = {1};
  f.gpuBusyPct = 100.0 * totals.busyShare();  // the verdict's, as the trace has no steps
  setPerStep(f, totals, run.summary().kernels, gaps.launchStats.kernelLaunchCalls);
}

// Per device, the union of its steps' GPU windows (a step's window may
// overlap the next one's).
std::map<std::int32_t, analysis::BusyIntervals> stepWindows(const std::vector<analysis::StepStats>& steps) {
  std::map<std::int32_t, std::vector<std::pair<TimeNs, TimeNs>>> windows;
  for (const analysis::StepStats& s : steps)
    for (const analysis::UtilizationStats& d : s.devices) windows[d.device].emplace_back(d.activeStart, d.activeEnd);
  std::map<std::int32_t, analysis::BusyIntervals> unions;
  for (auto& [device, spans] : windows) {
    std::sort(spans.begin(), spans.end());
    for (const auto& [start, end] : spans) unions[device].add(start, end);
  }
  return unions;
}

// The longest listed device gap; of a run with steps, the longest inside
// the GPU windows of the steps it measures, where the per-step idle beside
// it is counted: a trace's start-up (NCCL set-up, loading), a warm-up step
// and the time between steps are in no measured step's figures.
LargestGap largestDeviceGap(const Trace& trace, const GapAnalysis& gaps, const std::vector<analysis::StepStats>& steps) {
  const std::map<std::int32_t, analysis::BusyIntervals> windows = stepWindows(steps);
  auto counts = [&](const analysis::Gap& g) {
    if (steps.empty()) return true;
    auto it = windows.find(g.device);
    return it != windows.end() && it->second.busyIn(g.start, g.end()) == g.dur;  // wholly inside
  };
  LargestGap largest;
  for (const analysis::Gap& g : gaps.gaps) {
    if (g.stream >= 0 || g.dur <= largest.dur || !counts(g)) continue;  // device gaps only
    largest.dur = g.dur;
    largest.cause = g.cause;
    largest.after = g.after == kNoIndex ? std::string() : std::string(trace.str(trace.slices[g.after].name));
  }
  return largest;
}

std::string stepNameOf(const Trace& trace, const GapAnalysis& gaps) {
  switch (gaps.stepSource) {
    case analysis::StepSource::ProfilerStep: return "ProfilerStep#N";
    case analysis::StepSource::RepeatedAnnotation: return std::string(trace.str(gaps.stepName));
    case analysis::StepSource::WholeTrace: break;
  }
  return "whole trace";
}

}  // namespace

double RunFigures::idleSharePct(GapCause cause) const {
  return activePerStep > 0 ? analysis::percentOf(idlePerStep[cause], activePerStep) : 0.0;
}

RunFigures runFigures(const analysis::TraceAnalysis& run) {
  const Trace& trace = run.trace();
  const GapAnalysis& gaps = run.gaps();
  RunFigures f;
  f.file = trace.metadata.sourcePath;
  f.producer = detail::producerOf(trace);
  for (const DeviceProperties& d : trace.metadata.devices) f.devices.push_back(d.name);
  f.hasGpuActivity = gaps.hasGpuActivity;
  f.stepSource = gaps.stepSource;
  f.stepName = stepNameOf(trace, gaps);
  const std::vector<analysis::StepStats> steps = measuredSteps(gaps, f);
  if (steps.empty()) {
    // Also a trace without GPU activity, for which the gap analysis lists
    // no steps: its whole trace is the one step.
    f.stepSource = analysis::StepSource::WholeTrace;
    f.stepName = "whole trace";
    fromWholeTrace(run, f);
  } else {
    fromSteps(steps, f);
  }
  f.largestGap = largestDeviceGap(trace, gaps, steps);
  return f;
}

}  // namespace gapscope::compare
