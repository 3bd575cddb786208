// analyzeGaps: ties the CPU side, the GPU timelines, the classifier and the
// CPU-op attribution together.
//
// On a big trace the work runs on two threads, in three rounds:
//   1. the CPU calls and the CPU tracks' parent links, then the GPU ops
//      bound to their calls | the GPU ops, their gap counts, and the gap
//      list laid out at its final size;
//   2. step windows, device gaps with their CPU ops | launch statistics,
//      stream gaps with the CPU ops no device gap has for them;
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

void addToStats(const Gap& g, UtilizationStats& stats) {
  stats.idle[g.cause] += g.dur;
  stats.hta[g.hta] += g.dur;
  ++stats.gapCount;
}

struct Context {
  const Trace& trace;
  const GapOptions& options;
  const CallTable& calls;
  const GpuTimelines& gpu;
  const GapClassifier& classifier;
};

// Device gaps, classified and (with a blamer) attributed to CPU ops into
// out.cpuOps; listed ones go to out.gaps from the front, the others to
// `unlisted` when the per-step figures need them.
void runDevices(const Context& c, GapBlamer* blamer, GapAnalysis& out,
                std::vector<std::vector<GapSpan>>& unlisted) {
  GapClassifier::Lookups lookups;
  unlisted.resize(c.gpu.devices.size());
  std::size_t next = 0;
  for (std::size_t di = 0; di < c.gpu.devices.size(); ++di) {
    const DeviceTimeline& d = c.gpu.devices[di];
    UtilizationStats stats;
    stats.device = d.device;
    stats.gpuOps = d.ops;
    DeviceBlocks blocks(c.gpu, d);
    BusyBlock before, after;
    if (blocks.next(before)) {
      stats.activeStart = before.start;
      stats.busyNs = before.end - before.start;
      while (blocks.next(after)) {
        Gap g = c.classifier.classify(before, after, nullptr, lookups);
        g.device = d.device;
        addToStats(g, stats);
        bool listed = g.dur >= c.options.minGapNs;
        bool overhead = g.cause == GapCause::LaunchOverhead;
        if (blamer && g.launchTrack != kNoIndex && (listed || overhead))
          blamer->blame(g, listed, overhead, out.cpuOps);
        if (listed) {
          out.gaps[next++] = g;
        } else {
          ++out.unlistedGaps;
          if (c.options.perStep) unlisted[di].push_back({g.start, g.end(), g.cause, g.hta});
        }
        stats.busyNs += after.end - after.start;
        before = after;
      }
      // Each block ends after the one before it, so the last ends last.
      stats.activeEnd = before.end;
    }
    out.devices.push_back(stats);
  }
}

// A listed stream gap whose CPU ops are those of a listed device gap (same
// window, same thread) says so with this count and the device gap's
// position in out.gaps as its begin, until pointStreamGapsAtCpuOps copies
// them over.
constexpr std::uint32_t kSameAsDeviceGap = kNoIndex;

// The stream gaps of every device. The streams of a device are walked
// together, block by block in the order the device's blocks are merged, so
// the device gap (if any) that ends where a stream gap ends is known when
// the stream gap is: it is the device gap the stream gap shares its CPU ops
// with, or there is none and the stream gap is blamed here, into its
// stream's own pool.
class StreamGapRunner {
 public:
  StreamGapRunner(const Context& c, GapBlamer* blamer, GapAnalysis& out, std::size_t firstStreamGap)
      : c_(c), blamer_(blamer), out_(out), next_(firstStreamGap) {
    pools_.resize(c.gpu.streams.size());
    out_.streams.resize(c.gpu.streams.size());
  }

  void run() {
    for (const DeviceTimeline& d : c_.gpu.devices) {
      runDevice(d);
      firstDeviceGap_ += d.listedGaps;
    }
  }

  std::uint64_t unlisted() const { return unlisted_; }
  // Per stream: the entries of its own blamed gaps.
  std::vector<std::vector<CpuOpBlame>>& pools() { return pools_; }

 private:
  // What the walk knows about one stream of the device.
  struct Member {
    std::uint32_t stream;  // index into gpu.streams
    StreamBlocks blocks;
    BusyBlock head;      // its next block
    BusyBlock previous;  // its last block so far
    bool live = false;
    bool started = false;
    std::size_t next = 0;  // where its next listed gap goes in out.gaps
  };

