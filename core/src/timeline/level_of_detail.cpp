#include "gapscope/timeline/level_of_detail.h"

#include "interval_lod.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscope::timeline {

namespace {

// RowSlices seen through the interface IntervalWalk expects.
struct SliceRow {
  const RowSlices& slices;
  const TimelineLayout& layout;
  std::uint32_t size() const { return slices.size(); }
  TimeNs start(std::uint32_t k) const { return slices[k].start; }
  TimeNs end(std::uint32_t k) const { return slices[k].end(); }
  std::uint32_t id(std::uint32_t k) const { return slices.sliceIndex(k); }
  std::uint16_t colour(std::uint32_t k) const { return layout.colourClass(slices[k]); }
  std::uint32_t lowerBoundStart(TimeNs t, std::uint32_t from) const { return slices.gallopStart(t, from); }
  const StartBuckets* buckets() const { return slices.buckets(); }
  const EdgeVisits* edges() const { return slices.edges(); }
};

}  // namespace

void computeRowRects(const RowSlices& row, const LayoutRow& info, const TimelineLayout& layout,
                     const TimeScale& scale, std::vector<SliceRect>& out) {
  if (row.empty()) return;
  const SliceRow view{row, layout};
  detail::IntervalWalk<SliceRow> walk(view, scale, out);
  walk.run(firstReaching(row, info, scale.start()), info.disjoint);
}

void computeRowRects(const Trace& trace, const TimelineLayout& layout, std::uint32_t row,
                     const TimeScale& scale, std::vector<SliceRect>& out) {
  if (row >= layout.rows().size()) return;
  computeRowRects(layout.rowSlices(trace, row), layout.rows()[row], layout, scale, out);
}

std::optional<double> counterValueAt(const CounterSeries& series, TimeNs t) {
  const std::size_t n = std::min(series.ts.size(), series.values.size());
  const auto end = series.ts.begin() + static_cast<std::ptrdiff_t>(n);
  const auto after = std::upper_bound(series.ts.begin(), end, t);
  if (after == series.ts.begin()) return std::nullopt;
  return series.values[static_cast<std::size_t>(after - series.ts.begin()) - 1];
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
