// Where groups, lanes and rows sit vertically, for one set of collapsed
// groups: a header strip per group, then (unless collapsed) its lanes, each
// a stack of rows (a counter lane is one taller row). Rebuilt when a group
// is collapsed or expanded; O(rows).
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

class VerticalLayout {
 public:
  VerticalLayout() = default;
  // collapsed[g] hides group g's lanes; a short vector means "not collapsed".
  VerticalLayout(const TimelineLayout& layout, const std::vector<bool>& collapsed,
                 const VerticalMetrics& metrics);

  double totalHeight() const { return total_; }
  double groupY(std::uint32_t g) const { return groupY_[g]; }
  bool groupCollapsed(std::uint32_t g) const { return collapsed_[g]; }
  double laneY(std::uint32_t lane) const { return laneY_[lane]; }
  double laneHeight(std::uint32_t lane) const { return laneH_[lane]; }
  double rowY(std::uint32_t row) const { return rowY_[row]; }
  double rowHeight(std::uint32_t row) const { return rowH_[row]; }
  bool rowShown(std::uint32_t row) const { return rowH_[row] > 0; }
  const VerticalMetrics& metrics() const { return metrics_; }

  struct Hit {
    std::uint32_t group = kNoIndex;
    std::uint32_t lane = kNoIndex;  // kNoIndex on a group header or a gap
    std::uint32_t row = kNoIndex;
    bool header = false;            // on the group's header strip
  };
  Hit hitTest(double y) const;

  // Shown rows overlapping [y0, y1), in order.
  std::vector<std::uint32_t> rowsBetween(double y0, double y1) const;

 private:
  VerticalMetrics metrics_;
  std::vector<double> groupY_, laneY_, laneH_, rowY_, rowH_;
  std::vector<bool> collapsed_;
  std::vector<std::uint32_t> rowLane_;
  std::vector<std::uint32_t> laneGroup_;
  double total_ = 0;
};

}  // namespace gapscope::timeline
