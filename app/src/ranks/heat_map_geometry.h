// Where the heat map puts its cells and labels, worked out from the grid's
// size, the room it has and the font: cells shrink to fit the room (down to
// kMinCell pixels, then the map scrolls) and grow no taller than two lines
// of text; labels go on every k-th row or column (k = 1, 2, 5, 10, ...)
// when the cells are too small to label each.
#pragma once

#include <QRect>
#include <QSize>

#include <cstdint>
#include <vector>

namespace gapscope::app {

struct HeatMapGeometry {
  static constexpr int kMinCell = 4;

  int cellWidth = 0;
  int cellHeight = 0;
  int rowLabelStride = 1;     // label every k-th row
  int columnLabelStride = 1;  // label every k-th column
  QRect cells;                // where the visible cells go (the viewport)
  QSize content;              // all cells together; larger than `cells` when it scrolls
  bool scrollsHorizontally = false;
  bool scrollsVertically = false;
};

struct HeatMapFont {
  int lineHeight = 0;      // QFontMetrics::height()
  int rowLabelWidth = 0;   // the widest row label ("rank 127")
  int columnLabelWidth = 0;  // the widest column label ("1000")
};

// `area`: the widget's rectangle less the scroll bars it may need;
// `scrollBar`: their extent (taken away when they are needed).
HeatMapGeometry layoutHeatMap(int rows, int columns, const QRect& area, const HeatMapFont& font, int scrollBar);

// The smallest of 1, 2, 5, 10, 20, 50, ... at least `minimum`.
int labelStride(double minimum);

// Whether the row or column at `index`, numbered `number`, is labelled
// when every `stride`-th is: round numbers (5, 10, 15) where the numbers
// run without holes (`consecutive`), else every stride-th position.
bool labelledAt(int index, long long number, bool consecutive, int stride);

// Whether `numbers` run without holes (3, 4, 5, ...).
bool consecutive(const std::vector<std::int64_t>& numbers);

}  // namespace gapscope::app