  void runDevice(const DeviceTimeline& d) {
    std::vector<Member> members;
    members.reserve(d.streams.size());
    for (std::uint32_t si : d.streams) {
      members.push_back({si, StreamBlocks(c_.gpu.streams[si].ops), {}, {}, false, false, next_});
      next_ += c_.gpu.streams[si].listedGaps;
      Member& m = members.back();
      m.live = m.blocks.next(m.head);
      UtilizationStats& stats = out_.streams[si];
      stats.device = d.device;
      stats.stream = c_.gpu.streams[si].stream;
      stats.gpuOps = c_.gpu.streams[si].ops.size();
    }
    deviceStarted_ = false;
    listedDeviceGaps_ = 0;
    lastDeviceGap_ = {};
    for (;;) {
      // The next block in the order DeviceBlocks merges them.
      Member* m = nullptr;
      for (Member& candidate : members)
        if (candidate.live && (!m || candidate.head.start < m->head.start)) m = &candidate;
      if (!m) break;
      const BusyBlock b = m->head;
      m->live = m->blocks.next(m->head);
      trackDevice(b);
      UtilizationStats& stats = out_.streams[m->stream];
      if (m->started)
        streamGap(*m, b);
      else
        stats.activeStart = b.start;
      m->started = true;
      m->previous = b;
      stats.busyNs += b.end - b.start;
      // Each block ends after the one before it, so the last ends last.
      stats.activeEnd = b.end;
    }
  }

  // Follows the device's own blocks: a block starting after every block so
  // far has ended opens a device gap, ended by that block's first op.
  void trackDevice(const BusyBlock& b) {
    if (!deviceStarted_) {
      deviceStarted_ = true;
      deviceEnd_ = b.end;
      return;
    }
    if (b.start > deviceEnd_) {
      lastDeviceGap_.start = deviceEnd_;
      lastDeviceGap_.end = b.start;
      lastDeviceGap_.track = b.firstCall == kNoIndex ? kNoIndex : c_.calls.calls[b.firstCall].track;
      lastDeviceGap_.listed = b.start - deviceEnd_ >= c_.options.minGapNs;
      if (lastDeviceGap_.listed) lastDeviceGap_.position = firstDeviceGap_ + listedDeviceGaps_++;
    }
    deviceEnd_ = std::max(deviceEnd_, b.end);
  }

  void streamGap(Member& m, const BusyBlock& b) {
    const StreamTimeline& st = c_.gpu.streams[m.stream];
    Gap g = c_.classifier.classify(m.previous, b, &st.stream, lookups_);
    g.device = st.device;
    g.stream = st.stream;
    addToStats(g, out_.streams[m.stream]);
    if (g.dur < c_.options.minGapNs) {
      ++unlisted_;
      return;
    }
    if (blamer_ && g.launchTrack != kNoIndex) {
      const DeviceGapSeen& d = lastDeviceGap_;
      if (d.listed && d.start == g.start && d.end == g.end() && d.track == g.launchTrack) {
        g.cpuOpsBegin = static_cast<std::uint32_t>(d.position);
        g.cpuOpsCount = kSameAsDeviceGap;
      } else {
        blamer_->blame(g, true, false, pools_[m.stream]);
      }
    }
    out_.gaps[m.next++] = g;
  }

  struct DeviceGapSeen {
    TimeNs start = 0;
    TimeNs end = -1;
    std::uint32_t track = kNoIndex;
    bool listed = false;
    std::size_t position = 0;  // in out.gaps, when listed
  };

  const Context& c_;
  GapBlamer* blamer_;
  GapAnalysis& out_;
  std::size_t next_;  // where the next stream's gaps begin in out.gaps
  std::vector<std::vector<CpuOpBlame>> pools_;
  GapClassifier::Lookups lookups_;
  std::uint64_t unlisted_ = 0;
  std::size_t firstDeviceGap_ = 0;  // this device's first gap in out.gaps
  std::size_t listedDeviceGaps_ = 0;
  bool deviceStarted_ = false;
  TimeNs deviceEnd_ = 0;
  DeviceGapSeen lastDeviceGap_;
};

// Where each stream's own CPU-op entries go in out.cpuOps: after the
// device gaps' entries, stream by stream.
std::vector<std::uint32_t> poolOffsets(const std::vector<std::vector<CpuOpBlame>>& pools,
                                       std::size_t deviceEntries) {
  std::vector<std::uint32_t> offsets;
  std::size_t next = deviceEntries;
  for (const auto& p : pools) {
    offsets.push_back(static_cast<std::uint32_t>(next));
    next += p.size();
  }
  return offsets;
}

void appendPools(std::vector<std::vector<CpuOpBlame>>& pools, std::vector<CpuOpBlame>& cpuOps) {
  std::size_t total = cpuOps.size();
  for (const auto& p : pools) total += p.size();
  cpuOps.reserve(total);
  for (auto& p : pools) {
    cpuOps.insert(cpuOps.end(), p.begin(), p.end());
    p = {};
  }
}

