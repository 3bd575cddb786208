#include "ranks/heat_map_geometry.h"

#include <algorithm>
#include <cmath>

namespace gapscope::app {

namespace {

constexpr int kLabelGap = 6;  // between a label and the cells

// One axis: the cell extent that fills `room` with `count` cells, within
// [kMinCell, largest].
int fittedCell(int room, int count, int largest) {
  if (count <= 0) return largest;
  return std::clamp(room / count, HeatMapGeometry::kMinCell, largest);
}

}  // namespace

int labelStride(double minimum) {
  for (int decade = 1;; decade *= 10) {
    for (int m : {1, 2, 5}) {
      if (m * decade >= minimum) return m * decade;
    }
    if (decade > 100'000'000) return decade * 10;
  }
}

bool labelledAt(int index, long long number, bool consecutive, int stride) {
  if (stride <= 1) return true;
  return consecutive ? number % stride == 0 : index % stride == 0;
}

bool consecutive(const std::vector<std::int64_t>& numbers) {
  for (std::size_t i = 1; i < numbers.size(); ++i) {
    if (numbers[i] != numbers[i - 1] + 1) return false;
  }
  return true;
}

HeatMapGeometry layoutHeatMap(int rows, int columns, const QRect& area, const HeatMapFont& font, int scrollBar) {
  HeatMapGeometry g;
  const int left = area.left() + font.rowLabelWidth + kLabelGap;
  const int top = area.top() + font.lineHeight + kLabelGap;
  int width = area.right() + 1 - left;
  int height = area.bottom() + 1 - top;
  // Taller than two lines a cell only wastes room; as wide as the room
  // allows, so a few steps read as wide bars.
  const int tallest = 2 * font.lineHeight + 4;
  const int widest = std::max(HeatMapGeometry::kMinCell, width);
  // A scroll bar along one edge takes room from the other direction.
  g.scrollsVertically = rows * HeatMapGeometry::kMinCell > height;
  if (g.scrollsVertically) width -= scrollBar;
  g.scrollsHorizontally = columns * HeatMapGeometry::kMinCell > width;
  if (g.scrollsHorizontally) {
    height -= scrollBar;
    if (!g.scrollsVertically && rows * HeatMapGeometry::kMinCell > height) {
      g.scrollsVertically = true;
      width -= scrollBar;
    }
  }
  width = std::max(width, 0);
  height = std::max(height, 0);
  g.cellWidth = fittedCell(width, columns, widest);
  g.cellHeight = fittedCell(height, rows, tallest);
  g.content = QSize(columns * g.cellWidth, rows * g.cellHeight);
  g.cells = QRect(left, top, std::min(width, g.content.width()), std::min(height, g.content.height()));
  g.rowLabelStride = labelStride(static_cast<double>(font.lineHeight) / g.cellHeight);
  g.columnLabelStride = labelStride(static_cast<double>(font.columnLabelWidth + kLabelGap) / g.cellWidth);
  return g;
}

}  // namespace gapscope::app
