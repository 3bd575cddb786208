// The launch-gap overlay of the timeline: the listed gaps of a GapAnalysis
// sorted onto the lanes they belong to (stream gaps onto their stream's
// lane, device gaps onto the device's group header), filtered by a minimum
// duration, and drawn with the same level of detail as slices: a pixel full
// of tiny gaps becomes one mark coloured by the cause of the longest.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/timeline/layout.h"
#include "gapscope/timeline/level_of_detail.h"

namespace gapscope::timeline {

class GapOverlay {
 public:
  GapOverlay() = default;
  // Keeps gaps at least `minGapNs` long.
  GapOverlay(const Trace& trace, const TimelineLayout& layout,
             const analysis::GapAnalysis& gaps, TimeNs minGapNs);

  // Gap indices (into GapAnalysis::gaps) of a stream lane / a device group,
  // sorted by start; empty when none.
  const std::vector<std::uint32_t>& laneGaps(std::uint32_t lane) const;
  const std::vector<std::uint32_t>& groupGaps(std::uint32_t group) const;
  TimeNs minGapNs() const { return minGapNs_; }
  std::size_t shown() const { return shown_; }

  // The lane (or, for a device gap, kNoIndex) a gap is drawn on.
  std::uint32_t laneOfGap(const analysis::Gap& gap) const;
  std::uint32_t groupOfGap(const analysis::Gap& gap) const;

 private:
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> byLane_;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> byGroup_;
  std::unordered_map<std::int64_t, std::uint32_t> laneOfStream_;  // key: device << 40 | stream
  std::unordered_map<std::int32_t, std::uint32_t> groupOfDevice_;
  TimeNs minGapNs_ = 0;
  std::size_t shown_ = 0;
};

// Rectangles of the gaps `indices` (sorted, disjoint) in `scale`; `index`
// is a gap index, `colour` the GapCause as a number.
void computeGapRects(const analysis::GapAnalysis& gaps, const std::vector<std::uint32_t>& indices,
                     const TimeScale& scale, std::vector<IntervalRect>& out);

}  // namespace gapscope::timeline
