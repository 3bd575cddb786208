#include "gapscope/ranks/rank_tables.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "gapscope/analysis/collectives.h"

namespace gapscope::ranks {
namespace {

using analysis::GapAnalysis;
using analysis::StepStats;

RankStep stepOf(const StepStats& s) {
  RankStep step;
  step.step = s.number;
  step.startNs = s.cpuStart;
  step.timeNs = s.cpuNs();
  for (const auto& d : s.devices) {
    step.busyNs += d.busyNs;
    step.activeNs += d.activeNs();
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) step.idle.ns[c] += d.idle.ns[c];
  }
  step.kernels = s.kernels;
  step.launches = s.launches;
  step.warmUp = s.warmUp;
  return step;
}

// A trace without step annotations: one step, number 0, over the whole trace.
RankStep wholeTraceStep(const analysis::TraceAnalysis& a) {
  RankStep step;
  step.startNs = a.summary().start;
  step.timeNs = a.summary().span();
  for (const auto& d : a.gaps().devices) {
    step.busyNs += d.busyNs;
    step.activeNs += d.activeNs();
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) step.idle.ns[c] += d.idle.ns[c];
  }
  step.kernels = a.summary().kernels;
  step.launches = a.gaps().launchStats.kernelLaunchCalls;
  return step;
}

// The step whose CPU range [start, start + time) holds `t`; -1 when none.
// Steps never overlap and are sorted by start.
std::int64_t stepAt(const std::vector<RankStep>& steps, TimeNs t, bool wholeTrace) {
  if (wholeTrace) return 0;
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](TimeNs value, const RankStep& s) { return value < s.startNs; });
  if (it == steps.begin()) return -1;
  --it;
  return t < it->startNs + it->timeNs ? it->step : -1;
}

std::string innermostCpuOp(const Trace& trace, std::uint32_t slice) {
  for (std::uint32_t p = trace.slices[slice].parent; p != kNoIndex; p = trace.slices[p].parent) {
    if (trace.slices[p].kind == SliceKind::CpuOp) return std::string(trace.str(trace.slices[p].name));
  }
  return {};
}

std::vector<RankCollective> collectivesOf(const Trace& trace, const std::vector<RankStep>& steps, bool wholeTrace) {
  std::vector<RankCollective> out;
  // Each kernel name is looked at once: millions of kernels share a few hundred names.
  enum : std::uint8_t { Unknown, Collective, NotCollective };
  std::vector<std::uint8_t> nameIs(trace.strings.size(), Unknown);
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::Kernel) continue;
    std::uint8_t& known = nameIs[s.name];
    if (known == Unknown) known = analysis::isCollectiveName(trace.str(s.name)) ? Collective : NotCollective;
    if (known == NotCollective) continue;
    const std::uint32_t launch =
        s.correlation == kNoCorrelation ? kNoIndex : trace.launchForCorrelation(s.correlation);
    const TimeNs launchedAt = launch == kNoIndex ? s.start : trace.slices[launch].start;
    RankCollective c;
    c.step = stepAt(steps, launchedAt, wholeTrace);
    c.name = std::string(trace.str(s.name));
    if (launch != kNoIndex) c.cpuOp = innermostCpuOp(trace, launch);
    const Track& track = trace.tracks[s.track];
    c.device = track.device;
    c.stream = track.stream;
    c.startNs = s.start;
    c.durNs = s.dur;
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const RankCollective& a, const RankCollective& b) {
    return a.step != b.step ? a.step < b.step : a.startNs != b.startNs ? a.startNs < b.startNs : a.stream < b.stream;
  });
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].index = i > 0 && out[i - 1].step == out[i].step ? out[i - 1].index + 1 : 0;
  }
  return out;
}

// `steps` sorted by step number (the tables' order).
void addCollectivesToSteps(std::vector<RankStep>& steps, const std::vector<RankCollective>& collectives) {
  for (const auto& c : collectives) {
    auto it = std::lower_bound(steps.begin(), steps.end(), c.step,
                               [](const RankStep& s, std::int64_t n) { return s.step < n; });
    if (it == steps.end() || it->step != c.step) continue;
    ++it->collectives;
    it->collectiveNs += c.durNs;
  }
}

std::vector<RankKernel> kernelsOf(const analysis::KernelTable& table) {
  std::vector<RankKernel> out;
  for (const auto& row : table.rows) {
    if (row.kind == SliceKind::Kernel) out.push_back({row.name, row.calls, row.total});
  }
  return out;
}

