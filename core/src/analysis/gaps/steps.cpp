// Per-step figures: for each ProfilerStep#N and device, busy and idle time
// in the window from the first start to the last end of the GPU ops whose
// launch call began inside the step's annotation. (The GPU runs behind the
// CPU, so clipping to the annotation itself would cut a step's work in two.)
#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>

#include "gap_context.h"

namespace gapscope::analysis::gaps_detail {
namespace {

std::int64_t stepNumber(std::string_view name) {
  auto hash = name.find('#');
  std::int64_t n = -1;
  if (hash == std::string_view::npos) return n;
  std::from_chars(name.data() + hash + 1, name.data() + name.size(), n);
  return n;
}

// The step whose annotation holds time t, or kNoIndex.
std::uint32_t stepAt(const Trace& trace, const std::vector<std::uint32_t>& steps, TimeNs t) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t, [&](TimeNs v, std::uint32_t s) {
    return v < trace.slices[s].start;
  });
  if (it == steps.begin()) return kNoIndex;
  --it;
  return t < trace.slices[*it].end() ? static_cast<std::uint32_t>(it - steps.begin()) : kNoIndex;
}

template <typename Span>
auto firstEndingAfter(const std::vector<Span>& spans, TimeNs t) {
  return std::upper_bound(spans.begin(), spans.end(), t,
                          [](TimeNs v, const Span& s) { return v < s.end; });
}

// Busy and idle of one device inside [lo, hi).
void clipToWindow(const DeviceTimeline& d, TimeNs lo, TimeNs hi, UtilizationStats& stats) {
  for (auto b = firstEndingAfter(d.blocks, lo); b != d.blocks.end() && b->start < hi; ++b)
    stats.busyNs += std::min(b->end, hi) - std::max(b->start, lo);
  for (auto g = firstEndingAfter(d.gaps, lo); g != d.gaps.end() && g->start < hi; ++g) {
    TimeNs clip = std::min(g->end, hi) - std::max(g->start, lo);
    stats.idle[g->cause] += clip;
    stats.hta[g->hta] += clip;
    ++stats.gapCount;
  }
}

}  // namespace

std::vector<StepWindow> stepWindows(const Trace& trace, const CallTable& calls,
                                    const GpuTimelines& gpu) {
  const auto& steps = calls.steps;
  std::size_t deviceCount = gpu.devices.size();
  std::vector<StepWindow> windows(steps.size() * deviceCount);
  if (steps.empty()) return windows;
  std::uint32_t step = kNoIndex;  // ops come roughly in launch order: try the last step first
  for (std::size_t di = 0; di < deviceCount; ++di) {
    for (std::uint32_t si : gpu.devices[di].streams) {
      for (const GpuOp& op : gpu.streams[si].ops) {
        if (op.call == kNoIndex) continue;
        TimeNs launched = calls.calls[op.call].start;
        if (step == kNoIndex || launched < trace.slices[steps[step]].start ||
            launched >= trace.slices[steps[step]].end())
          step = stepAt(trace, steps, launched);
        if (step == kNoIndex) continue;
        StepWindow& w = windows[step * deviceCount + di];
        w.lo = std::min(w.lo, op.start);
        w.hi = std::max(w.hi, op.end);
        ++w.ops;
      }
    }
  }
  return windows;
}

void fillSteps(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
               const std::vector<StepWindow>& windows, GapAnalysis& out) {
  const auto& steps = calls.steps;
  std::size_t deviceCount = gpu.devices.size();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Slice& a = trace.slices[steps[i]];
    StepStats step;
    step.name = a.name;
    step.number = stepNumber(trace.str(a.name));
    step.annotation = steps[i];
    step.cpuStart = a.start;
    step.cpuEnd = a.end();
    for (std::size_t di = 0; di < deviceCount; ++di) {
      const StepWindow& w = windows[i * deviceCount + di];
      if (w.ops == 0) continue;
      UtilizationStats stats;
      stats.device = gpu.devices[di].device;
      stats.activeStart = w.lo;
      stats.activeEnd = w.hi;
      stats.gpuOps = w.ops;
      clipToWindow(gpu.devices[di], w.lo, w.hi, stats);
      step.devices.push_back(stats);
    }
    out.steps.push_back(std::move(step));
  }
}

}  // namespace gapscope::analysis::gaps_detail
