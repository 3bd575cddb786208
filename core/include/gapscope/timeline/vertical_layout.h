// Where groups, lanes and rows sit vertically, for one choice of collapsed
// groups, collapsed lanes, pinned groups and pinned lanes. Top to bottom:
// the pinned groups (in group order), the pinned lanes (under a "Pinned"
// header, in the order they were pinned), then the other groups. A group is
// a header strip, then (unless collapsed) its lanes that are not pinned on
// their own, each a stack of rows (a counter lane is one taller row; a
// collapsed lane shows its first row only, its top-level slices). Rebuilt
// when any of that changes; O(rows log rows).
//
// The pinned section stays put while the rest scrolls under it:
// screenY() and contentY() map between the two with the scroll offset.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/timeline/layout.h"

namespace gapscope::timeline {

struct VerticalMetrics {
  double groupHeader = 24;   // the clickable process/device strip
  double rowHeight = 18;     // one depth of a slice lane
  double counterHeight = 40; // a counter lane
  double laneGap = 6;        // between lanes (holds the separator line)
};

// What the user chose to hide and pin. Short vectors mean "none".
struct VerticalChoices {
  std::vector<bool> collapsedGroups;          // per group
  std::vector<bool> collapsedLanes;           // per lane
  std::vector<std::uint32_t> pinnedLanes;     // lane indices, in pin order
  std::vector<bool> pinnedGroups;             // per group
};

// The group index a hit on the pinned section's header reports.
inline constexpr std::uint32_t kPinnedGroup = kNoIndex - 1;

class VerticalLayout {
 public:
  VerticalLayout() = default;
  VerticalLayout(const TimelineLayout& layout, const VerticalChoices& choices, const VerticalMetrics& metrics);

  double totalHeight() const { return total_; }
  // The pinned section's height (header and lanes); 0 when nothing is pinned.
  double pinnedHeight() const { return pinnedH_; }
  double groupY(std::uint32_t g) const { return groupY_[g]; }
  bool groupCollapsed(std::uint32_t g) const { return collapsed_[g]; }
  bool laneCollapsed(std::uint32_t lane) const { return laneCollapsed_[lane]; }
  bool lanePinned(std::uint32_t lane) const { return lanePinned_[lane]; }
  bool groupPinned(std::uint32_t g) const { return groupPinned_[g]; }
  // Groups and the "Pinned" lanes section (kPinnedGroup) from top to bottom.
  const std::vector<std::uint32_t>& sections() const { return sectionGroup_; }
  double laneY(std::uint32_t lane) const { return laneY_[lane]; }
  double laneHeight(std::uint32_t lane) const { return laneH_[lane]; }
  double rowY(std::uint32_t row) const { return rowY_[row]; }
  double rowHeight(std::uint32_t row) const { return rowH_[row]; }
  bool rowShown(std::uint32_t row) const { return rowH_[row] > 0; }
  const VerticalMetrics& metrics() const { return metrics_; }
  const std::vector<std::uint32_t>& pinnedLanes() const { return pinned_; }
  double pinnedLanesY() const { return pinnedLanesY_; }  // the "Pinned" header, when lanes are pinned

  // Content y (this layout's coordinates) <-> y in a view of `viewHeight`
  // scrolled by `scroll`, 0 at its top: the pinned section does not move.
  double screenY(double contentY, double scroll) const {
    return contentY < pinnedH_ ? contentY : contentY - scroll;
  }
  double contentY(double screenY, double scroll) const {
    return screenY < pinnedH_ ? screenY : screenY + scroll;
  }
  // True when [contentY, contentY + h) shows in such a view: pinned
  // content always, scrolled content below the pinned section.
  bool shown(double contentY, double h, double scroll, double viewHeight) const;
  // The largest useful scroll.
  double maxScroll(double viewHeight) const;

  struct Hit {
    std::uint32_t group = kNoIndex;  // kPinnedGroup on the pinned section
    std::uint32_t lane = kNoIndex;   // kNoIndex on a group header or a gap
    std::uint32_t row = kNoIndex;
    bool header = false;             // on the group's (or the pinned section's) header strip
  };
  Hit hitTest(double contentY) const;

  // Shown rows overlapping [y0, y1) in content coordinates, in y order.
  std::vector<std::uint32_t> rowsBetween(double y0, double y1) const;
  // The shown rows of a view scrolled by `scroll`: pinned ones, then the
  // scrolled ones below the pinned section.
  std::vector<std::uint32_t> rowsInView(double scroll, double viewHeight) const;

 private:
  void placeLane(const TimelineLayout& layout, std::uint32_t lane, std::uint32_t group, double& y);
  void placeGroup(const TimelineLayout& layout, std::uint32_t g, double& y);

  VerticalMetrics metrics_;
  std::vector<double> groupY_, laneY_, laneH_, rowY_, rowH_;
  std::vector<bool> collapsed_, laneCollapsed_, lanePinned_, groupPinned_;
  std::vector<std::uint32_t> rowLane_;
  std::vector<std::uint32_t> laneGroup_;  // where the lane sits: its group, or kPinnedGroup
  std::vector<std::uint32_t> pinned_;
  // Shown rows in y order, and where each section (the pinned one, then the
  // groups) starts, for binary searches.
  std::vector<std::uint32_t> byY_;
  std::vector<double> byYTop_;
  std::vector<double> sectionY_;
  std::vector<std::uint32_t> sectionGroup_;
  double pinnedH_ = 0;
  double pinnedLanesY_ = 0;
  double total_ = 0;
};

}  // namespace gapscope::timeline
