// analyzeGaps: ties the CPU side, the GPU timelines, the classifier and the
// CPU-op attribution together.
#include <string>

#include "gap_context.h"

namespace gapscope::analysis {
namespace gaps_detail {
namespace {

void addGap(const Gap& g, UtilizationStats& stats) {
  stats.idle[g.cause] += g.dur;
  stats.hta[g.hta] += g.dur;
  ++stats.gapCount;
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

class GapRunner {
 public:
  GapRunner(const Trace& trace, const CallTable& calls, const GapOptions& options,
            GapAnalysis& out)
      : trace_(trace), options_(options), out_(out), classifier_(trace, calls, options),
        blamer_(trace) {}

  // Classifies the gaps between `blocks`, fills `spans` and `stats`, and
  // lists the long ones. `reuse` (device-sized gaps of a one-stream device)
  // lends its CPU-op ranges instead of blaming again.
  void run(const std::vector<BusyBlock>& blocks, const std::int64_t* stream,
           std::int32_t device, std::vector<GapSpan>& spans, UtilizationStats& stats,
           const std::vector<std::pair<std::uint32_t, std::uint32_t>>* reuse,
           std::vector<std::pair<std::uint32_t, std::uint32_t>>* ranges) {
    spans.reserve(blocks.size() ? blocks.size() - 1 : 0);
    for (std::size_t i = 0; i + 1 < blocks.size(); ++i) {
      Gap g = classifier_.classify(blocks[i].end, blocks[i + 1].start, blocks[i].lastOp,
                                   blocks[i + 1].firstOp, stream);
      g.device = device;
      g.stream = stream ? *stream : -1;
      spans.push_back({g.start, g.end(), g.cause, g.hta});
      addGap(g, stats);
      bool listed = g.dur >= options_.minGapNs;
      bool overhead = !stream && g.cause == GapCause::LaunchOverhead;
      std::pair<std::uint32_t, std::uint32_t> range{0, 0};
      if (reuse && listed) {
        range = (*reuse)[i];
      } else if ((listed || overhead) && g.launchTrack != kNoIndex) {
        range = blame(g, listed, overhead);
      }
      if (ranges) ranges->push_back(range);
      if (!listed) {
        ++out_.unlistedGaps;
        continue;
      }
      g.cpuOpsBegin = range.first;
      g.cpuOpsCount = range.second;
      out_.gaps.push_back(g);
    }
  }

  std::vector<CpuOpBlame> overheadCpuOps() { return overheadTotals_.take(0); }

 private:
  std::pair<std::uint32_t, std::uint32_t> blame(const Gap& g, bool listed, bool overhead) {
    blamer_.blame(g.launchTrack, g.start, g.end(), [&](StringId name, TimeNs ns, bool untraced) {
      if (listed) gapTotals_.add(name, ns, untraced);
      if (overhead) overheadTotals_.add(name, ns, untraced);
    });
    if (!listed) return {0, 0};
    std::vector<CpuOpBlame> ops = gapTotals_.take(options_.maxCpuOpsPerGap);
    auto begin = static_cast<std::uint32_t>(out_.cpuOps.size());
    out_.cpuOps.insert(out_.cpuOps.end(), ops.begin(), ops.end());
    return {begin, static_cast<std::uint32_t>(ops.size())};
  }

  const Trace& trace_;
  const GapOptions& options_;
  GapAnalysis& out_;
  GapClassifier classifier_;
  CpuBlamer blamer_;
  BlameTotals gapTotals_;
  BlameTotals overheadTotals_;
};

void addNotes(const CallTable& calls, const GpuTimelines& gpu, GapAnalysis& out) {
  if (gpu.opsWithCorrelation == 0)
    out.notes.push_back(
        "no correlation ids: nothing links launch calls to GPU ops, so every gap's cause is "
        "'other'");
  if (calls.launchCallsWithoutCorrelation > 0)
    out.notes.push_back(std::to_string(calls.launchCallsWithoutCorrelation) +
                        " launch calls carry no correlation id");
}

}  // namespace
}  // namespace gaps_detail

GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options) {
  using namespace gaps_detail;
  GapAnalysis out;
  GpuTimelines gpu = buildGpuTimelines(trace);
  if (gpu.ops == 0) {
    out.noGpuReason = "no GPU activity: the trace has no kernel, memcpy or memset events";
    out.verdict = makeVerdict(out, options);
    return out;
  }
  out.hasGpuActivity = true;
  CallTable calls = buildCallTable(trace);
  GapRunner runner(trace, calls, options, out);
  for (DeviceTimeline& d : gpu.devices) {
    out.devices.push_back(statsFromBlocks(d.blocks, d.device, -1, d.ops));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    bool oneStream = d.streams.size() == 1;
    runner.run(d.blocks, nullptr, d.device, d.gaps, out.devices.back(), nullptr,
               oneStream ? &ranges : nullptr);
    for (std::uint32_t si : d.streams) {
      StreamTimeline& st = gpu.streams[si];
      out.streams.push_back(statsFromBlocks(st.blocks, st.device, st.stream, st.ops.size()));
      runner.run(st.blocks, &st.stream, st.device, st.gaps, out.streams.back(),
                 oneStream ? &ranges : nullptr, nullptr);
    }
  }
  out.overheadCpuOps = runner.overheadCpuOps();
  addNotes(calls, gpu, out);
  fillLaunchStats(trace, calls, gpu, options, out);
  if (options.perStep) fillSteps(trace, calls, gpu, out);
  out.verdict = makeVerdict(out, options);
  return out;
}

}  // namespace gapscope::analysis
