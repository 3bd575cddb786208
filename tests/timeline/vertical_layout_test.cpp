#include "gapscope/timeline/vertical_layout.h"

#include <gtest/gtest.h>

#include "trace_fixture.h"

using namespace gapscope;
using namespace gapscope::timeline;
using gapscope::testing::TraceFixture;

TEST(VerticalLayout, StacksHeadersLanesAndRows) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalMetrics m;
  m.groupHeader = 20;
  m.rowHeight = 10;
  m.counterHeight = 30;
  m.laneGap = 2;
  const VerticalLayout v(layout, {}, m);
  // GPU first: header 20 + 2 streams of one row and a gap.
  EXPECT_DOUBLE_EQ(v.groupY(0), 0);
  EXPECT_DOUBLE_EQ(v.groupY(1), 20 + 2 * 12);
  // CPU: header 20, main 3 rows (30) + gap, worker 1 row + gap, counter 30 + gap.
  const auto& cpu = layout.groups()[1];
  EXPECT_DOUBLE_EQ(v.laneY(cpu.lanes[0]), 44 + 20);
  EXPECT_DOUBLE_EQ(v.laneHeight(cpu.lanes[0]), 30);
  EXPECT_DOUBLE_EQ(v.laneY(cpu.lanes[1]), 44 + 52);
  EXPECT_DOUBLE_EQ(v.laneY(cpu.lanes[2]), 44 + 64);
  EXPECT_DOUBLE_EQ(v.laneHeight(cpu.lanes[2]), 30);
  // Spans: header + 1 row.
  EXPECT_DOUBLE_EQ(v.groupY(2), 44 + 96);
  EXPECT_DOUBLE_EQ(v.totalHeight(), 140 + 20 + 12);
}

TEST(VerticalLayout, CollapsedGroupsShowOnlyTheirHeader) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalChoices choices;
  choices.collapsedGroups.assign(layout.groups().size(), false);
  choices.collapsedGroups[0] = true;
  const VerticalLayout v(layout, choices, VerticalMetrics{});
  EXPECT_TRUE(v.groupCollapsed(0));
  EXPECT_DOUBLE_EQ(v.groupY(1), VerticalMetrics{}.groupHeader);
  for (std::uint32_t l : layout.groups()[0].lanes) EXPECT_DOUBLE_EQ(v.laneHeight(l), 0);
  const auto rows = v.rowsBetween(0, 1e9);
  for (std::uint32_t r : rows) EXPECT_NE(layout.lanes()[layout.rows()[r].lane].group, 0u);
}

TEST(VerticalLayout, HitTestFindsHeadersRowsAndGaps) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalMetrics m;
  m.groupHeader = 20;
  m.rowHeight = 10;
  m.laneGap = 2;
  const VerticalLayout v(layout, {}, m);
  auto h = v.hitTest(5);
  EXPECT_TRUE(h.header);
  EXPECT_EQ(h.group, 0u);
  h = v.hitTest(44 + 35);  // main thread, second row (after the GPU group's 44)
  EXPECT_FALSE(h.header);
  EXPECT_EQ(h.lane, layout.groups()[1].lanes[0]);
  EXPECT_EQ(h.row, layout.lanes()[h.lane].firstRow + 1);
  h = v.hitTest(44 + 51);  // the gap after the main thread
  EXPECT_EQ(h.row, kNoIndex);
  EXPECT_EQ(h.group, 1u);
  EXPECT_EQ(v.hitTest(-1).group, kNoIndex);
  EXPECT_EQ(v.hitTest(v.totalHeight()).group, kNoIndex);
}

TEST(VerticalLayout, RowsBetweenReturnsOnlyOverlappingRows) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalMetrics m;
  m.groupHeader = 20;
  m.rowHeight = 10;
  m.laneGap = 2;
  const VerticalLayout v(layout, {}, m);
  // The CPU group starts at 44 (after the GPU's header and two streams):
  // its main thread's rows sit at 64, 74 and 84.
  const auto rows = v.rowsBetween(69, 89);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_DOUBLE_EQ(v.rowY(rows[0]), 64);
  EXPECT_DOUBLE_EQ(v.rowY(rows[2]), 84);
}

TEST(VerticalLayout, ACollapsedLaneShowsItsTopLevelRowOnly) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalMetrics m;
  m.groupHeader = 20;
  m.rowHeight = 10;
  m.counterHeight = 30;
  m.laneGap = 2;
  const std::uint32_t main = layout.groups()[1].lanes[0];  // 3 rows
  VerticalChoices choices;
  choices.collapsedLanes.assign(layout.lanes().size(), false);
  choices.collapsedLanes[main] = true;
  const VerticalLayout v(layout, choices, m);
  EXPECT_TRUE(v.laneCollapsed(main));
  EXPECT_DOUBLE_EQ(v.laneHeight(main), 10);
  const auto& lane = layout.lanes()[main];
  EXPECT_TRUE(v.rowShown(lane.firstRow));
  EXPECT_FALSE(v.rowShown(lane.firstRow + 1));
  EXPECT_DOUBLE_EQ(v.totalHeight(), 172 - 20);  // two rows fewer
  EXPECT_DOUBLE_EQ(v.laneY(layout.groups()[1].lanes[1]), 64 + 12);
}

TEST(VerticalLayout, PinnedLanesSitOnTopAndDoNotScroll) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  VerticalMetrics m;
  m.groupHeader = 20;
  m.rowHeight = 10;
  m.counterHeight = 30;
  m.laneGap = 2;
  const std::uint32_t worker = layout.groups()[1].lanes[1];  // one row
  VerticalChoices choices;
  choices.pinnedLanes = {worker};
  const VerticalLayout v(layout, choices, m);
  // A "Pinned" header and the worker lane, then the groups as before without it.
  EXPECT_DOUBLE_EQ(v.pinnedHeight(), 20 + 12);
  EXPECT_TRUE(v.lanePinned(worker));
  EXPECT_DOUBLE_EQ(v.laneY(worker), 20);
  EXPECT_DOUBLE_EQ(v.groupY(0), 32);
  EXPECT_DOUBLE_EQ(v.totalHeight(), 172 + 20);  // the same lanes, moved, and the Pinned header
  auto h = v.hitTest(5);
  EXPECT_TRUE(h.header);
  EXPECT_EQ(h.group, kPinnedGroup);
  h = v.hitTest(25);
  EXPECT_EQ(h.lane, worker);
  // Scrolled by 50: the pinned lane stays at its place, the rest moves up.
  EXPECT_DOUBLE_EQ(v.screenY(v.laneY(worker), 50), 20);
  EXPECT_DOUBLE_EQ(v.screenY(100, 50), 50);
  EXPECT_DOUBLE_EQ(v.contentY(25, 50), 25);
  EXPECT_DOUBLE_EQ(v.contentY(60, 50), 110);
  const auto rows = v.rowsInView(50, 60);  // pinned rows, then content 82..110
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front(), layout.lanes()[worker].firstRow);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_GE(v.rowY(rows[i]) + v.rowHeight(rows[i]), 82);
  EXPECT_TRUE(v.shown(v.laneY(worker), 10, 1000, 60));
  EXPECT_FALSE(v.shown(40, 10, 50, 60));  // under the pinned section once scrolled
}
