// Per-step figures: for each step (steps.h) and device, busy and idle time
// in the step's GPU window: to the last end of the GPU ops whose launch call
// began inside the step's CPU span (its annotation, or to the next
// occurrence of an iteration marker: steps.h; the GPU runs behind the CPU,
// so clipping to the span itself would cut a step's work in two), from
// the later of the span's start and the end of the previous step's
// window on the device, or from the step's first op where that began
// earlier (steps whose work overlaps). So the idle before a step's first
// kernel while its CPU prepares it (a data loader at the top of the loop)
// is the step's, and back-to-back steps' windows tile the time they span.
// A window never begins before its device's first op: there is no gap
// before it to clip, and what comes before a trace's first GPU work is
// start-up (the profiler's own buffers, a first launch loading modules:
// 3.3 ms in h200/square_three_ways), not a step's idle.
#include <algorithm>
#include <limits>
#include <string_view>

#include "steps.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// Finds the step whose CPU span holds a time; times come roughly in
// order, so the last step found is tried first.
class StepFinder {
 public:
  explicit StepFinder(const std::vector<TimeRange>& spans) : spans_(spans) {}
  // The step whose span holds time t, or kNoIndex.
  std::uint32_t at(TimeNs t) {
    if (last_ != kNoIndex && spans_[last_].contains(t)) return last_;
    auto it = std::upper_bound(spans_.begin(), spans_.end(), t, [](TimeNs v, const TimeRange& s) { return v < s.start; });
    if (it == spans_.begin()) return kNoIndex;
    auto step = static_cast<std::uint32_t>(it - spans_.begin() - 1);
    if (!spans_[step].contains(t)) return kNoIndex;
    last_ = step;
    return step;
  }

 private:
  const std::vector<TimeRange>& spans_;
  std::uint32_t last_ = kNoIndex;
};

void countOp(SliceKind kind, StepStats& counts) {
  if (kind == SliceKind::Kernel) ++counts.kernels;
  if (kind == SliceKind::Memcpy) ++counts.memcpys;
  if (kind == SliceKind::Memset) ++counts.memsets;
}

// Adds the part of each gap of `gaps` (sorted, disjoint) inside [lo, hi).
template <typename Span, typename Start, typename End>
void addClippedGaps(const Span* first, const Span* last, TimeNs lo, TimeNs hi, Start start,
                    End end, UtilizationStats& stats) {
  const Span* g = std::upper_bound(first, last, lo, [&](TimeNs v, const Span& s) { return v < end(s); });
  for (; g != last && start(*g) < hi; ++g) {
    TimeNs clip = std::min(end(*g), hi) - std::max(start(*g), lo);
    stats.idle[g->cause] = addSaturating(stats.idle[g->cause], clip);
    stats.hta[g->hta] = addSaturating(stats.hta[g->hta], clip);
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

// Sets StepStats::warmUp on the first of three or more steps where it
// lasts over kWarmUpStepFactor times the others' median.
void markWarmUpStep(std::vector<StepStats>& steps) {
  if (steps.size() < 3) return;
  std::vector<TimeNs> others;
  for (std::size_t i = 1; i < steps.size(); ++i) others.push_back(steps[i].cpuNs());
  const TimeNs median = distributionOf(others).median;
  steps.front().warmUp = median > 0 && steps.front().cpuNs() / kWarmUpStepFactor > median;
}

}  // namespace

StepWork stepWork(const Trace& trace, const StepAnnotations& steps, const CallTable& calls,
                  const GpuTimelines& gpu) {
  const std::size_t deviceCount = gpu.devices.size();
  StepWork work;
  work.windows.resize(steps.slices.size() * deviceCount);
  work.counts.resize(steps.slices.size());
  if (steps.slices.empty()) return work;
  StepFinder finder(steps.spans);
  for (std::size_t di = 0; di < deviceCount; ++di) {
    for (std::uint32_t si : gpu.devices[di].streams) {
      for (const GpuOp& op : gpu.streams[si].ops) {
        if (op.call == kNoIndex) continue;
        std::uint32_t step = finder.at(calls.calls[op.call].start);
        if (step == kNoIndex) continue;
        StepWindow& w = work.windows[step * deviceCount + di];
        w.lo = std::min(w.lo, op.start);
        w.hi = std::max(w.hi, op.end);
        ++w.ops;
        countOp(trace.slices[op.slice].kind, work.counts[step]);
      }
    }
  }
  for (const CallRec& call : calls.calls) {
    if (!isKernelLaunch(call.kind)) continue;
    std::uint32_t step = finder.at(call.start);
    if (step != kNoIndex) ++work.counts[step].launches;
  }
  return work;
}

void fillSteps(const Trace& trace, const StepAnnotations& steps, const GpuTimelines& gpu,
               StepWork work, const std::vector<std::vector<GapSpan>>& unlisted, GapAnalysis& out) {
  std::size_t deviceCount = gpu.devices.size();
  std::vector<std::size_t> firstListed(deviceCount, 0);  // each device's gaps in out.gaps
  for (std::size_t di = 1; di < deviceCount; ++di)
    firstListed[di] = firstListed[di - 1] + gpu.devices[di - 1].listedGaps;
  // A window starts no earlier than its device's first op: before it there are no gaps, only nothing.
  std::vector<TimeNs> firstStart(deviceCount, std::numeric_limits<TimeNs>::max());
  for (std::size_t di = 0; di < deviceCount; ++di) {
    for (std::uint32_t si : gpu.devices[di].streams) {
      if (!gpu.streams[si].ops.empty()) firstStart[di] = std::min(firstStart[di], gpu.streams[si].ops.front().start);
    }
  }
  std::vector<TimeNs> previousEnd(deviceCount, std::numeric_limits<TimeNs>::min());
  for (std::size_t i = 0; i < steps.slices.size(); ++i) {
    const Slice& a = trace.slices[steps.slices[i]];
    const TimeRange& span = steps.spans[i];
    StepStats step = std::move(work.counts[i]);
    step.name = a.name;
    step.number = steps.source == StepSource::ProfilerStep ? profilerStepNumber(trace.str(a.name))
                                                            : static_cast<std::int64_t>(i + 1);
    step.annotation = steps.slices[i];
    step.cpuStart = span.start;
    step.cpuEnd = span.end;
    for (std::size_t di = 0; di < deviceCount; ++di) {
      const StepWindow& w = work.windows[i * deviceCount + di];
      if (w.ops == 0) continue;
      UtilizationStats stats;
      stats.device = gpu.devices[di].device;
      stats.activeStart = std::max(firstStart[di], std::min(w.lo, std::max(span.start, previousEnd[di])));
      stats.activeEnd = w.hi;
      stats.gpuOps = w.ops;
      previousEnd[di] = std::max(previousEnd[di], w.hi);
      clipToWindow(out.gaps.data() + firstListed[di], gpu.devices[di].listedGaps, unlisted[di], stats.activeStart,
                   stats.activeEnd, stats);
      step.devices.push_back(stats);
    }
    out.steps.push_back(std::move(step));
  }
  markWarmUpStep(out.steps);
}

}  // namespace gapscope::analysis::gaps_detail
