#include "gapscope/timeline/vertical_layout.h"

#include <algorithm>

namespace gapscope::timeline {

namespace {

bool chosen(const std::vector<bool>& flags, std::uint32_t i) { return i < flags.size() && flags[i]; }

}  // namespace

void VerticalLayout::placeLane(const TimelineLayout& layout, std::uint32_t l, std::uint32_t group, double& y) {
  const Lane& lane = layout.lanes()[l];
  laneGroup_[l] = group;
  laneY_[l] = y;
  for (std::uint32_t r = lane.firstRow; r < lane.firstRow + lane.rowCount; ++r) {
    rowLane_[r] = l;
    rowY_[r] = y;
  }
  if (group != kPinnedGroup && collapsed_[group]) return;
  const double rowH = lane.curve() ? metrics_.counterHeight : metrics_.rowHeight;
  // A collapsed lane keeps its first row: the top-level slices.
  const std::uint32_t shownRows = laneCollapsed_[l] ? std::min<std::uint32_t>(lane.rowCount, 1) : lane.rowCount;
  for (std::uint32_t r = lane.firstRow; r < lane.firstRow + shownRows; ++r) {
    rowY_[r] = y;
    rowH_[r] = rowH;
    y += rowH;
  }
  laneH_[l] = y - laneY_[l];
  y += metrics_.laneGap;
}

void VerticalLayout::placeGroup(const TimelineLayout& layout, std::uint32_t g, double& y) {
  groupY_[g] = y;
  sectionY_.push_back(y);
  sectionGroup_.push_back(g);
  y += metrics_.groupHeader;
  for (std::uint32_t l : layout.groups()[g].lanes)
    if (!lanePinned_[l]) placeLane(layout, l, g, y);
}

VerticalLayout::VerticalLayout(const TimelineLayout& layout, const VerticalChoices& choices,
                               const VerticalMetrics& metrics)
    : metrics_(metrics) {
  const auto& groups = layout.groups();
  const auto& lanes = layout.lanes();
  groupY_.assign(groups.size(), 0);
  collapsed_.assign(groups.size(), false);
  laneY_.assign(lanes.size(), 0);
  laneH_.assign(lanes.size(), 0);
  laneGroup_.assign(lanes.size(), kNoIndex);
  laneCollapsed_.assign(lanes.size(), false);
  lanePinned_.assign(lanes.size(), false);
  rowY_.assign(layout.rows().size(), 0);
  rowH_.assign(layout.rows().size(), 0);
  rowLane_.assign(layout.rows().size(), kNoIndex);
  for (std::uint32_t g = 0; g < groups.size(); ++g) collapsed_[g] = chosen(choices.collapsedGroups, g);
  for (std::uint32_t l = 0; l < lanes.size(); ++l) laneCollapsed_[l] = chosen(choices.collapsedLanes, l);

  groupPinned_.assign(groups.size(), false);
  for (std::uint32_t g = 0; g < groups.size(); ++g) groupPinned_[g] = chosen(choices.pinnedGroups, g);
  for (std::uint32_t l : choices.pinnedLanes)
    if (l < lanes.size()) lanePinned_[l] = true;

  double y = 0;
  for (std::uint32_t g = 0; g < groups.size(); ++g)
    if (groupPinned_[g]) placeGroup(layout, g, y);
  std::vector<bool> placed(lanes.size(), false);
  for (std::uint32_t l : choices.pinnedLanes) {
    if (l >= lanes.size() || placed[l]) continue;
    placed[l] = true;
    if (pinned_.empty()) {
      pinnedLanesY_ = y;
      sectionY_.push_back(y);
      sectionGroup_.push_back(kPinnedGroup);
      y += metrics.groupHeader;
    }
    pinned_.push_back(l);
    placeLane(layout, l, kPinnedGroup, y);
  }
  pinnedH_ = y;
  for (std::uint32_t g = 0; g < groups.size(); ++g)
    if (!groupPinned_[g]) placeGroup(layout, g, y);
  total_ = y;

  for (std::uint32_t r = 0; r < rowH_.size(); ++r)
    if (rowH_[r] > 0) byY_.push_back(r);
  std::sort(byY_.begin(), byY_.end(), [&](std::uint32_t a, std::uint32_t b) { return rowY_[a] < rowY_[b]; });
  byYTop_.reserve(byY_.size());
  for (std::uint32_t r : byY_) byYTop_.push_back(rowY_[r]);
}

bool VerticalLayout::shown(double y, double h, double scroll, double viewHeight) const {
  if (y < pinnedH_) return true;
  const double top = y - scroll;
  return top + h > pinnedH_ && top < viewHeight;
}

double VerticalLayout::maxScroll(double viewHeight) const { return std::max(0.0, total_ - viewHeight); }

VerticalLayout::Hit VerticalLayout::hitTest(double y) const {
  Hit hit;
  if (y < 0 || y >= total_ || sectionY_.empty()) return hit;
  const auto s = static_cast<std::size_t>(std::upper_bound(sectionY_.begin(), sectionY_.end(), y) - sectionY_.begin() - 1);
  hit.group = sectionGroup_[s];
  if (y < sectionY_[s] + metrics_.groupHeader) {
    hit.header = true;
    return hit;
  }
  // The last shown row starting at or above y is the candidate.
  auto it = std::upper_bound(byYTop_.begin(), byYTop_.end(), y);
  if (it == byYTop_.begin()) return hit;
  const std::uint32_t r = byY_[static_cast<std::size_t>(it - byYTop_.begin() - 1)];
  if (y < rowY_[r] + rowH_[r] && laneGroup_[rowLane_[r]] == hit.group) {
    hit.row = r;
    hit.lane = rowLane_[r];
  }
  return hit;
}

std::vector<std::uint32_t> VerticalLayout::rowsBetween(double y0, double y1) const {
  std::vector<std::uint32_t> out;
  // The first row that may reach y0: rows never exceed the largest row height.
  const double tallest = std::max(metrics_.rowHeight, metrics_.counterHeight);
  auto it = std::lower_bound(byYTop_.begin(), byYTop_.end(), y0 - tallest);
  for (; it != byYTop_.end() && *it < y1; ++it) {
    const std::uint32_t r = byY_[static_cast<std::size_t>(it - byYTop_.begin())];
    if (rowY_[r] + rowH_[r] > y0) out.push_back(r);
  }
  return out;
}

std::vector<std::uint32_t> VerticalLayout::rowsInView(double scroll, double viewHeight) const {
  std::vector<std::uint32_t> out = rowsBetween(0, std::min(pinnedH_, viewHeight));
  if (viewHeight > pinnedH_) {
    const auto scrolled = rowsBetween(pinnedH_ + scroll, viewHeight + scroll);
    for (std::uint32_t r : scrolled)
      if (rowY_[r] >= pinnedH_) out.push_back(r);
  }
  return out;
}

}  // namespace gapscope::timeline
