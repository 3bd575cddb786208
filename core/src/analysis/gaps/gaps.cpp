// analyzeGaps: ties the CPU side, the GPU timelines, the classifier and the
// CPU-op attribution together.
//
// On a big trace the work runs on two threads: the CPU pass beside the GPU
// pass, then the device gaps (with their CPU-op attribution) beside the
// launch statistics, the step windows and the stream gaps. Stream gaps get
// their CPU ops last, mostly by looking up the device gap with the same
// window (on a one-stream device every stream gap is a device gap).
#include <future>
#include <limits>
#include <string>
#include <system_error>

#include "gap_context.h"

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

UtilizationStats statsFromBlocks(const std::vector<BusyBlock>& blocks, std::int32_t device,
                                 std::int64_t stream, std::uint64_t ops) {
  UtilizationStats s;
  s.device = device;
  s.stream = stream;
  s.gpuOps = ops;
  if (blocks.empty()) return s;
  s.activeStart = blocks.front().start;
  s.activeEnd = blocks.back().end;
  for (const BusyBlock& b : blocks) s.busyNs += b.end - b.start;
  return s;
}

void addToStats(const Gap& g, UtilizationStats& stats) {
  stats.idle[g.cause] += g.dur;
  stats.hta[g.hta] += g.dur;
  ++stats.gapCount;
}

// Classifies and lists the gaps of every stream (no CPU ops yet).
void runStreams(const GapClassifier& classifier, const GpuTimelines& gpu,
                const GapOptions& options, std::vector<UtilizationStats>& stats,
                std::vector<Gap>& listed, std::uint64_t& unlisted) {
  for (const DeviceTimeline& d : gpu.devices) {
    for (std::uint32_t si : d.streams) {
      const StreamTimeline& st = gpu.streams[si];
      stats.push_back(statsFromBlocks(st.blocks, st.device, st.stream, st.ops.size()));
      for (std::size_t i = 0; i + 1 < st.blocks.size(); ++i) {
        Gap g = classifier.classify(st.blocks[i], st.blocks[i + 1], &st.stream);
        g.device = st.device;
        g.stream = st.stream;
        addToStats(g, stats.back());
        if (g.dur >= options.minGapNs)
          listed.push_back(g);
        else
          ++unlisted;
      }
    }
  }
}

// A listed device gap's window and its CPU ops, for stream gaps to share.
struct BlamedWindow {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t track = kNoIndex;
  std::uint32_t begin = 0;
  std::uint32_t count = 0;
};

// Device gaps and all CPU-op attribution.
class DeviceGapRunner {
 public:
  DeviceGapRunner(const Trace& trace, const GapClassifier& classifier, std::vector<TrackTree> trees,
                  const GapOptions& options, GapAnalysis& out)
      : options_(options), out_(out), classifier_(classifier), blamer_(trace, std::move(trees)) {}

  void run(DeviceTimeline& d) {
    out_.devices.push_back(statsFromBlocks(d.blocks, d.device, -1, d.ops));
    UtilizationStats& stats = out_.devices.back();
    windows_.emplace_back();
    d.gaps.reserve(d.blocks.empty() ? 0 : d.blocks.size() - 1);
    if (options_.blameCpuOps) out_.cpuOps.reserve(out_.cpuOps.size() + 4 * d.blocks.size());
    for (std::size_t i = 0; i + 1 < d.blocks.size(); ++i) {
      Gap g = classifier_.classify(d.blocks[i], d.blocks[i + 1], nullptr);
      g.device = d.device;
      d.gaps.push_back({g.start, g.end(), g.cause, g.hta});
      addToStats(g, stats);
      bool listed = g.dur >= options_.minGapNs;
      bool overhead = g.cause == GapCause::LaunchOverhead;
      if (options_.blameCpuOps && g.launchTrack != kNoIndex && (listed || overhead)) {
        blame(g, listed, overhead);
        if (listed)
          windows_.back().push_back({g.start, g.end(), g.launchTrack, g.cpuOpsBegin, g.cpuOpsCount});
      }
      if (listed)
        out_.gaps.push_back(g);
      else
        ++out_.unlistedGaps;
    }
  }

