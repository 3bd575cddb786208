#include "gapscope/timeline/level_of_detail.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <algorithm>
#include <iterator>
#include <set>

#include "gapscope/model/trace_builder.h"

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

struct Span {
  TimeNs start;
  TimeNs dur;
  const char* name;
};

// One CPU thread holding `spans` (nesting decided by the builder).
Trace threadTrace(const std::vector<Span>& spans) {
  TraceBuilder b;
  for (const auto& s : spans) {
    SliceEvent e;
    e.pid = b.numericId(1);
    e.tid = b.numericId(1);
    e.start = s.start;
    e.dur = s.dur;
    e.name = b.intern(s.name);
    e.category = b.intern("cpu_op");
    b.addComplete(e);
  }
  return b.finish();
}

// Pixels [0, width) that some slice of the row touches, by brute force.
// The pixels slices occupy, computed in double; `edges` gets the pixels a
// slice enters or leaves less than a thousandth of a pixel past their border,
// where the float of a drawn rect (or a compiler's fused multiply-add in
// toPixel) may round the other way.
std::set<int> occupiedPixels(const RowSlices& row, const TimeScale& scale, std::set<int>* edges = nullptr) {
  constexpr double kEdge = 1e-3;
  std::set<int> px;
  const int width = static_cast<int>(scale.width());
  for (std::uint32_t k = 0; k < row.size(); ++k) {
    const double x0 = scale.toPixel(row[k].start);
    const double x1 = scale.toPixel(row[k].end());
    const int a = static_cast<int>(std::floor(x0));
    const int b = static_cast<int>(std::max(std::ceil(x1), std::floor(x0) + 1));
    for (int p = std::max(a, 0); p < std::min(b, width); ++p) px.insert(p);
    if (!edges) continue;
    // Just past a whole pixel (not on it): a float may land on the whole pixel.
    if (const double f = x1 - std::floor(x1); f > 0 && f < kEdge && b - 1 > a) edges->insert(b - 1);
    if (const double f = std::ceil(x0) - x0; f > 0 && f < kEdge && b - 1 > a) edges->insert(a);
  }
  return px;
}

std::set<int> markedPixels(const std::vector<SliceRect>& rects, const TimeScale& scale) {
  std::set<int> px;
  for (const auto& r : rects) {
    const int a = static_cast<int>(std::floor(r.x0));
    const int b = static_cast<int>(std::max(std::ceil(r.x1), std::floor(r.x0) + 1));
    for (int p = std::max(a, 0); p < std::min(b, static_cast<int>(scale.width())); ++p) px.insert(p);
  }
  return px;
}

}  // namespace

TEST(LevelOfDetail, WideSlicesAreDrawnExactly) {
  const Trace t = threadTrace({{100, 200, "a"}, {400, 100, "b"}});
  const auto layout = TimelineLayout::build(t);
  const auto scale = TimeScale::fit(0, 1000, 100);  // 10 ns per pixel
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, scale, rects);
  ASSERT_EQ(rects.size(), 2u);
  EXPECT_FLOAT_EQ(rects[0].x0, 10);
  EXPECT_FLOAT_EQ(rects[0].x1, 30);
  EXPECT_FALSE(rects[0].merged);
  EXPECT_EQ(t.str(t.slices[rects[0].index].name), "a");
  EXPECT_FLOAT_EQ(rects[1].x0, 40);
  EXPECT_FLOAT_EQ(rects[1].x1, 50);
  EXPECT_EQ(rects[1].colour, layout.colourClass(t.slices[rects[1].index]));
}

TEST(LevelOfDetail, SubPixelRunsMergeAndTheWidestDecidesTheColour) {
  // 10 ns per pixel: every slice is narrower than a pixel; they touch
  // neighbouring pixels so they form one run.
  const Trace t = threadTrace({{100, 1, "thin"}, {112, 8, "wide"}, {121, 2, "thin"}});
  const auto layout = TimelineLayout::build(t);
  const auto scale = TimeScale::fit(0, 1000, 100);
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, scale, rects);
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_TRUE(rects[0].merged);
  EXPECT_FLOAT_EQ(rects[0].x0, 10);
  EXPECT_FLOAT_EQ(rects[0].x1, 13);
  EXPECT_EQ(t.str(t.slices[rects[0].index].name), "wide");
  EXPECT_EQ(rects[0].colour, layout.colourClass(t.slices[rects[0].index]));
}

TEST(LevelOfDetail, SeparateRunsStaySeparate) {
  const Trace t = threadTrace({{100, 1, "a"}, {500, 1, "b"}});
  const auto layout = TimelineLayout::build(t);
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, TimeScale::fit(0, 1000, 100), rects);
  ASSERT_EQ(rects.size(), 2u);
  EXPECT_FLOAT_EQ(rects[0].x0, 10);
  EXPECT_FLOAT_EQ(rects[0].x1, 11);  // at least one pixel
  EXPECT_FLOAT_EQ(rects[1].x0, 50);
}