std::vector<RankOp> opsOf(const analysis::OpTable& table) {
  std::vector<RankOp> out;
  for (const auto& row : table.rows) {
    if (row.device != analysis::OpDevice::Cpu || row.annotation) continue;
    out.push_back({row.name, row.calls, row.selfCpu, row.cpuTotal, row.deviceTotal});
  }
  std::stable_sort(out.begin(), out.end(), [](const RankOp& a, const RankOp& b) { return a.selfCpuNs > b.selfCpuNs; });
  return out;
}

std::vector<RankGap> gapsOf(const GapAnalysis& gaps, const std::vector<RankStep>& steps, bool wholeTrace) {
  std::vector<RankGap> out;
  for (const auto& g : gaps.gaps) {
    if (g.stream != -1) continue;  // device gaps only: stream gaps overlap other streams' work
    out.push_back({stepAt(steps, g.start, wholeTrace), g.device, g.stream, g.start, g.dur, g.cause});
  }
  std::stable_sort(out.begin(), out.end(), [](const RankGap& a, const RankGap& b) { return a.startNs < b.startNs; });
  return out;
}

std::int64_t lastNumberIn(const std::string& fileName) {
  std::int64_t value = kUnknownRank;
  for (std::size_t i = 0; i < fileName.size();) {
    if (!std::isdigit(static_cast<unsigned char>(fileName[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < fileName.size() && std::isdigit(static_cast<unsigned char>(fileName[end]))) ++end;
    if (end - i <= 9) value = std::stoll(fileName.substr(i, end - i));
    i = end;
  }
  return value;
}

}  // namespace

std::int64_t rankOfTrace(const std::string& distributedInfoJson, const std::string& fileName,
                         std::int64_t* worldSize) {
  if (worldSize) *worldSize = 0;
  if (!distributedInfoJson.empty()) {
    const auto info = nlohmann::json::parse(distributedInfoJson, nullptr, false);
    if (info.is_object()) {
      auto size = info.find("world_size");
      if (worldSize && size != info.end() && size->is_number_integer()) *worldSize = size->get<std::int64_t>();
      auto rank = info.find("rank");
      if (rank != info.end() && rank->is_number_integer() && rank->get<std::int64_t>() >= 0) {
        return rank->get<std::int64_t>();
      }
    }
  }
  // Only the name of the file, not its folders ("run3/rank-1.json" is rank 1).
  const auto slash = fileName.find_last_of('/');
  const std::string name = slash == std::string::npos ? fileName : fileName.substr(slash + 1);
  // `record -o DIR/` names a process without RANK by its pid: no rank.
  if (name.rfind("pid-", 0) == 0) return kUnknownRank;
  return lastNumberIn(name);
}

analysis::AnalysisOptions rankAnalysisOptions() {
  analysis::AnalysisOptions options;
  options.gaps.blameCpuOps = false;
  options.gaps.keepLaunches = false;
  return options;
}

RankTables buildRankTables(const analysis::TraceAnalysis& a, std::string file) {
  const Trace& trace = a.trace();
  RankTables t;
  t.file = std::move(file);
  t.rank = rankOfTrace(trace.metadata.distributedInfoJson, t.file, &t.worldSize);
  const GapAnalysis& gaps = a.gaps();
  t.stepSource = gaps.stepSource;
  if (t.stepSource == analysis::StepSource::RepeatedAnnotation) t.stepName = std::string(trace.str(gaps.stepName));
  const bool wholeTrace = gaps.steps.empty();
  if (wholeTrace) t.steps.push_back(wholeTraceStep(a));
  for (const auto& s : gaps.steps) t.steps.push_back(stepOf(s));
  // Steps are found in time order (stepAt needs that); the tables list them
  // by number, which is the same order unless a program numbered them otherwise.
  t.collectives = collectivesOf(trace, t.steps, wholeTrace);
  t.gaps = gapsOf(gaps, t.steps, wholeTrace);
  std::stable_sort(t.steps.begin(), t.steps.end(), [](const RankStep& x, const RankStep& y) { return x.step < y.step; });
  addCollectivesToSteps(t.steps, t.collectives);
  t.kernels = kernelsOf(a.kernels());
  t.ops = opsOf(a.ops());
  return t;
}

std::size_t RankTables::memoryBytes() const {
  std::size_t bytes = sizeof(*this) + file.capacity() + stepName.capacity() + steps.capacity() * sizeof(RankStep) +
                      collectives.capacity() * sizeof(RankCollective) + kernels.capacity() * sizeof(RankKernel) +
                      ops.capacity() * sizeof(RankOp) + gaps.capacity() * sizeof(RankGap);
  for (const auto& c : collectives) bytes += c.name.capacity() + c.cpuOp.capacity();
  for (const auto& k : kernels) bytes += k.name.capacity();
  for (const auto& o : ops) bytes += o.name.capacity();
  return bytes;
}

}  // namespace gapscope::ranks
