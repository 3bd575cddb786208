// launch-overhead-bound and launch-dominated-kernels: the GPU waited for the
// CPU, and kernels that take less time than launching them.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "gapscope/model/time_limits.h"
#include "report/rules/rules.h"

namespace gapscope::report::rules {
namespace {

using analysis::GapCause;

// Each device's step windows (they do not overlap), sorted by start.
class StepWindows {
 public:
  explicit StepWindows(const analysis::GapAnalysis& gaps) {
    for (const auto& step : gaps.steps) {
      if (step.warmUp) continue;  // as the verdict, which the rules explain
      for (const auto& d : step.devices) windows_.push_back({d.device, d.activeStart, d.activeEnd});
    }
    std::sort(windows_.begin(), windows_.end());
  }
  // Calls fn(start, end) for each part of [start, end) on `device` inside a window.
  template <typename Fn>
  void forEachPartInside(std::int32_t device, TimeNs start, TimeNs end, Fn fn) const {
    auto w = std::upper_bound(windows_.begin(), windows_.end(), Window{device, start, start});
    if (w != windows_.begin() && (w - 1)->device == device && (w - 1)->end > start) --w;
    for (; w != windows_.end() && w->device == device && w->start < end; ++w) {
      const TimeNs from = std::max(start, w->start);
      const TimeNs to = std::min(end, w->end);
      if (from < to) fn(from, to);
    }
  }

 private:
  struct Window {
    std::int32_t device;
    TimeNs start;
    TimeNs end;
    friend bool operator<(const Window& a, const Window& b) {
      return std::tie(a.device, a.start, a.end) < std::tie(b.device, b.start, b.end);
    }
  };
  std::vector<Window> windows_;
};

// The CPU ops blamed for the launch-overhead idle the rule measures, by
// self time, largest first: the analysis' own sum over the whole trace, or,
// when the verdict is over the steps' GPU windows, the launching threads'
// self time in the parts of those gaps inside the windows (cpuSelfTimeIn,
// the analysis' own blame over an interval): what is named then never
// exceeds the idle it explains.
std::vector<analysis::CpuOpBlame> blamedInScope(const ReportInputs& in, const VerdictScope& scope) {
  if (!scope.overSteps) return in.gaps.overheadCpuOps;
  const StepWindows windows(in.gaps);
  std::unordered_map<std::uint64_t, analysis::CpuOpBlame> byName;  // name id; the untraced apart
  for (const analysis::Gap& g : in.gaps.gaps) {
    if (g.stream >= 0 || g.cause != GapCause::LaunchOverhead || g.launchTrack == kNoIndex) continue;
    windows.forEachPartInside(g.device, g.start, g.end(), [&](TimeNs from, TimeNs to) {
      for (const analysis::CpuOpBlame& op : analysis::cpuSelfTimeIn(in.trace, g.launchTrack, from, to)) {
        analysis::CpuOpBlame& sum = byName[op.isUntraced ? ~std::uint64_t{0} : op.name];
        sum.name = op.name;
        sum.isUntraced = op.isUntraced;
        sum.selfNs += op.selfNs;
      }
    });
  }
  std::vector<analysis::CpuOpBlame> out;
  out.reserve(byName.size());
  for (const auto& [key, op] : byName) out.push_back(op);
  std::sort(out.begin(), out.end(), [&](const analysis::CpuOpBlame& a, const analysis::CpuOpBlame& b) {
    if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
    return a.isUntraced != b.isUntraced ? b.isUntraced : in.trace.str(a.name) < in.trace.str(b.name);
  });
  return out;
}

std::string topBlamedOps(const ReportInputs& in, const std::vector<analysis::CpuOpBlame>& blamed, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < blamed.size() && i < count; ++i) {
    const auto& op = blamed[i];
    if (!text.empty()) text += ", ";
    text += op.isUntraced ? std::string("code outside any traced op") : std::string(in.trace.str(op.name));
    text += " (" + format::formatDuration(op.selfNs) + ")";
  }
  return text;
}

// The blamed self time spent in CUDA memory management (cudaFree,
// cudaMalloc, cudaHostAlloc, ...), and those calls named with their times.
struct AllocatorTime {
  TimeNs ns = 0;
  std::string calls;
};

AllocatorTime allocatorTime(const ReportInputs& in, const std::vector<analysis::CpuOpBlame>& blamed) {
  AllocatorTime a;
  for (const auto& op : blamed) {  // largest self time first
    if (op.isUntraced || !analysis::isMemoryManagementCall(in.trace.str(op.name))) continue;
    a.ns += op.selfNs;
    if (!a.calls.empty()) a.calls += ", ";
    a.calls += std::string(in.trace.str(op.name)) + " " + format::formatDuration(op.selfNs);
  }
  return a;
}

// One launch, one kernel: graph launches run many and are left out.
bool isSingleKernelLaunch(analysis::LaunchKind k) {
  return k == analysis::LaunchKind::Kernel || k == analysis::LaunchKind::DriverKernel;
}

}  // namespace

