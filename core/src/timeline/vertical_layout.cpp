#include "gapscope/timeline/vertical_layout.h"

#include <algorithm>

namespace gapscope::timeline {

VerticalLayout::VerticalLayout(const TimelineLayout& layout, const std::vector<bool>& collapsed,
                               const VerticalMetrics& metrics)
    : metrics_(metrics) {
  const auto& groups = layout.groups();
  const auto& lanes = layout.lanes();
  groupY_.assign(groups.size(), 0);
  collapsed_.assign(groups.size(), false);
  laneY_.assign(lanes.size(), 0);
  laneH_.assign(lanes.size(), 0);
  laneGroup_.assign(lanes.size(), kNoIndex);
  rowY_.assign(layout.rows().size(), 0);
  rowH_.assign(layout.rows().size(), 0);
  rowLane_.assign(layout.rows().size(), kNoIndex);

  double y = 0;
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    collapsed_[g] = g < collapsed.size() && collapsed[g];
    groupY_[g] = y;
    y += metrics.groupHeader;
    for (std::uint32_t l : groups[g].lanes) {
      const Lane& lane = lanes[l];
      laneGroup_[l] = g;
      laneY_[l] = y;
      for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
        rowLane_[r] = l;
        rowY_[r] = y;
      }
      if (collapsed_[g]) continue;
      const double rowH = lane.kind == LaneKind::Counter ? metrics.counterHeight : metrics.rowHeight;
      for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
        rowY_[r] = y;
        rowH_[r] = rowH;
        y += rowH;
      }
      laneH_[l] = y - laneY_[l];
      y += metrics.laneGap;
    }
  }
  total_ = y;
}

VerticalLayout::Hit VerticalLayout::hitTest(double y) const {
  Hit hit;
  if (y < 0 || y >= total_ || groupY_.empty()) return hit;
  const auto g = static_cast<std::uint32_t>(
      std::upper_bound(groupY_.begin(), groupY_.end(), y) - groupY_.begin() - 1);
  hit.group = g;
  if (y < groupY_[g] + metrics_.groupHeader) {
    hit.header = true;
    return hit;
  }
  // Rows are in y order; the last one starting at or above y is the candidate.
  auto it = std::upper_bound(rowY_.begin(), rowY_.end(), y);
  while (it != rowY_.begin()) {
    --it;
    const auto r = static_cast<std::uint32_t>(it - rowY_.begin());
    if (rowH_[r] <= 0) continue;  // rows of collapsed groups share a y
    if (y < rowY_[r] + rowH_[r] && laneGroup_[rowLane_[r]] == g) {
      hit.row = r;
      hit.lane = rowLane_[r];
    }
    break;
  }
  return hit;
}

std::vector<std::uint32_t> VerticalLayout::rowsBetween(double y0, double y1) const {
  std::vector<std::uint32_t> out;
  // The first row that may reach y0: rows never exceed the largest row height.
  const double tallest = std::max(metrics_.rowHeight, metrics_.counterHeight);
  auto it = std::lower_bound(rowY_.begin(), rowY_.end(), y0 - tallest);
  for (; it != rowY_.end() && *it < y1; ++it) {
    const auto r = static_cast<std::uint32_t>(it - rowY_.begin());
    if (rowH_[r] > 0 && rowY_[r] + rowH_[r] > y0) out.push_back(r);
  }
  return out;
}

}  // namespace gapscope::timeline
