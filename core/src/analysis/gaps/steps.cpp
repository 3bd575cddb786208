// Per-step figures: for each ProfilerStep#N and device, busy and idle time
// in the window from the first start to the last end of the GPU ops whose
// launch call began inside the step's annotation. (The GPU runs behind the
// CPU, so clipping to the annotation itself would cut a step's work in two.)
#include <algorithm>
#include <charconv>
#include <limits>
#include <string_view>

#include "steps.h"

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

// Adds the part of each gap of `gaps` (sorted, disjoint) inside [lo, hi).
template <typename Span, typename Start, typename End>
void addClippedGaps(const Span* first, const Span* last, TimeNs lo, TimeNs hi, Start start,
                    End end, UtilizationStats& stats) {
  const Span* g = std::upper_bound(first, last, lo, [&](TimeNs v, const Span& s) { return v < end(s); });
  for (; g != last && start(*g) < hi; ++g) {
    TimeNs clip = std::min(end(*g), hi) - std::max(start(*g), lo);
    stats.idle[g->cause] += clip;
    stats.hta[g->hta] += clip;
    ++stats.gapCount;
  }
}

// Idle time of one device inside [lo, hi), a window within its active
// window, from its listed and unlisted gaps; the rest of the window is busy
// (blocks and gaps tile the active window).
void clipToWindow(const Gap* listed, std::size_t listedCount, const std::vector<GapSpan>& unlisted,
                  TimeNs lo, TimeNs hi, UtilizationStats& stats) {
  addClippedGaps(
      listed, listed + listedCount, lo, hi, [](const Gap& g) { return g.start; },
      [](const Gap& g) { return g.end(); }, stats);
  addClippedGaps(
      unlisted.data(), unlisted.data() + unlisted.size(), lo, hi,
      [](const GapSpan& g) { return g.start; }, [](const GapSpan& g) { return g.end; }, stats);
  stats.busyNs = (hi - lo) - stats.idle.total();
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
               const std::vector<StepWindow>& windows,
               const std::vector<std::vector<GapSpan>>& unlisted, GapAnalysis& out) {
  const auto& steps = calls.steps;
  std::size_t deviceCount = gpu.devices.size();
  std::vector<std::size_t> firstListed(deviceCount, 0);  // each device's gaps in out.gaps
  for (std::size_t di = 1; di < deviceCount; ++di)
    firstListed[di] = firstListed[di - 1] + gpu.devices[di - 1].listedGaps;
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
      clipToWindow(out.gaps.data() + firstListed[di], gpu.devices[di].listedGaps, unlisted[di], w.lo,
                   w.hi, stats);
      step.devices.push_back(stats);
    }
    out.steps.push_back(std::move(step));
  }
}

}  // namespace gapscope::analysis::gaps_detail
