// The gap list as a user reads it, ranked by the idle time that matters:
// the time the whole device sat idle. One definition for the CLI's `gaps`
// and the app's gap list.
//
// Device gaps (the whole GPU idle) come first in importance: each is its
// own device idle time. Stream gaps are listed only when asked for, and a
// stream gap that is exactly a gap of its whole device (always so on a
// one-stream device) is listed once, as the device gap. A stream gap while
// another stream kept the device busy causes no device idle: it ranks by
// the device idle inside it (zero), below every device gap.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/gpu_busy.h"

namespace gapscope::analysis {

struct RankedGap {
  std::uint32_t gap = kNoIndex;  // index into GapAnalysis::gaps
  TimeNs deviceIdle = 0;         // device idle time inside the gap (the gap's length for a device gap)
  bool deviceBusy() const { return deviceIdle == 0; }
};

struct GapListOptions {
  bool streams = false;  // add stream gaps
  TimeNs minGapNs = 0;   // shorter gaps are left out
  // Only gaps with first <= dur < second (a histogram bin); nullopt: all.
  std::optional<std::pair<TimeNs, TimeNs>> durationRange;
  // Only gaps overlapping this time range (a range the user selected).
  std::optional<TimeRange> timeRange;
};

// Largest device idle first (a device gap before a stream gap holding as
// much), then longest, then earliest.
std::vector<RankedGap> rankGaps(const GapAnalysis& analysis, const GpuBusy& busy, const GapListOptions& options);

// Every gap a list can show, ranked as rankGaps ranks them: the device
// gaps and the stream gaps that are not exactly a device gap, sorted on up
// to `threads` threads. TraceAnalysis::rankedGaps holds it for a viewer.
std::vector<RankedGap> rankAllGaps(const GapAnalysis& analysis, const GpuBusy& busy, int threads = 1);

// The rows of `all` (rankAllGaps of `analysis`) that `options` keep, in
// its order: rankGaps(analysis, busy, options) without sorting again, so
// that a change of the options costs a pass, not a sort (the app's gap
// list on its GUI thread).
std::vector<RankedGap> listRanked(const GapAnalysis& analysis, const std::vector<RankedGap>& all,
                                  const GapListOptions& options);

// The part of [start, start + dur) on `device` when no stream of it was busy.
TimeNs deviceIdleIn(const GpuBusy& busy, std::int32_t device, TimeNs start, TimeNs dur);

}  // namespace gapscope::analysis