Finding launchOverheadBound(const ReportInputs& in) {
  const double threshold = in.options.thresholds.launchOverheadIdlePct;
  Finding f = newFinding("launch-overhead-bound",
                         "device idle time caused by launch overhead >= " + format::formatNumber(threshold, 1) +
                             "% of the GPU's window (its steps' GPU windows when the trace has steps)");
  if (!in.gaps.hasGpuActivity) {
    f.summary = "No GPU activity in the trace.";
    return f;
  }
  const VerdictScope scope = verdictScope(in.gaps);
  const TimeNs active = scope.total.active;
  const TimeNs overhead = scope.total.idle[GapCause::LaunchOverhead];
  double pct = percentOf(static_cast<double>(overhead), static_cast<double>(active));
  f.summary = "The GPU waited for the CPU to launch work " + format::formatDuration(overhead) + " of " +
              scope.windowText() + " (" + format::formatPercent(pct) + "; threshold " +
              format::formatNumber(threshold, 1) + "%).";
  if (pct < threshold) return f;

  Table t = makeTable("", scope.overSteps ? "Launch-overhead idle per device, in the steps" : "Launch-overhead idle per device",
                      {{"device", "Device", ColumnKind::Integer},
                       {"active_us", scope.overSteps ? "Steps' GPU windows" : "Active window", ColumnKind::Duration},
                       {"busy_us", "Busy", ColumnKind::Duration},
                       {"utilization_pct", "Utilisation", ColumnKind::Percent},
                       {"idle_launch_overhead_us", "Idle: launch overhead", ColumnKind::Duration},
                       {"launch_overhead_pct", "Share of window", ColumnKind::Percent}});
  for (const auto& [device, d] : scope.devices) {
    TimeNs lo = d.idle[GapCause::LaunchOverhead];
    t.rows.push_back({intCell(device), durationCell(d.active), durationCell(d.busy), realCell(d.busyShare() * 100.0),
                      durationCell(lo), realCell(percentOf(static_cast<double>(lo), static_cast<double>(d.active)))});
  }
  const std::vector<analysis::CpuOpBlame> blamedOps = blamedInScope(in, scope);
  const std::string blamed = topBlamedOps(in, blamedOps, 3);
  if (!blamed.empty()) f.summary += " Meanwhile the launching threads were busy in " + blamed + ".";
  f.estimatedSavingNs = overhead;
  std::vector<std::string> advice{
      "Capture the step in a CUDA graph (torch.cuda.graphs / torch.cuda.make_graphed_callables) "
      "so one launch replays all kernels.",
      "Use torch.compile (mode=\"reduce-overhead\" adds CUDA graphs): fewer, fused kernels and "
      "less Python per kernel.",
      "Give each kernel more work: larger batches or fewer, larger tensors.",
      "Cut CPU work between launches (Python overhead, allocations, host-side checks)."};
  // Where the launching threads mostly allocated or freed device memory, a
  // graph removes none of it: that advice comes first.
  const AllocatorTime allocator = allocatorTime(in, blamedOps);
  if (allocator.ns > 0 && allocator.ns * 4 >= overhead) {
    advice.insert(advice.begin(),
                  format::formatDuration(allocator.ns) + " of it the launching threads spent allocating or freeing "
                  "memory (" + allocator.calls + "), not launching: memory the caching allocator grows or "
                  "gives back (the first steps, torch.cuda.empty_cache, cuDNN benchmark workspaces). Profile after "
                  "a few warm-up steps, keep the memory cached, or allocate up front; a CUDA graph does not remove it.");
  }
  trigger(f, std::move(t), in.options.maxEvidenceRows, std::move(advice));
  return f;
}