// Points every listed stream gap at its CPU-op entries: a device gap's, or
// its own, moved by its stream's pool offset.
void pointStreamGapsAtCpuOps(const GpuTimelines& gpu, std::size_t firstStreamGap,
                             const std::vector<std::uint32_t>& offsets, GapAnalysis& out) {
  std::size_t next = firstStreamGap;
  for (std::size_t si = 0; si < gpu.streams.size(); ++si) {
    for (std::uint64_t k = 0; k < gpu.streams[si].listedGaps; ++k) {
      Gap& g = out.gaps[next++];
      if (g.launchTrack == kNoIndex) continue;
      if (g.cpuOpsCount == kSameAsDeviceGap) {
        const Gap& same = out.gaps[g.cpuOpsBegin];
        g.cpuOpsBegin = same.cpuOpsBegin;
        g.cpuOpsCount = same.cpuOpsCount;
      } else {
        g.cpuOpsBegin += offsets[si];
      }
    }
  }
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
// calls as soon as both are done, beside the layout of the gap list.
void readBothSides(const Trace& trace, const GapOptions& options, bool parallel, CallTable& calls,
                   std::vector<TrackTree>& trees, GpuTimelines& gpu, GapAnalysis& out) {
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
    TimedPhase step("bind ops to calls");
    bindOps(trace, calls, gpu);
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
void finish(const Trace& trace, const GapOptions& options, bool parallel, const CallTable& calls,
            const GpuTimelines& gpu, std::size_t firstStreamGap, GapBlamer* deviceBlamer,
            StreamGapRunner& streams, const std::vector<StepWindow>& windows,
            const std::vector<std::vector<GapSpan>>& unlistedDeviceGaps, GapAnalysis& out) {
  auto& pools = streams.pools();
  const std::vector<std::uint32_t> offsets = poolOffsets(pools, out.cpuOps.size());
  runBoth(
      parallel,
      [&] {
        if (deviceBlamer) {
          appendPools(pools, out.cpuOps);
          out.overheadCpuOps = deviceBlamer->overheadCpuOps();
        }
        // Reads the device gaps only, which the other side leaves alone.
        if (options.perStep) fillSteps(trace, calls, gpu, windows, unlistedDeviceGaps, out);
      },
      [&] {
        if (deviceBlamer) pointStreamGapsAtCpuOps(gpu, firstStreamGap, offsets, out);
      });
}

}  // namespace
}  // namespace gaps_detail

GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options) {
  return gaps_detail::analyze(trace, options, true);
}

namespace gaps_detail {

GapAnalysis analyze(const Trace& trace, const GapOptions& options, bool withLaunchStats) {
  TimedPhase total("analyzeGaps");
  const bool parallel = options.threads > 1 && trace.slices.size() >= kParallelFromSlices;
  GapAnalysis out;
  CallTable calls;
  GpuTimelines gpu;
  std::vector<TrackTree> trees;
  {
    TimedPhase round("round 1: CPU | GPU, then bind | layout");
    readBothSides(trace, options, parallel, calls, trees, gpu, out);
  }
  if (gpu.ops == 0) {
    out.noGpuReason = "no GPU activity: the trace has no kernel, memcpy or memset events";
    out.verdict = makeVerdict(out, options);
    return out;
  }
  out.hasGpuActivity = true;

  GapClassifier classifier(calls, options);
  const Context context{trace, options, calls, gpu, classifier};
  std::optional<GapBlamer> deviceBlamer, streamBlamer;
  if (options.blameCpuOps) {
    deviceBlamer.emplace(trace, trees, options);
    streamBlamer.emplace(trace, trees, options);
    // Room for a few entries per gap: address space only until used, and
    // no copy of the device gaps' entries when the streams' are appended.
    out.cpuOps.reserve(4 * out.gaps.size());
  }
  const std::size_t firstStreamGap = listedDeviceGapCount(gpu);
  std::vector<std::vector<GapSpan>> unlistedDeviceGaps;
  std::vector<StepWindow> windows;
  StreamGapRunner streams(context, streamBlamer ? &*streamBlamer : nullptr, out, firstStreamGap);
  {
    TimedPhase round("round 2: devices | launches, streams");
    runBoth(
        parallel,
        [&] {
          {
            TimedPhase step("step windows");
            if (options.perStep) windows = stepWindows(trace, calls, gpu);
          }
          TimedPhase step("device gaps");
          runDevices(context, deviceBlamer ? &*deviceBlamer : nullptr, out, unlistedDeviceGaps);
        },
        [&] {
          if (withLaunchStats) {
            TimedPhase step("launch statistics");
            fillLaunchStats(calls, gpu, options, trace.strings.size(), out.launchStats,
                            options.keepLaunches ? &out.launches : nullptr);
          }
          TimedPhase step("stream gaps");
          streams.run();
        });
  }
  {
    TimedPhase round("round 3: CPU ops joined | steps");
    out.unlistedGaps += streams.unlisted();
    finish(trace, options, parallel, calls, gpu, firstStreamGap, deviceBlamer ? &*deviceBlamer : nullptr,
           streams, windows, unlistedDeviceGaps, out);
  }
  addNotes(calls, gpu, out);
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace gaps_detail
}  // namespace gapscope::analysis
