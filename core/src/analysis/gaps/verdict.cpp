// The verdict line, the summary hook and gap explanations.
#include <algorithm>
#include <limits>
#include <string>

#include "gap_pipeline.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace gaps_detail {
namespace {

// The verdict writes fractions; the format takes percent.
std::string percent(double fraction) {
  return format::formatPercent(fraction * 100.0, format::PercentStyle::Verdict);
}

// The active window under a tenth of the trace is worth a word.
constexpr TimeNs kLittleGpuWorkRatio = 10;

GapCause dominantCause(const IdleByCause& idle) {
  std::size_t best = 0;
  for (std::size_t c = 1; c < kGapCauseCount; ++c)
    if (idle.ns[c] > idle.ns[best]) best = c;
  return static_cast<GapCause>(best);
}

TimeNs widestWindow(const std::vector<UtilizationStats>& devices) {
  TimeNs widest = 0;
  for (const UtilizationStats& d : devices) widest = std::max(widest, d.activeNs());
  return widest;
}

// The verdict speaks of the active window; where that is a sliver of what
// it is about, the trace or its steps' CPU time (one short kernel in a
// 13 s trace was "GPU-bound: busy 100 %"), it says so.
void addLittleGpuWork(const GapAnalysis& a, Verdict& v) {
  TimeNs windows = 0;
  TimeNs span = 0;
  if (v.overSteps) {
    for (const StepStats& s : a.steps) {
      if (s.warmUp) continue;
      windows = addSaturating(windows, widestWindow(s.devices));
      span = addSaturating(span, s.cpuNs());
    }
  } else {
    windows = widestWindow(a.devices);
    span = a.traceSpanNs;
  }
  if (span <= 0 || windows >= span / kLittleGpuWorkRatio) return;  // (a product could overflow)
  v.line += "; but the GPU had work only within " + format::formatDuration(windows, format::DurationStyle::Verdict) +
            " of the " + format::formatDuration(span, format::DurationStyle::Verdict) +
            (v.overSteps ? " of its steps" : " trace");
}

}  // namespace

Verdict makeVerdict(const GapAnalysis& a, const GapOptions& options) {
  Verdict v;
  if (!a.hasGpuActivity) {
    v.kind = VerdictKind::NoGpuActivity;
    v.line = a.noGpuReason.empty() ? "no GPU activity" : a.noGpuReason;
    return v;
  }
  GpuTotals t = totalsOverSteps(a.steps);
  v.overSteps = t.active > 0;  // steps that hold GPU work
  if (!v.overSteps) t = totalsOf(a.devices);
  const std::string window = verdictWindowText(v.overSteps);
  v.estimatedSavingNs = t.idle[GapCause::LaunchOverhead];
  if (t.active <= 0) {
    v.kind = VerdictKind::GpuBound;
    v.utilization = 1.0;
    v.line = "GPU-bound: all GPU work ran back to back with no measurable idle time";
    return v;
  }
  auto share = [&](TimeNs ns) { return static_cast<double>(ns) / static_cast<double>(t.active); };
  v.utilization = t.busyShare();
  std::string busy = "busy " + percent(v.utilization);
  if (v.utilization >= options.busyVerdictThreshold) {
    v.kind = VerdictKind::GpuBound;
    v.line = "GPU-bound: the GPU was busy " + percent(v.utilization) + window;
  } else {
    GapCause c = dominantCause(t.idle);
    std::string p = percent(share(t.idle[c]));
    switch (c) {
      case GapCause::LaunchOverhead:
        v.kind = VerdictKind::LaunchOverheadBound;
        v.line = "launch-overhead bound: " + p + window + " the GPU waited for the CPU to launch work (" + busy + ")";
        break;
      case GapCause::Synchronization:
        v.kind = VerdictKind::SynchronizationBound;
        v.line = "synchronisation bound: " + p + window +
                 " the GPU idled while the CPU was blocked in a synchronising call (" + busy + ")";
        break;
      case GapCause::Queued:
        v.kind = VerdictKind::QueueBound;
        v.line = "queue bound: " + p + window + " the GPU waited although work was queued (" + busy + ")";
        break;
      case GapCause::Other:
        v.kind = VerdictKind::UnexplainedIdle;
        v.line = "mostly unexplained idle time: " + p + window + " no launch call explains the wait (" + busy + ")";
        break;
    }
  }
  if (v.estimatedSavingNs > 0)
    v.line += "; removing launch overhead would save at most " +
              format::formatDuration(v.estimatedSavingNs, format::DurationStyle::Verdict) + " (" +
              percent(share(v.estimatedSavingNs)) + ")";
  addLittleGpuWork(a, v);
  return v;
}

}  // namespace gaps_detail

void GpuTotals::add(const UtilizationStats& d) { add(GpuTotals{d.activeNs(), d.busyNs, d.idle}); }

GpuTotals totalsOf(const std::vector<UtilizationStats>& devices) {
  GpuTotals t;
  for (const UtilizationStats& d : devices) t.add(d);
  return t;
}