TEST(LevelOfDetail, OnlyTheVisibleWindowIsDrawnAndClipped) {
  const Trace t = threadTrace({{0, 100, "before"}, {150, 1000, "across"}, {5000, 10, "after"}});
  const auto layout = TimelineLayout::build(t);
  const auto scale = TimeScale::fit(200, 300, 100);
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, scale, rects);
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_EQ(t.str(t.slices[rects[0].index].name), "across");
  EXPECT_FLOAT_EQ(rects[0].x0, -1);
  EXPECT_FLOAT_EQ(rects[0].x1, 101);
}

TEST(LevelOfDetail, AWideSliceAfterATinyOneInTheSamePixelIsNotSkipped) {
  // The jump to the next pixel must not swallow the slice that starts in
  // this pixel and reaches far beyond it.
  const Trace t = threadTrace({{100, 1, "tiny"}, {104, 500, "long"}, {700, 1, "tiny"}});
  const auto layout = TimelineLayout::build(t);
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, TimeScale::fit(0, 1000, 100), rects);
  bool sawLong = false;
  for (const auto& r : rects) {
    if (t.str(t.slices[r.index].name) == "long") {
      sawLong = true;
      EXPECT_FALSE(r.merged);
      EXPECT_FLOAT_EQ(r.x1, 60.4f);
    }
  }
  EXPECT_TRUE(sawLong);
}

TEST(LevelOfDetail, EveryOccupiedPixelAndNothingElseIsMarked) {
  std::mt19937_64 rng(42);
  int coarseJumps = 0;
  for (int round = 0; round < 60; ++round) {
    // Small rows are bisected; big ones (over StartBuckets::kMinElements) use
    // the time-bucket index, and zoomed out its coarse jumps.
    const int count = round % 4 >= 2 ? 30000 : 3000;
    std::vector<Span> spans;
    TimeNs t = 0;
    std::geometric_distribution<TimeNs> gap(0.05), dur(round % 2 ? 0.002 : 0.2);
    const char* names[] = {"a", "b", "c"};
    for (int i = 0; i < count; ++i) {
      t += 1 + gap(rng);  // never touching: touching slices could nest
      const TimeNs d = 1 + dur(rng);
      spans.push_back({t, d, names[i % 3]});
      t += d;
    }
    const Trace trace = threadTrace(spans);
    const auto layout = TimelineLayout::build(trace);
    ASSERT_EQ(layout.rows().size(), 1u);
    EXPECT_EQ(layout.rows()[0].buckets.empty(), count < 4096);
    std::uniform_real_distribution<double> logZoom(std::log(0.05), std::log(count > 4096 ? 50000.0 : 2000.0));
    std::uniform_int_distribution<TimeNs> start(-100, t);
    const TimeScale scale(start(rng), std::exp(logZoom(rng)), 640);
    const auto& buckets = layout.rows()[0].buckets;
    if (!buckets.empty() && static_cast<double>(buckets.width()) <= scale.nsPerPixel()) ++coarseJumps;
    std::vector<SliceRect> rects;
    computeRowRects(trace, layout, 0, scale, rects);
    std::set<int> edges;
    const std::set<int> occupied = occupiedPixels(layout.rowSlices(trace, 0), scale, &edges);
    const std::set<int> marked = markedPixels(rects, scale);
    std::vector<int> missing, extra;
    std::set_difference(occupied.begin(), occupied.end(), marked.begin(), marked.end(), std::back_inserter(missing));
    std::set_difference(marked.begin(), marked.end(), occupied.begin(), occupied.end(), std::back_inserter(extra));
    std::erase_if(missing, [&edges](int p) { return edges.count(p) > 0; });
    std::erase_if(extra, [&edges](int p) { return edges.count(p) > 0; });
    EXPECT_TRUE(missing.empty() && extra.empty())
        << "round " << round << " ns/px " << scale.nsPerPixel() << ": " << missing.size() << " occupied pixels unmarked, "
        << extra.size() << " marked pixels unoccupied";
    EXPECT_LE(rects.size(), 641u);
    for (std::size_t i = 1; i < rects.size(); ++i) EXPECT_LE(rects[i - 1].x0, rects[i].x0);
  }
  EXPECT_GE(coarseJumps, 3);  // the coarse path was really exercised
}

TEST(LevelOfDetail, OverlappingRowsAreDrawnWithoutJumping) {
  // Nested slices viewed as one row overlap: the slow path must still mark
  // every occupied pixel.
  const Trace t = threadTrace({{0, 1000, "outer"}, {10, 1, "in1"}, {2000, 3, "x"}, {2001, 1, "y"}});
  const auto layout = TimelineLayout::build(t);
  const RowSlices all(t.slices.data(), 0u, static_cast<std::uint32_t>(t.slices.size()));
  LayoutRow info;
  info.disjoint = false;
  info.maxDuration = 1000;
  const auto scale = TimeScale::fit(500, 2500, 200);
  std::vector<SliceRect> rects;
  computeRowRects(all, info, layout, scale, rects);
  EXPECT_EQ(markedPixels(rects, scale), occupiedPixels(all, scale));
}

