#include "gapscope/analysis/invariants.h"

#include <map>
#include <string_view>

#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {

namespace {

class Checker {
 public:
  explicit Checker(const AnalysisParts& a) : a_(a) {}

  std::vector<std::string> run() {
    summary();
    busy();
    gaps();
    ops();
    kernels();
    return std::move(out_);
  }

 private:
  void fail(std::string_view what, std::string_view where, TimeNs x, TimeNs y = 0) {
    out_.push_back(std::string(what) + " (" + std::string(where) + ": " + std::to_string(x) + ", " +
                   std::to_string(y) + ")");
  }
  void percent(std::string_view where, double pct) {
    if (!(pct >= 0.0 && pct <= 100.0 + 1e-9)) {
      out_.push_back("a percentage outside 0..100 (" + std::string(where) + ": " + std::to_string(pct) + ")");
    }
  }
  static std::string rowName(std::string_view kind, std::int32_t device, std::int64_t stream) {
    return std::string(kind) + " device " + std::to_string(device) + " stream " + std::to_string(stream);
  }

  void summary() {
    const TraceSummary& s = a_.summary;
    if (s.slices == 0 && s.instants == 0 && s.counters == 0 && s.flows == 0) return;
    if (s.span() < 0) fail("a negative span", "summary start, end", s.start, s.end);
    if (!isTimeInRange(s.start) || !isEndInRange(s.end)) fail("a time out of range", "summary start, end", s.start, s.end);
  }

  void busyRow(std::string_view kind, const BusyRow& r) {
    const std::string where = rowName(kind, r.device, r.stream);
    if (r.busy < 0) fail("negative busy time", where, r.busy);
    if (r.activeNs() < 0) fail("a negative active window", where, r.firstStart, r.lastEnd);
    if (r.busy > r.activeNs()) fail("busy longer than the active window", where, r.busy, r.activeNs());
    const TraceSummary& s = a_.summary;
    if (r.firstStart < s.start || r.lastEnd > s.end) fail("an active window outside the span", where, r.firstStart, r.lastEnd);
    percent(where + " utilisation", r.utilization() * 100.0);
  }

  void busy() {
    const GpuBusy& b = a_.busy;
    std::map<std::int32_t, TimeNs> streamSum;
    for (const BusyRow& r : b.streams) {
      busyRow("stream", r);
      streamSum[r.device] = addSaturating(streamSum[r.device], r.busy);
    }
    for (const DeviceBusy& d : b.devices) {
      busyRow("device", d);
      if (streamSum[d.device] < d.busy) fail("streams busy less than their device", rowName("device", d.device, -1), streamSum[d.device], d.busy);
      if (d.intervals.total() != d.busy) fail("busy intervals disagree with busy time", rowName("device", d.device, -1), d.intervals.total(), d.busy);
    }
  }

  void utilisation(std::string_view kind, const UtilizationStats& u) {
    const std::string where = rowName(kind, u.device, u.stream);
    if (u.activeNs() < 0) fail("a negative active window", where, u.activeStart, u.activeEnd);
    if (u.busyNs < 0 || u.busyNs > u.activeNs()) fail("busy outside 0..active", where, u.busyNs, u.activeNs());
    for (TimeNs idle : u.idle.ns) {
      if (idle < 0) fail("negative idle time", where, idle);
    }
    if (u.idle.total() != u.idleNs()) fail("idle by cause does not sum to the idle time", where, u.idle.total(), u.idleNs());
    if (u.hta.total() != u.idleNs()) fail("HTA idle does not sum to the idle time", where, u.hta.total(), u.idleNs());
    percent(where + " utilisation", u.utilization() * 100.0);
  }

  void gaps() {
    const GapAnalysis& g = a_.gaps;
    for (const UtilizationStats& u : g.devices) utilisation("gap analysis device", u);
    for (const UtilizationStats& u : g.streams) utilisation("gap analysis stream", u);
    for (const Gap& gap : g.gaps) {
      if (gap.dur < 0) fail("a negative gap", rowName("gap", gap.device, gap.stream), gap.start, gap.dur);
    }
    for (const StepStats& s : g.steps) {
      if (s.cpuNs() < 0) fail("a negative step", "step " + std::to_string(s.number), s.cpuStart, s.cpuEnd);
      for (const UtilizationStats& u : s.devices) utilisation("step " + std::to_string(s.number), u);
    }
    percent("verdict utilisation", g.verdict.utilization * 100.0);
    if (g.verdict.estimatedSavingNs < 0) fail("a negative estimated saving", "verdict", g.verdict.estimatedSavingNs);
  }

  void ops() {
    const OpTable& t = a_.ops;
    if (t.selfCpuTotal < 0 || t.selfDeviceTotal < 0) fail("a negative operator total", "op table", t.selfCpuTotal, t.selfDeviceTotal);
    for (const OpRow& r : t.rows) {
      const std::string where = "op " + r.name;
      if (r.calls <= 0) fail("an operator row without calls", where, r.calls);
      if (r.selfCpu < 0 || r.selfCpu > r.cpuTotal) fail("self CPU outside 0..total", where, r.selfCpu, r.cpuTotal);
      if (r.selfDevice < 0 || r.selfDevice > r.deviceTotal) fail("self device outside 0..total", where, r.selfDevice, r.deviceTotal);
      percent(where + " self CPU %", t.selfCpuPct(r));
      // A GPU annotation is a range, not work: PyTorch leaves it out of the
      // device total yet gives its row a Self CUDA % (383.88% in
      // tests/data/h200/combined_eager.table.txt), and so does gapscope.
      if (!(r.annotation && r.device == OpDevice::Gpu)) percent(where + " self device %", t.selfDevicePct(r));
    }
  }

  void kernels() {
    const KernelTable& t = a_.kernels;
    TimeNs sum = 0;
    for (const KernelRow& r : t.rows) {
      const std::string where = "kernel " + r.name;
      if (r.min < 0 || r.min > r.avg() || r.avg() > r.max) fail("min <= avg <= max broken", where, r.min, r.max);
      percent(where + " % of GPU time", r.pctGpu);
      sum = addSaturating(sum, r.total);
    }
    if (sum != t.gpuTotal) fail("kernel rows do not sum to the GPU total", "kernel table", sum, t.gpuTotal);
  }

  const AnalysisParts& a_;
  std::vector<std::string> out_;
};

}  // namespace

std::vector<std::string> checkInvariants(const AnalysisParts& parts) { return Checker(parts).run(); }

std::vector<std::string> checkInvariants(const TraceAnalysis& a) {
  return checkInvariants(AnalysisParts{a.summary(), a.busy(), a.gaps(), a.ops(), a.kernels()});
}

}  // namespace gapscope::analysis
