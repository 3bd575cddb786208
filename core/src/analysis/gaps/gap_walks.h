// The two walks over busy blocks that find the gaps, run side by side on
// a big trace: every device's gaps with their CPU ops, and every stream's
// gaps with the CPU ops no device gap has for them; then how their CPU-op
// entries are joined into one pool.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu_blame.h"
#include "gap_classifier.h"
#include "gpu_ops.h"
#include "steps.h"
#include "gapscope/analysis/gpu_busy.h"

namespace gapscope::analysis::gaps_detail {

struct Context {
  const Trace& trace;
  const GapOptions& options;
  const CallTable& calls;
  const GpuTimelines& gpu;
  const GpuBusy& busy;
  const GapClassifier& classifier;
};

// What the device side makes besides its part of the gap list. Each side
// of round 2 keeps its results in its own objects until it is done: two
// threads writing neighbouring fields of GapAnalysis for every gap would
// fight over the cache line.
struct DeviceSide {
  std::vector<UtilizationStats> stats;
  std::vector<CpuOpBlame> cpuOps;
  std::vector<CpuOpBlame> overheadCpuOps;
  std::vector<std::vector<GapSpan>> unlisted;  // per device, when the steps need them
  std::uint64_t unlistedCount = 0;
};

// Device gaps, classified and (with blameCpuOps) attributed to CPU ops;
// listed ones go to `gaps` from the front. cpuOpsRoom: entries to reserve.
DeviceSide walkDeviceGaps(const Context& c,
                          std::size_t cpuOpsRoom, Gap* gaps);

struct StreamSide {
  std::vector<UtilizationStats> stats;
  std::vector<std::vector<CpuOpBlame>> pools;  // per stream: the entries of its own blamed gaps
  std::uint64_t unlistedCount = 0;
};

// Stream gaps, classified; listed ones go to gaps[firstStreamGap...]
// (after the device gaps, which walkDeviceGaps writes meanwhile). A stream
// gap with the window and thread of a listed device gap will share that
// gap's CPU ops; the others get their own, in their stream's pool.
StreamSide walkStreamGaps(const Context& c, Gap* gaps,
                          std::size_t firstStreamGap);

// Where each stream's pool goes in GapAnalysis::cpuOps: after the device
// gaps' entries, stream by stream.
std::vector<std::uint32_t> poolOffsets(const std::vector<std::vector<CpuOpBlame>>& pools,
                                       std::size_t deviceEntries);
void appendPools(std::vector<std::vector<CpuOpBlame>>& pools, std::vector<CpuOpBlame>& cpuOps);
// Points every listed stream gap at its CPU-op entries: the device gap's
// it shares, or its own, moved by its stream's pool offset.
void pointStreamGapsAtCpuOps(const GpuTimelines& gpu, std::size_t firstStreamGap,
                             const std::vector<std::uint32_t>& offsets, GapAnalysis& out);

}  // namespace gapscope::analysis::gaps_detail
