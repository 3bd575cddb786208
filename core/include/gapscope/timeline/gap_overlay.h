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
#include "gapscope/timeline/start_buckets.h"

namespace gapscope::timeline {

// The gaps drawn on one lane or header, sorted by start, with an index for
// fast searches by time.
struct GapList {
  std::vector<std::uint32_t> indices;  // into GapAnalysis::gaps
  StartBuckets buckets;
  // The longest gaps' indices, longest first: all of them in a short list,
  // else as many as computeWideGapRects draws one by one, and one more.
  std::vector<std::uint32_t> longestFirst;
  bool empty() const { return indices.empty(); }
  std::size_t size() const { return indices.size(); }
};

class GapOverlay {
 public:
  GapOverlay() = default;
  // Keeps gaps at least `minGapNs` long.
  GapOverlay(const Trace& trace, const TimelineLayout& layout,
             const analysis::GapAnalysis& gaps, TimeNs minGapNs);

  // The gaps of a stream lane / of a device group's header; empty when none.
  const GapList& laneGaps(std::uint32_t lane) const;
  const GapList& groupGaps(std::uint32_t group) const;
  TimeNs minGapNs() const { return minGapNs_; }
  std::size_t shown() const { return shown_; }

  // The lane (or, for a device gap, kNoIndex) a gap is drawn on.
  std::uint32_t laneOfGap(const analysis::Gap& gap) const;
  std::uint32_t groupOfGap(const analysis::Gap& gap) const;

 private:
  std::unordered_map<std::uint32_t, GapList> byLane_;
  std::unordered_map<std::uint32_t, GapList> byGroup_;
  std::unordered_map<std::int64_t, std::uint32_t> laneOfStream_;  // key: device << 40 | stream
  std::unordered_map<std::int32_t, std::uint32_t> groupOfDevice_;
  TimeNs minGapNs_ = 0;
  std::size_t shown_ = 0;
};

// Rectangles of the gaps of `list` (sorted, disjoint) in `scale`; `index`
// is a gap index, `colour` the GapCause as a number.
void computeGapRects(const analysis::GapAnalysis& gaps, const GapList& list, const TimeScale& scale,
                     std::vector<IntervalRect>& out);

// Only the gaps at least one pixel wide (what the overlay paints): when few
// gaps are that long - zoomed out, with millions of tiny gaps - they are
// taken straight from the longest-first list instead of walking every gap.
// Same rectangles as computeGapRects without its merged runs.
void computeWideGapRects(const analysis::GapAnalysis& gaps, const GapList& list, const TimeScale& scale,
                         std::vector<IntervalRect>& out);

}  // namespace gapscope::timeline
