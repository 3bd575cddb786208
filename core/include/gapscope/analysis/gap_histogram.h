// The device gaps by length, per cause, in 1-2-5 bins: how many gaps of
// each length and how much idle time they hold. One definition for the
// app's gap chart and the reports' gap histogram. Idle time is what
// matters: a few long gaps can hold most of it while short ones dominate
// the count, so charts show idle time first and counts beside it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/timeline/histogram.h"

namespace gapscope::analysis {

struct GapHistogram {
  timeline::DurationHistogram bins;  // over the lengths of the device gaps
  std::vector<std::array<std::uint64_t, kGapCauseCount>> count;  // per bin, by GapCause
  std::vector<std::array<TimeNs, kGapCauseCount>> idleNs;        // per bin, by GapCause
  std::uint64_t gapsIn(std::size_t bin) const;
  TimeNs idleIn(std::size_t bin) const;
};

// The listed device gaps (the whole GPU idle) at least `minGapNs` long.
GapHistogram deviceGapHistogram(const GapAnalysis& analysis, TimeNs minGapNs);

}  // namespace gapscope::analysis
