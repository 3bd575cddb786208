// analyzeGaps: ties the CPU side, the GPU timelines, the classifier and the
// CPU-op attribution together.
//
// On a big trace the work runs on two threads, in three rounds:
//   1. the CPU calls and the CPU tracks' parent links, then the GPU ops
//      bound to their calls and the steps' GPU windows | the GPU ops, their
//      gap counts, and the gap list laid out at its final size;
//   2. device gaps with their CPU ops | launch statistics, stream gaps with
//      the CPU ops no device gap has for them;
//   3. the CPU-op pools joined | stream gaps pointed at their CPU ops.
// Each thread writes its own part of the gap list and its own CPU-op pool;
// the pools are joined at the end, so the result is the same with one
// thread or two.
#include <future>
#include <limits>
#include <optional>
#include <string>
#include <system_error>

#include "gap_context.h"
#include "gap_walks.h"
#include "phase_times.h"

namespace gapscope::analysis {
namespace gaps_detail {
namespace {

// Below this many slices a second thread costs more than it saves.
constexpr std::size_t kParallelFromSlices = 1 << 17;

// Runs a and b, on two threads when `parallel` (and a thread can be had).
template <typename A, typename B>
void runBoth(bool parallel, A&& a, B&& b) {
  std::future<void> other;
  if (parallel) {
    try {
      other = std::async(std::launch::async, std::forward<B>(b));
    } catch (const std::system_error&) {
      parallel = false;
    }
  }
  a();
  if (parallel)
    other.get();
  else
    b();
}

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
}

// Round 1: the CPU pass beside the GPU pass, then the binding of ops to
// calls (and the steps' GPU windows) as soon as both are done, beside the
// layout of the gap list.
void readBothSides(const Trace& trace, const GapOptions& options, bool parallel, CallTable& calls,
                   std::vector<TrackTree>& trees, GpuTimelines& gpu, std::vector<StepWindow>& windows,
                   GapAnalysis& out) {
  auto cpuSide = [&] {
    TimedPhase step("cpu pass (calls, trees)");
    calls = buildCallTable(trace, options.blameCpuOps ? &trees : nullptr);
  };
  auto gpuSide = [&] {
    TimedPhase step("gpu pass (ops, gap counts)");
    gpu = collectGpuOps(trace);
    countGaps(gpu, options.minGapNs);
  };
  auto bind = [&] {
    {
      TimedPhase step("bind ops to calls");
      bindOps(trace, calls, gpu);
    }
    TimedPhase step("step windows");
    if (options.perStep) windows = stepWindows(trace, calls, gpu);
  };
  // Laid out once at its final size: device gaps first, then stream gaps,
  // each thread filling its own part.
  auto layout = [&] {
    TimedPhase step("gap list layout");
    out.gaps.resize(listedGapCount(gpu));
  };
  std::promise<void> gpuRead;
  std::future<void> gpuSideDone = gpuRead.get_future();
  std::future<void> other;
  if (parallel) {
    try {
      other = std::async(std::launch::async, [&] {
        try {
          gpuSide();
        } catch (...) {
          gpuRead.set_exception(std::current_exception());
          throw;
        }
        gpuRead.set_value();
        layout();
      });
    } catch (const std::system_error&) {
      parallel = false;
    }
  }
  if (!parallel) {
    gpuSide();
    layout();
    cpuSide();
    bind();
    return;
  }
  cpuSide();
  gpuSideDone.get();
  bind();
  other.get();
}

// The end: the streams' own CPU-op entries appended to the device gaps',
// beside the stream gaps pointed at their entries; the per-step figures.
void finish(const Context& c, bool parallel, std::size_t firstStreamGap, DeviceSide& devices,
            StreamSide& streams, const std::vector<StepWindow>& windows, GapAnalysis& out) {
  out.devices = std::move(devices.stats);
  out.streams = std::move(streams.stats);
  out.unlistedGaps = devices.unlistedCount + streams.unlistedCount;
  out.cpuOps = std::move(devices.cpuOps);
  out.overheadCpuOps = std::move(devices.overheadCpuOps);
  const std::vector<std::uint32_t> offsets = poolOffsets(streams.pools, out.cpuOps.size());
  runBoth(
      parallel,
      [&] {
        TimedPhase step("pools joined, steps");
        if (c.options.blameCpuOps) appendPools(streams.pools, out.cpuOps);
        // Reads the device gaps only, which the other side leaves alone.
        if (c.options.perStep) fillSteps(c.trace, c.calls, c.gpu, windows, devices.unlisted, out);
      },
      [&] {
        TimedPhase step("stream gaps pointed at their CPU ops");
        if (c.options.blameCpuOps) pointStreamGapsAtCpuOps(c.gpu, firstStreamGap, offsets, out);
      });
}

}  // namespace
}  // namespace gaps_detail

GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options) {
  return analyzeGaps(trace, computeGpuBusy(trace), options);
}

GapAnalysis analyzeGaps(const Trace& trace, const GpuBusy& busy, const GapOptions& options) {
  return gaps_detail::analyze(trace, busy, options, true);
}

namespace gaps_detail {

GapAnalysis analyze(const Trace& trace, const GpuBusy& busy, const GapOptions& options, bool withLaunchStats) {
  TimedPhase total("analyzeGaps");
  const bool parallel = options.threads > 1 && trace.slices.size() >= kParallelFromSlices;
  GapAnalysis out;
  CallTable calls;
  GpuTimelines gpu;
  std::vector<TrackTree> trees;
  std::vector<StepWindow> windows;
  {
    TimedPhase round("round 1: CPU | GPU, then bind | layout");
    readBothSides(trace, options, parallel, calls, trees, gpu, windows, out);
  }
  if (gpu.ops == 0) {
    out.noGpuReason = "no GPU activity: the trace has no kernel, memcpy or memset events";
    out.verdict = makeVerdict(out, options);
    return out;
  }
  out.hasGpuActivity = true;

  GapClassifier classifier(calls, options);
  const Context context{trace, options, calls, gpu, busy, classifier};
  const std::size_t firstStreamGap = listedDeviceGapCount(gpu);
  DeviceSide devices;
  StreamSide streams;
  LaunchStats launchStats;
  std::vector<LaunchInfo> launches;
  {
    TimedPhase round("round 2: devices | launches, streams");
    runBoth(
        parallel,
        [&] {
          TimedPhase step("device gaps");
          devices = walkDeviceGaps(context, trees, cpuOpsRoom(options, firstStreamGap), out.gaps.data());
        },
        [&] {
          if (withLaunchStats) {
            TimedPhase step("launch statistics");
            fillLaunchStats(calls, gpu, options, trace.strings.size(), launchStats,
                            options.keepLaunches ? &launches : nullptr);
          }
          TimedPhase step("stream gaps");
          streams = walkStreamGaps(context, trees, out.gaps.data(), firstStreamGap);
        });
  }
  out.launchStats = launchStats;
  out.launches = std::move(launches);
  {
    TimedPhase round("round 3: CPU ops joined | steps");
    finish(context, parallel, firstStreamGap, devices, streams, windows, out);
  }
  addNotes(calls, gpu, out);
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace gaps_detail
}  // namespace gapscope::analysis