Finding launchDominatedKernels(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding("launch-dominated-kernels",
                         ">= " + std::to_string(th.shortKernelMinCount) +
                             " kernel launches whose GPU time is below the launch call's duration, and >= " +
                             format::formatNumber(th.shortKernelPct, 1) + "% of all kernel launches");
  struct PerKernel {
    std::int64_t launches = 0, shortLaunches = 0;
    std::vector<TimeNs> gpu, launch;
  };
  std::unordered_map<StringId, PerKernel> byName;
  std::int64_t total = 0, shortCount = 0;
  for (const auto& l : in.gaps.launches) {
    if (!isSingleKernelLaunch(l.kind) || l.firstOp == kNoIndex) continue;
    ++total;
    PerKernel& k = byName[in.trace.slices[l.firstOp].name];
    ++k.launches;
    if (!l.shortKernel) continue;
    ++shortCount;
    ++k.shortLaunches;
    k.gpu.push_back(l.gpuNs);
    k.launch.push_back(l.launchNs);
  }
  double pct = percentOf(static_cast<double>(shortCount), static_cast<double>(total));
  f.summary = std::to_string(shortCount) + " of " + std::to_string(total) +
              " kernel launches ran shorter on the GPU than their launch call took on the CPU (" +
              format::formatPercent(pct) + "; thresholds " + std::to_string(th.shortKernelMinCount) + " launches and " +
              format::formatNumber(th.shortKernelPct, 1) + "%).";
  if (shortCount < th.shortKernelMinCount || pct < th.shortKernelPct) return f;

  Table t = makeTable("", "Kernels shorter than their launch",
                      {{"kernel", "Kernel", ColumnKind::Text, true},
                       {"launches", "Launches", ColumnKind::Integer},
                       {"short_launches", "Shorter than launch", ColumnKind::Integer},
                       {"median_gpu_us", "Median GPU time", ColumnKind::Duration},
                       {"median_launch_us", "Median launch call", ColumnKind::Duration}});
  std::vector<std::pair<std::string_view, PerKernel*>> rows;
  for (auto& [name, k] : byName)
    if (k.shortLaunches > 0) rows.emplace_back(in.trace.str(name), &k);
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second->shortLaunches != b.second->shortLaunches ? a.second->shortLaunches > b.second->shortLaunches
                                                              : a.first < b.first;
  });
  for (auto& [name, k] : rows) {
    t.rows.push_back({textCell(name), intCell(k->launches), intCell(k->shortLaunches),
                      durationCell(medianOf(k->gpu)), durationCell(medianOf(k->launch))});
  }
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Fuse these kernels with their neighbours (torch.compile, or fused ops such as "
           "torch._foreach_* and fused optimizers) so each launch carries more work.",
           "Replay them from a CUDA graph: a graph launch costs one call for all its kernels.",
           "Process more data per call (larger batches, concatenated inputs)."});
  return f;
}

}  // namespace gapscope::report::rules
