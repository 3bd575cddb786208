// Level of detail: what to draw of one row for one (visible range, width).
//
// A row may hold millions of slices; a frame can show at most one thing per
// pixel. Slices at least kMinRectPx wide are drawn as they are. Narrower ones
// start or extend a run of occupied pixels: one visited slice per pixel,
// then a binary search jumps to the first slice of the next pixel, so a row
// costs O(pixels x log n) whatever its size. A run is drawn as one rectangle
// (at least one pixel wide) in the colour of the widest slice visited in it,
// so every occupied pixel gets a mark and busy regions stay visible when
// zoomed out.
//
// Rows whose slices overlap (spilled rows in broken traces) cannot jump
// safely: there every visible slice is visited (O(visible slices)).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gapscope/model/trace.h"
#include "gapscope/timeline/layout.h"
#include "gapscope/timeline/time_scale.h"

namespace gapscope::timeline {

// Narrower than this a slice is merged into a run. Below one pixel nothing
// can be drawn apart.
inline constexpr double kMinRectPx = 1.0;

// One rectangle to draw of a row of intervals (slices, or gaps in the overlay).
struct IntervalRect {
  float x0 = 0;  // pixels of the scale, clipped to [-1, width + 1]
  float x1 = 0;
  std::uint32_t index = kNoIndex;  // the interval drawn (a slice index), or the widest of a run
  std::uint16_t colour = 0;        // its colour class
  bool merged = false;             // a run of sub-pixel intervals
};
using SliceRect = IntervalRect;

// Appends the rectangles of row `row` in `scale` to `out` (in x order);
// `index` is a slice index, `colour` its TimelineLayout::colourClass.
void computeRowRects(const Trace& trace, const TimelineLayout& layout, std::uint32_t row,
                     const TimeScale& scale, std::vector<SliceRect>& out);

// Same, on any start-sorted row view described by `info` (disjoint, maxDuration).
void computeRowRects(const RowSlices& slices, const LayoutRow& info, const TimelineLayout& layout,
                     const TimeScale& scale, std::vector<SliceRect>& out);

// One column range of a counter lane: the highest value held in it.
struct CounterBar {
  float x0 = 0;
  float x1 = 0;
  double value = 0;
};

// A counter holds each value until its next sample. Per pixel the highest
// value held there is kept (peaks never vanish when zoomed out); equal
// neighbouring pixels merge. O(pixels + visible samples).
void computeCounterBars(const CounterSeries& series, const TimeScale& scale,
                        std::vector<CounterBar>& out);

// The value a counter holds at `t` (its last sample at or before t); none
// before its first sample.
std::optional<double> counterValueAt(const CounterSeries& series, TimeNs t);

}  // namespace gapscope::timeline