  // Gives listed stream gaps (in stream order, each in time order) their
  // CPU ops: a device gap's when the window and thread match, else fresh.
  void attachCpuOps(const GpuTimelines& gpu, std::vector<Gap>& streamGaps) {
    if (!options_.blameCpuOps) return;
    std::size_t device = 0, cursor = 0;
    std::int64_t lastStream = std::numeric_limits<std::int64_t>::min();
    std::int32_t lastDevice = std::numeric_limits<std::int32_t>::min();
    for (Gap& g : streamGaps) {
      if (g.device != lastDevice || g.stream != lastStream) {
        while (gpu.devices[device].device != g.device) ++device;
        cursor = 0;
        lastDevice = g.device;
        lastStream = g.stream;
      }
      if (g.launchTrack == kNoIndex) continue;
      const auto& windows = windows_[device];
      while (cursor < windows.size() && windows[cursor].start < g.start) ++cursor;
      const BlamedWindow* same = cursor < windows.size() ? &windows[cursor] : nullptr;
      if (same && same->start == g.start && same->end == g.end() && same->track == g.launchTrack) {
        g.cpuOpsBegin = same->begin;
        g.cpuOpsCount = same->count;
      } else {
        blame(g, true, false);
      }
    }
  }

  std::vector<CpuOpBlame> overheadCpuOps() {
    std::vector<CpuOpBlame> ops;
    overheadTotals_.takeInto(ops, 0);
    return ops;
  }

 private:
  // Attributes the gap to CPU ops: into the gap's own list when listed and
  // into the trace-wide launch-overhead totals for device overhead gaps.
  void blame(Gap& g, bool listed, bool overhead) {
    blamer_.blame(g.launchTrack, g.start, g.end(), [&](StringId name, TimeNs ns, bool untraced) {
      gapTotals_.add(name, ns, untraced);
    });
    if (overhead) gapTotals_.addTo(overheadTotals_);
    if (!listed) {
      gapTotals_.clear();
      return;
    }
    g.cpuOpsBegin = static_cast<std::uint32_t>(out_.cpuOps.size());
    g.cpuOpsCount =
        static_cast<std::uint32_t>(gapTotals_.takeInto(out_.cpuOps, options_.maxCpuOpsPerGap));
  }

  const GapOptions& options_;
  GapAnalysis& out_;
  const GapClassifier& classifier_;
  CpuBlamer blamer_;
  BlameTotals gapTotals_;
  BlameTotals overheadTotals_;
  std::vector<std::vector<BlamedWindow>> windows_;  // per device, in time order
};

std::size_t upperBoundOfStreamGaps(const GpuTimelines& gpu) {
  std::size_t n = 0;
  for (const auto& s : gpu.streams) n += s.blocks.size();
  return n;
}

std::size_t upperBoundOfGaps(const GpuTimelines& gpu) {
  std::size_t n = upperBoundOfStreamGaps(gpu);
  for (const auto& d : gpu.devices) n += d.blocks.size();
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

}  // namespace
}  // namespace gaps_detail

GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options) {
  using namespace gaps_detail;
  const bool parallel = options.threads > 1 && trace.slices.size() >= kParallelFromSlices;
  GapAnalysis out;
  CallTable calls;
  GpuTimelines gpu;
  runBoth(
      parallel, [&] { calls = buildCallTable(trace, options.blameCpuOps); },
      [&] { gpu = collectGpuOps(trace); });
  if (gpu.ops == 0) {
    out.noGpuReason = "no GPU activity: the trace has no kernel, memcpy or memset events";
    out.verdict = makeVerdict(out, options);
    return out;
  }
  out.hasGpuActivity = true;
  bindAndBuildBlocks(calls, gpu);

  const bool listAny = options.minGapNs < std::numeric_limits<TimeNs>::max();
  if (listAny) out.gaps.reserve(upperBoundOfGaps(gpu));
  GapClassifier classifier(calls, options);
  DeviceGapRunner devices(trace, classifier, std::move(calls.trees), options, out);
  std::vector<Gap> streamGaps;
  std::uint64_t unlistedStreamGaps = 0;
  std::vector<StepWindow> windows;
  runBoth(
      parallel,
      [&] {
        for (DeviceTimeline& d : gpu.devices) devices.run(d);
      },
      [&] {
        fillLaunchStats(calls, gpu, options, trace.strings.size(), out.launchStats,
                        options.keepLaunches ? &out.launches : nullptr);
        if (options.perStep) windows = stepWindows(trace, calls, gpu);
        if (listAny) streamGaps.reserve(upperBoundOfStreamGaps(gpu));
        runStreams(classifier, gpu, options, out.streams, streamGaps, unlistedStreamGaps);
      });
  devices.attachCpuOps(gpu, streamGaps);
  out.gaps.insert(out.gaps.end(), streamGaps.begin(), streamGaps.end());
  out.unlistedGaps += unlistedStreamGaps;
  out.overheadCpuOps = devices.overheadCpuOps();
  if (options.perStep) fillSteps(trace, calls, gpu, windows, out);
  addNotes(calls, gpu, out);
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace gapscope::analysis
