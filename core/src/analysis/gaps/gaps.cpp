// analyzeGaps as a pipeline of named stages (pipeline/stage_graph.h), each
// with explicit inputs and one output:
//
//   steps found ──────────────────────────────────┐
//   cpu calls ─────────────┐                      │
//   gpu ops, gap counts ───┼─ bind ops to calls ─┬┴ step work ───────────────┐
//        └─ gap list layout┘                      ├─ launch statistics        │
//                          (both walks need it)   ├─ device gaps ──┬──────────┴─ steps
//                                                 └─ stream gaps ──┴─ pool offsets ─┬─ pools joined
//                                                                                   └─ stream gaps pointed
//                                                                                      at their CPU ops
// The device walk fills the front of the gap list and the stream walk the
// rest, each with its own CPU-op pool; the pools are joined at the end, so
// the result is the same with one thread or two. Below kParallelFromSlices
// a second thread costs more than it saves.
#include <limits>
#include <optional>
#include <string>

#include "analysis/pipeline/stage_graph.h"
#include "call_table.h"
#include "gap_pipeline.h"
#include "gapscope/format/duration.h"
#include "gap_walks.h"
#include "launch_stats.h"
#include "steps.h"

namespace gapscope::analysis {
namespace gaps_detail {
namespace {

// Below this many slices a second thread costs more than it saves.
constexpr std::size_t kParallelFromSlices = 1 << 17;

// Room for a few CPU-op entries per listed gap: address space only until
// used, and no copy of the device gaps' entries when the streams' are
// appended.
std::size_t cpuOpsRoom(const GapOptions& options, std::size_t listedGaps) {
  std::size_t perGap = options.maxCpuOpsPerGap == 0 ? 4 : std::min<std::size_t>(4, options.maxCpuOpsPerGap);
  return perGap * listedGaps;
}

std::size_t listedDeviceGapCount(const GpuTimelines& gpu) {
  std::size_t n = 0;
  for (const auto& d : gpu.devices) n += d.listedGaps;
  return n;
}

std::size_t listedGapCount(const GpuTimelines& gpu) {
  std::size_t n = listedDeviceGapCount(gpu);
  for (const auto& s : gpu.streams) n += s.listedGaps;
  return n;
}

void addNotes(const CallTable& calls, const GpuTimelines& gpu, GapAnalysis& out) {
  if (gpu.opsWithCorrelation == 0)
    out.notes.push_back(
        "no correlation ids: nothing links launch calls to GPU ops, so every gap's cause is "
        "'other'");
  if (gpu.orphanOps > 0)
    out.notes.push_back(std::to_string(gpu.orphanOps) +
                        " GPU ops have a correlation id that matches no launch call");
  if (calls.launchCallsWithoutCorrelation > 0)
    out.notes.push_back(std::to_string(calls.launchCallsWithoutCorrelation) +
                        " launch calls carry no correlation id");
  if (!out.steps.empty() && out.steps.front().warmUp)
    out.notes.push_back("the first step lasted " +
                        format::formatDuration(out.steps.front().cpuNs(), format::DurationStyle::Verdict) +
                        ", over " + std::to_string(kWarmUpStepFactor) +
                        " times the others' median (start-up or compilation): it is left out of the verdict "
                        "and every total over the steps");
}

// A trace without GPU work gets the reason, the verdict and what its steps
// are, nothing else.
GapAnalysis noGpuActivity(const GapOptions& options, const StepAnnotations& steps) {
  GapAnalysis out;
  out.stepSource = steps.source;
  out.stepName = steps.name;
  out.noGpuReason = "no GPU activity: the trace has no kernel, memcpy or memset events";
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace
}  // namespace gaps_detail

GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options) {
  return analyzeGaps(trace, computeGpuBusy(trace), options);
}

GapAnalysis analyzeGaps(const Trace& trace, const GpuBusy& busy, const GapOptions& options,
                        StageObserver* observer) {
  return gaps_detail::analyze(trace, busy, options, true, observer);
}

namespace gaps_detail {

GapAnalysis analyze(const Trace& trace, const GpuBusy& busy, const GapOptions& options, bool withLaunchStats,
                    StageObserver* observer) {
  GapAnalysis out;
  // Each stage's output; a stage reads only the outputs of the stages it needs.
  CallTable calls;
  GpuTimelines gpu;
  std::size_t firstStreamGap = 0;
  StepAnnotations stepAnnotations;
  StepWork work;
  DeviceSide devices;
  StreamSide streams;
  std::vector<std::uint32_t> offsets;
  LaunchStats launchStats;
  std::vector<LaunchInfo> launches;
  const GapClassifier classifier(calls, options);
  const Context c{trace, options, calls, gpu, busy, classifier};

  pipeline::StageGraph graph;
  const auto stepsFound = graph.add("steps found", {}, [&] {
    if (options.perStep) stepAnnotations = findSteps(trace);
  });
  const auto cpuCalls = graph.add("cpu calls", {}, [&] {
    calls = buildCallTable(trace);
  });
  const auto gpuOps = graph.add("gpu ops, gap counts", {}, [&] {
    gpu = collectGpuOps(trace);
    countGaps(gpu, options.minGapNs);
  });
  // Laid out once at its final size: device gaps first, then stream gaps.
  const auto layout = graph.add("gap list layout", {gpuOps}, [&] {
    firstStreamGap = listedDeviceGapCount(gpu);
    out.gaps.resize(listedGapCount(gpu));
  });
  const auto bind = graph.add("bind ops to calls", {cpuCalls, gpuOps}, [&] { bindOps(trace, calls, gpu); });
  const auto stepWorkDone = graph.add("step work", {bind, stepsFound}, [&] {
    if (options.perStep) work = stepWork(trace, stepAnnotations, calls, gpu);
  });
  graph.add("launch statistics", {bind}, [&] {
    if (withLaunchStats)
      fillLaunchStats(calls, gpu, options, trace.strings.size(), launchStats,
                      options.keepLaunches ? &launches : nullptr);
  });
  const auto deviceGaps = graph.add("device gaps", {bind, layout}, [&] {
    devices = walkDeviceGaps(c, cpuOpsRoom(options, firstStreamGap), out.gaps.data());
  });
  const auto streamGaps = graph.add("stream gaps", {bind, layout}, [&] {
    streams = walkStreamGaps(c, out.gaps.data(), firstStreamGap);
  });
  graph.add("steps", {deviceGaps, stepWorkDone}, [&] {
    // Reads the device gaps only, which no stage running beside it writes.
    if (options.perStep) fillSteps(trace, stepAnnotations, gpu, std::move(work), devices.unlisted, out);
  });
  const auto pooled = graph.add("cpu-op pool offsets", {deviceGaps, streamGaps}, [&] {
    offsets = poolOffsets(streams.pools, devices.cpuOps.size());
  });
  graph.add("cpu-op pools joined", {pooled}, [&] {
    out.cpuOps = std::move(devices.cpuOps);
    if (options.blameCpuOps) appendPools(streams.pools, out.cpuOps);
  });
  graph.add("stream gaps pointed at their cpu ops", {pooled}, [&] {
    if (options.blameCpuOps) pointStreamGapsAtCpuOps(gpu, firstStreamGap, offsets, out);
  });
  const bool parallel = options.threads > 1 && trace.slices.size() >= kParallelFromSlices;
  graph.run(parallel ? options.threads : 1, observer);

  if (gpu.ops == 0) return noGpuActivity(options, stepAnnotations);
  out.hasGpuActivity = true;
  out.stepSource = stepAnnotations.source;
  out.stepName = stepAnnotations.name;
  out.devices = std::move(devices.stats);
  out.streams = std::move(streams.stats);
  out.unlistedGaps = devices.unlistedCount + streams.unlistedCount;
  out.overheadCpuOps = std::move(devices.overheadCpuOps);
  out.launchStats = launchStats;
  out.launches = std::move(launches);
  out.traceSpanNs = trace.maxTime() - trace.minTime();
  addNotes(calls, gpu, out);
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace gaps_detail
}  // namespace gapscope::analysis
