#include "gapscope/timeline/gap_overlay.h"

#include <algorithm>

#include "interval_lod.h"

namespace gapscope::timeline {

namespace {

std::int64_t streamKey(std::int32_t device, std::int64_t stream) {
  return (static_cast<std::int64_t>(device) << 40) ^ stream;
}

const std::vector<std::uint32_t>& lookup(
    const std::unordered_map<std::uint32_t, std::vector<std::uint32_t>>& map, std::uint32_t key) {
  static const std::vector<std::uint32_t> kNone;
  const auto it = map.find(key);
  return it == map.end() ? kNone : it->second;
}

struct GapRow {
  const analysis::GapAnalysis& gaps;
  const std::vector<std::uint32_t>& indices;
  const analysis::Gap& at(std::uint32_t k) const { return gaps.gaps[indices[k]]; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(indices.size()); }
  TimeNs start(std::uint32_t k) const { return at(k).start; }
  TimeNs end(std::uint32_t k) const { return at(k).end(); }
  std::uint32_t id(std::uint32_t k) const { return indices[k]; }
  std::uint16_t colour(std::uint32_t k) const { return static_cast<std::uint16_t>(at(k).cause); }
  std::uint32_t lowerBoundStart(TimeNs t, std::uint32_t from) const {
    const auto it = std::partition_point(indices.begin() + from, indices.end(),
                                         [&](std::uint32_t g) { return gaps.gaps[g].start < t; });
    return static_cast<std::uint32_t>(it - indices.begin());
  }
};

}  // namespace

GapOverlay::GapOverlay(const Trace& trace, const TimelineLayout& layout,
                       const analysis::GapAnalysis& gaps, TimeNs minGapNs)
    : minGapNs_(minGapNs) {
  for (std::uint32_t l = 0; l < layout.lanes().size(); ++l) {
    const Lane& lane = layout.lanes()[l];
    if (lane.kind != LaneKind::Slices || lane.track >= trace.tracks.size()) continue;
    const Track& t = trace.tracks[lane.track];
    if (t.kind != TrackKind::GpuStream) continue;
    laneOfStream_.emplace(streamKey(t.device, t.stream), l);
    if (layout.groups()[lane.group].kind == GroupKind::Gpu) groupOfDevice_.emplace(t.device, lane.group);
  }
  for (std::uint32_t i = 0; i < gaps.gaps.size(); ++i) {
    const analysis::Gap& g = gaps.gaps[i];
    if (g.dur < minGapNs) continue;
    if (g.stream < 0) {
      const std::uint32_t group = groupOfGap(g);
      if (group == kNoIndex) continue;
      byGroup_[group].push_back(i);
    } else {
      const std::uint32_t lane = laneOfGap(g);
      if (lane == kNoIndex) continue;
      byLane_[lane].push_back(i);
    }
    ++shown_;
  }
  // GapAnalysis lists gaps by start already; keep that promise locally.
  const auto byStart = [&](std::uint32_t a, std::uint32_t b) { return gaps.gaps[a].start < gaps.gaps[b].start; };
  for (auto& [lane, v] : byLane_) std::stable_sort(v.begin(), v.end(), byStart);
  for (auto& [group, v] : byGroup_) std::stable_sort(v.begin(), v.end(), byStart);
}

const std::vector<std::uint32_t>& GapOverlay::laneGaps(std::uint32_t lane) const {
  return lookup(byLane_, lane);
}

const std::vector<std::uint32_t>& GapOverlay::groupGaps(std::uint32_t group) const {
  return lookup(byGroup_, group);
}

std::uint32_t GapOverlay::laneOfGap(const analysis::Gap& gap) const {
  if (gap.stream < 0) return kNoIndex;
  const auto it = laneOfStream_.find(streamKey(gap.device, gap.stream));
  return it == laneOfStream_.end() ? kNoIndex : it->second;
}

std::uint32_t GapOverlay::groupOfGap(const analysis::Gap& gap) const {
  const auto it = groupOfDevice_.find(gap.device);
  return it == groupOfDevice_.end() ? kNoIndex : it->second;
}

void computeGapRects(const analysis::GapAnalysis& gaps, const std::vector<std::uint32_t>& indices,
                     const TimeScale& scale, std::vector<IntervalRect>& out) {
  if (indices.empty()) return;
  const GapRow row{gaps, indices};
  // Gaps of one lane never overlap: the first reaching t0 is a binary search on ends.
  const auto first = std::partition_point(indices.begin(), indices.end(), [&](std::uint32_t g) {
    return gaps.gaps[g].end() < scale.start();
  });
  detail::IntervalWalk<GapRow> walk(row, scale, out);
  walk.run(static_cast<std::uint32_t>(first - indices.begin()), true);
}

}  // namespace gapscope::timeline
