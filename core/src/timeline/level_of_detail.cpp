#include "gapscope/timeline/level_of_detail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscope::timeline {

namespace {

// A run of sub-pixel slices being merged into one rectangle.
struct Run {
  bool active = false;
  double x0 = 0;  // whole pixels
  double x1 = 0;
  std::uint32_t widest = 0;
  TimeNs widestDur = -1;
  std::uint16_t colour = 0;
};

class RowPainter {
 public:
  RowPainter(const RowSlices& row, const TimelineLayout& layout, const TimeScale& scale,
             std::vector<SliceRect>& out)
      : row_(row), layout_(layout), scale_(scale), out_(out) {}

  // Handles position k; returns the next position to look at.
  std::uint32_t step(std::uint32_t k, bool mayJump) {
    const Slice& s = row_[k];
    const double x0 = scale_.toPixel(s.start);
    const double x1 = scale_.toPixel(s.end());
    if (x1 - x0 >= kMinRectPx) {
      flush();
      emit(x0, x1, row_.sliceIndex(k), layout_.colourClass(s), false);
      return k + 1;
    }
    const double px = std::floor(x0);
    if (run_.active && px <= run_.x1) {
      run_.x1 = std::max(run_.x1, std::max(px + 1, std::ceil(x1)));
    } else {
      flush();
      run_ = Run{true, px, std::max(px + 1, std::ceil(x1)), 0, -1, 0};
    }
    if (s.dur > run_.widestDur) {
      run_.widest = row_.sliceIndex(k);
      run_.widestDur = s.dur;
      run_.colour = layout_.colourClass(s);
    }
    if (!mayJump) return k + 1;
    // Skip the rest of this pixel. In a disjoint row only the last slice
    // starting inside the pixel can reach beyond it, so it is not skipped.
    const std::uint32_t next = row_.lowerBoundStart(scale_.toTime(px + 1), k + 1);
    return next - 1 > k ? next - 1 : next;
  }

  void flush() {
    if (!run_.active) return;
    emit(run_.x0, run_.x1, run_.widest, run_.colour, true);
    run_.active = false;
  }

 private:
  void emit(double x0, double x1, std::uint32_t slice, std::uint16_t colour, bool merged) {
    const double w = scale_.width();
    SliceRect r;
    r.x0 = static_cast<float>(std::clamp(x0, -1.0, w + 1));
    r.x1 = static_cast<float>(std::clamp(x1, -1.0, w + 1));
    r.slice = slice;
    r.colour = colour;
    r.merged = merged;
    out_.push_back(r);
  }

  const RowSlices& row_;
  const TimelineLayout& layout_;
  const TimeScale& scale_;
  std::vector<SliceRect>& out_;
  Run run_;
};

}  // namespace

void computeRowRects(const RowSlices& row, const LayoutRow& info, const TimelineLayout& layout,
                     const TimeScale& scale, std::vector<SliceRect>& out) {
  if (row.empty()) return;
  const TimeNs t0 = scale.start();
  const TimeNs t1 = scale.end();
  RowPainter painter(row, layout, scale, out);
  std::uint32_t k = firstReaching(row, info, t0);
  while (k < row.size() && row[k].start <= t1) {
    k = painter.step(k, info.disjoint);
  }
  painter.flush();
}

void computeRowRects(const Trace& trace, const TimelineLayout& layout, std::uint32_t row,
                     const TimeScale& scale, std::vector<SliceRect>& out) {
  if (row >= layout.rows().size()) return;
  computeRowRects(layout.rowSlices(trace, row), layout.rows()[row], layout, scale, out);
}

void computeCounterBars(const CounterSeries& series, const TimeScale& scale,
                        std::vector<CounterBar>& out) {
  const std::size_t n = std::min(series.ts.size(), series.values.size());
  if (n == 0) return;
  const TimeNs t0 = scale.start();
  const TimeNs t1 = scale.end();
  const auto columns = static_cast<std::size_t>(std::ceil(scale.width()));
  constexpr double kEmpty = -std::numeric_limits<double>::infinity();
  std::vector<double> column(columns, kEmpty);

  // The sample in force at t0 is the last one at or before it.
  std::size_t k = static_cast<std::size_t>(
      std::upper_bound(series.ts.begin(), series.ts.begin() + static_cast<std::ptrdiff_t>(n), t0) -
      series.ts.begin());
  if (k > 0) --k;
  for (; k < n && series.ts[k] <= t1; ++k) {
    // The last sample holds for one pixel only: what follows is unknown.
    const double x0 = scale.toPixel(series.ts[k]);
    const double x1 = k + 1 < n ? scale.toPixel(series.ts[k + 1]) : x0 + 1;
    const auto c0 = static_cast<std::ptrdiff_t>(std::floor(std::max(0.0, x0)));
    const auto c1 = static_cast<std::ptrdiff_t>(
        std::min<double>(static_cast<double>(columns), std::max(std::ceil(x1), std::floor(x0) + 1)));
    for (std::ptrdiff_t c = c0; c < c1; ++c) {
      column[static_cast<std::size_t>(c)] = std::max(column[static_cast<std::size_t>(c)], series.values[k]);
    }
  }
  for (std::size_t c = 0; c < columns; ++c) {
    if (column[c] == kEmpty) continue;
    if (!out.empty() && out.back().x1 == static_cast<float>(c) && out.back().value == column[c]) {
      out.back().x1 = static_cast<float>(c + 1);
    } else {
      out.push_back(CounterBar{static_cast<float>(c), static_cast<float>(c + 1), column[c]});
    }
  }
}

}  // namespace gapscope::timeline
