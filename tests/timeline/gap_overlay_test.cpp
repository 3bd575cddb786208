#include "gapscope/timeline/gap_overlay.h"

#include <gtest/gtest.h>

#include "gapscope/model/trace_builder.h"

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// One device, stream 7 with kernels leaving 2 us and 10 us gaps, stream 9
// with one kernel inside the second gap (so the device gap is shorter).
Trace gappyTrace() {
  TraceBuilder b;
  auto kernel = [&](std::int64_t stream, TimeNs start, TimeNs dur) {
    SliceEvent e;
    e.pid = b.numericId(0);
    e.tid = b.numericId(stream);
    e.start = start;
    e.dur = dur;
    e.name = b.intern("k");
    e.category = b.intern("kernel");
    b.addComplete(e);
  };
  kernel(7, 0, 1000);
  kernel(7, 3000, 1000);    // stream gap [1000, 3000)
  kernel(7, 14000, 1000);   // stream gap [4000, 14000)
  kernel(9, 8000, 1000);    // splits the device gap into [4000, 8000) and [9000, 14000)
  return b.finish();
}

}  // namespace

TEST(GapOverlay, PutsStreamGapsOnTheirLaneAndDeviceGapsOnTheGroup) {
  const Trace t = gappyTrace();
  const auto layout = TimelineLayout::build(t);
  const auto gaps = analysis::analyzeGaps(t);
  const GapOverlay overlay(t, layout, gaps, 0);
  ASSERT_EQ(layout.groups().size(), 1u);
  const std::uint32_t stream7 = layout.groups()[0].lanes[0];
  const std::uint32_t stream9 = layout.groups()[0].lanes[1];
  ASSERT_EQ(overlay.laneGaps(stream7).size(), 2u);
  EXPECT_EQ(gaps.gaps[overlay.laneGaps(stream7).indices[0]].start, 1000);
  EXPECT_EQ(gaps.gaps[overlay.laneGaps(stream7).indices[1]].dur, 10000);
  EXPECT_TRUE(overlay.laneGaps(stream9).empty());  // one kernel: no idle inside its window
  const auto& device = overlay.groupGaps(0);
  ASSERT_EQ(device.size(), 3u);
  EXPECT_EQ(gaps.gaps[device.indices[1]].start, 4000);
  EXPECT_EQ(gaps.gaps[device.indices[1]].dur, 4000);
  EXPECT_EQ(overlay.shown(), 5u);
}

TEST(GapOverlay, MinimumDurationFilters) {
  const Trace t = gappyTrace();
  const auto layout = TimelineLayout::build(t);
  const auto gaps = analysis::analyzeGaps(t);
  const GapOverlay overlay(t, layout, gaps, 4500);
  const std::uint32_t stream7 = layout.groups()[0].lanes[0];
  ASSERT_EQ(overlay.laneGaps(stream7).size(), 1u);
  EXPECT_EQ(gaps.gaps[overlay.laneGaps(stream7).indices[0]].start, 4000);
  ASSERT_EQ(overlay.groupGaps(0).size(), 1u);  // [9000, 14000)
  EXPECT_EQ(overlay.shown(), 2u);
}

TEST(GapOverlay, RectsAreColouredByCauseAndMergeWhenZoomedOut) {
  const Trace t = gappyTrace();
  const auto layout = TimelineLayout::build(t);
  const auto gaps = analysis::analyzeGaps(t);
  const GapOverlay overlay(t, layout, gaps, 0);
  const auto& lane = overlay.laneGaps(layout.groups()[0].lanes[0]);
  std::vector<IntervalRect> rects;
  computeGapRects(gaps, lane, TimeScale::fit(0, 15000, 150), rects);  // 100 ns per pixel
  ASSERT_EQ(rects.size(), 2u);
  EXPECT_FLOAT_EQ(rects[0].x0, 10);
  EXPECT_FLOAT_EQ(rects[0].x1, 30);
  EXPECT_EQ(rects[0].colour, static_cast<std::uint16_t>(gaps.gaps[lane.indices[0]].cause));
  rects.clear();
  computeGapRects(gaps, lane, TimeScale::fit(0, 15000000, 10), rects);  // both in one pixel
  ASSERT_EQ(rects.size(), 1u);
  EXPECT_TRUE(rects[0].merged);
  EXPECT_EQ(rects[0].index, lane.indices[1]);  // the longest decides
}

namespace {

// `kernels` kernels on one stream, the gaps between them of growing and
// falling length (the longest spread over the whole stream): the rects
// computeWideGapRects draws are the walk's unmerged ones at every zoom.
void expectWideGapRectsAreTheWalks(int kernels) {
  TraceBuilder b;
  TimeNs t = 0;
  for (int i = 0; i < kernels; ++i) {
    SliceEvent e;
    e.pid = b.numericId(0);
    e.tid = b.numericId(7);
    e.start = t;
    e.dur = 500;
    e.name = b.intern("k");
    e.category = b.intern("kernel");
    b.addComplete(e);
    t += 500 + 10 * (i % 97) + (i % 500 == 0 ? 200000 : 0) + (kernels > 3000 ? 10 * (i % 997) : 0);
  }
  const Trace trace = b.finish();
  const auto layout = TimelineLayout::build(trace);
  const auto gaps = analysis::analyzeGaps(trace, analysis::GapOptions{.minGapNs = 0});
  const GapOverlay overlay(trace, layout, gaps, 0);
  const GapList& list = overlay.laneGaps(layout.groups()[0].lanes[0]);
  ASSERT_GT(list.size(), static_cast<std::size_t>(kernels) * 5 / 6);
  for (double nsPerPixel : {0.5, 7.0, 300.0, 5000.0, 9000.0, 1e6}) {
    for (TimeNs start : {TimeNs{-1000}, t / 3}) {
      const TimeScale scale(start, nsPerPixel, 800);
      std::vector<IntervalRect> walked, wide;
      computeGapRects(gaps, list, scale, walked);
      std::erase_if(walked, [](const IntervalRect& r) { return r.merged; });
      computeWideGapRects(gaps, list, scale, wide);
      ASSERT_EQ(wide.size(), walked.size()) << nsPerPixel;
      for (std::size_t i = 0; i < wide.size(); ++i) {
        EXPECT_EQ(wide[i].index, walked[i].index);
        EXPECT_FLOAT_EQ(wide[i].x0, walked[i].x0);
        EXPECT_FLOAT_EQ(wide[i].x1, walked[i].x1);
      }
    }
  }
}

}  // namespace

TEST(GapOverlay, WideGapRectsAreTheWalksUnmergedOnes) { expectWideGapRectsAreTheWalks(3000); }

// More gaps than the overlay keeps longest-first (8,193): the wide ones
// drawn one by one must still be every wide gap in view.
TEST(GapOverlay, WideGapRectsAreTheWalksOnALaneOfManyGaps) { expectWideGapRectsAreTheWalks(40000); }