void GpuTotals::add(const GpuTotals& o) {
  active = addSaturating(active, o.active);
  busy = addSaturating(busy, o.busy);
  for (std::size_t c = 0; c < kGapCauseCount; ++c) idle.ns[c] = addSaturating(idle.ns[c], o.idle.ns[c]);
}

GpuTotals totalsOverSteps(const std::vector<StepStats>& steps) {
  GpuTotals t;
  for (const StepStats& s : steps) {
    if (s.warmUp) continue;
    for (const UtilizationStats& d : s.devices) t.add(d);
  }
  return t;
}

std::vector<DeviceTotals> deviceTotals(const std::vector<UtilizationStats>& devices,
                                       const std::vector<StepStats>* steps) {
  std::vector<DeviceTotals> out;
  auto at = [&](std::int32_t device) -> GpuTotals& {
    auto it = std::lower_bound(out.begin(), out.end(), device,
                               [](const DeviceTotals& d, std::int32_t n) { return d.device < n; });
    if (it == out.end() || it->device != device) it = out.insert(it, DeviceTotals{device, {}});
    return it->totals;
  };
  if (steps) {
    for (const StepStats& s : *steps) {
      if (s.warmUp) continue;
      for (const UtilizationStats& d : s.devices) at(d.device).add(d);
    }
  } else {
    for (const UtilizationStats& d : devices) at(d.device).add(d);
  }
  return out;
}

std::vector<DeviceTotals> verdictDeviceTotals(const GapAnalysis& analysis) {
  return deviceTotals(analysis.devices, analysis.verdict.overSteps ? &analysis.steps : nullptr);
}

const char* verdictWindowText(bool overSteps) {
  return overSteps ? " of the steps' GPU windows" : " of the active window";
}

GapSummary summarizeGaps(const GapAnalysis& analysis) {
  GapSummary s;
  s.hasGpuActivity = analysis.hasGpuActivity;
  s.overSteps = analysis.verdict.overSteps;
  s.utilization = analysis.verdict.utilization;
  s.estimatedSavingNs = analysis.verdict.estimatedSavingNs;
  s.verdict = analysis.verdict.line;
  for (const UtilizationStats& d : analysis.devices)
    s.deviceUtilization.emplace_back(d.device, d.utilization());
  s.steps = analysis.steps.size();
  s.stepSource = analysis.stepSource;
  s.stepName = analysis.stepName;
  std::vector<TimeNs> lengths;
  for (const StepStats& step : analysis.steps) {
    if (step.warmUp) s.warmUpStepNs = step.cpuNs();
    else lengths.push_back(step.cpuNs());
  }
  s.medianStepNs = distributionOf(lengths).median;
  return s;
}

GapSummary summarizeGaps(const Trace& trace, const GpuBusy& busy, const GapOptions& options) {
  GapOptions quick = options;
  quick.keepLaunches = false;  // the steps stay: the verdict is theirs when there are any
  quick.blameCpuOps = false;
  quick.minGapNs = std::numeric_limits<TimeNs>::max();  // totals only, no gap list
  return summarizeGaps(gaps_detail::analyze(trace, busy, quick, false));
}

std::string explainGap(const Trace& trace, const Gap& gap) {
  if (gap.after >= trace.slices.size()) return "no GPU op ends this gap";
  const Slice& op = trace.slices[gap.after];
  if (gap.launch == kNoIndex) {
    if (op.correlation == kNoCorrelation) return "the GPU op that ends the gap has no correlation id";
    return "no launch call with correlation id " + std::to_string(op.correlation) +
           " is in the trace";
  }
  const Slice& launch = trace.slices[gap.launch];
  std::string call(trace.str(launch.name));
  switch (gap.cause) {
    case GapCause::Synchronization: {
      std::string sync = gap.syncCall < trace.slices.size()
                             ? std::string(trace.str(trace.slices[gap.syncCall].name))
                             : std::string("a synchronising call");
      if (syncKindForName(sync) == SyncKind::StreamWaitEvent)
        return "the op waited on another stream through " + sync + " issued before " + call;
      return "the launching thread was blocked in " + sync + " when the GPU went idle; " + call +
             " followed " + format::formatDuration(launch.start - gap.start, format::DurationStyle::Verdict) +
             " after the gap began";
    }
    case GapCause::LaunchOverhead:
      if (launch.start >= gap.start)
        return call + " began " + format::formatDuration(launch.start - gap.start, format::DurationStyle::Verdict) +
               " after the GPU went idle";
      return call + " was still running when the GPU went idle (it ended " +
             format::formatDuration(launch.end() - gap.start, format::DurationStyle::Verdict) + " into the gap)";
    case GapCause::Queued:
      if (gap.before < trace.slices.size() && trace.slices[gap.before].correlation == op.correlation)
        return "both ops come from one " + call + ": a gap inside the launched graph";
      return call + " ended " + format::formatDuration(gap.start - launch.end(), format::DurationStyle::Verdict) +
             " before the GPU went idle; the op waited in the queue";
    case GapCause::Other:
      break;
  }
  return "no launch call explains the gap";
}

}  // namespace gapscope::analysis