TEST(LevelOfDetail, AMillionTinySlicesBecomeAtMostOneMarkPerPixel) {
  std::vector<Span> spans;
  spans.reserve(1000000);
  for (TimeNs i = 0; i < 1000000; ++i) spans.push_back({i * 10, 5, "k"});
  const Trace t = threadTrace(spans);
  const auto layout = TimelineLayout::build(t);
  std::vector<SliceRect> rects;
  computeRowRects(t, layout, 0, TimeScale::fit(0, 10000000, 1000), rects);
  // Every pixel is occupied: one run across the whole width.
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_TRUE(rects[0].merged);
  EXPECT_FLOAT_EQ(rects[0].x0, 0);
  EXPECT_FLOAT_EQ(rects[0].x1, 1000);
}

// The copies of the slices at bucket edges (edge_visits.h) only spare the
// walk its reads of the model: the rectangles must be the very ones it
// draws reading every slice, at every zoom where it jumps through buckets.
TEST(LevelOfDetail, EdgeCopiesGiveTheSameRectanglesAsReadingTheSlices) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<TimeNs> pause(0, 400), shortDur(1, 50);
  std::vector<Span> spans;
  TimeNs t = 0;
  for (int i = 0; i < 60000; ++i) {
    // Mostly tiny slices, now and then a long one, and runs of idle time.
    const TimeNs dur = i % 997 == 0 ? 200000 : shortDur(rng);
    spans.push_back({t, dur, i % 3 == 0 ? "a" : (i % 3 == 1 ? "b" : "c")});
    t += dur + pause(rng) + (i % 5003 == 0 ? 3000000 : 0);
  }
  const Trace trace = threadTrace(spans);
  const auto layout = TimelineLayout::build(trace);
  ASSERT_EQ(layout.rows().size(), 1u);
  const LayoutRow& info = layout.rows()[0];
  ASSERT_TRUE(info.disjoint);
  ASSERT_FALSE(info.edges.empty());
  const RowSlices withEdges = layout.rowSlices(trace, 0);
  ASSERT_NE(withEdges.edges(), nullptr);
  const RowSlices slicesOnly = RowSlices(trace.slices.data(), std::uint32_t{0}, withEdges.size()).withBuckets(&info.buckets);
  ASSERT_EQ(slicesOnly.edges(), nullptr);
  int zoomsThatJump = 0;
  for (double fraction : {1.0, 0.5, 0.1, 0.03, 0.01}) {
    for (double width : {313.0, 1000.0, 1600.0}) {
      const TimeNs visible = static_cast<TimeNs>(static_cast<double>(t) * fraction);
      for (TimeNs from : {TimeNs{0}, (t - visible) / 3, t - visible}) {
        const auto scale = TimeScale::fit(from, from + visible, width);
        zoomsThatJump += static_cast<double>(info.buckets.width()) <= scale.nsPerPixel();
        std::vector<SliceRect> a, b;
        computeRowRects(withEdges, info, layout, scale, a);
        computeRowRects(slicesOnly, info, layout, scale, b);
        ASSERT_EQ(a.size(), b.size()) << fraction << " " << width << " " << from;
        for (std::size_t i = 0; i < a.size(); ++i) {
          EXPECT_EQ(a[i].x0, b[i].x0);
          EXPECT_EQ(a[i].x1, b[i].x1);
          EXPECT_EQ(a[i].index, b[i].index);
          EXPECT_EQ(a[i].colour, b[i].colour);
          EXPECT_EQ(a[i].merged, b[i].merged);
        }
        EXPECT_EQ(markedPixels(a, scale), occupiedPixels(slicesOnly, scale));
      }
    }
  }
  EXPECT_GT(zoomsThatJump, 10);  // the copies were read, not just built
}

TEST(CounterBars, HoldValuesAndKeepPeaksPerPixel) {
  CounterSeries c;
  c.ts = {0, 100, 105, 200};
  c.values = {1, 9, 2, 4};
  std::vector<CounterBar> bars;
  computeCounterBars(c, TimeScale::fit(0, 300, 30), bars);  // 10 ns per pixel
  ASSERT_EQ(bars.size(), 4u);
  EXPECT_FLOAT_EQ(bars[0].x0, 0);
  EXPECT_FLOAT_EQ(bars[0].x1, 10);
  EXPECT_DOUBLE_EQ(bars[0].value, 1);
  EXPECT_DOUBLE_EQ(bars[1].value, 9);  // the 5 ns peak survives in pixel 10
  EXPECT_FLOAT_EQ(bars[1].x1, 11);
  EXPECT_DOUBLE_EQ(bars[2].value, 2);
  EXPECT_FLOAT_EQ(bars[2].x1, 20);
  EXPECT_DOUBLE_EQ(bars[3].value, 4);  // the last sample: one pixel
  EXPECT_FLOAT_EQ(bars[3].x1, 21);
}

TEST(CounterBars, StartWithTheSampleInForce) {
  CounterSeries c;
  c.ts = {0, 1000};
  c.values = {7, 3};
  std::vector<CounterBar> bars;
  computeCounterBars(c, TimeScale::fit(500, 600, 10), bars);
  ASSERT_EQ(bars.size(), 1u);
  EXPECT_DOUBLE_EQ(bars[0].value, 7);
  EXPECT_FLOAT_EQ(bars[0].x1, 10);
}
