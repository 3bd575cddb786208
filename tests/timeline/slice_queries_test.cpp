#include "gapscope/timeline/slice_queries.h"

#include <gtest/gtest.h>

#include "trace_fixture.h"

using namespace gapscope;
using namespace gapscope::timeline;
using gapscope::testing::sliceNamed;
using gapscope::testing::TraceFixture;

namespace {

struct Scene {
  TraceFixture f;
  Trace trace = f.build();
  TimelineLayout layout = TimelineLayout::build(trace);
  std::uint32_t mainRow(std::uint16_t depth) const {
    const auto lane = layout.laneOfTrack(trace.slices[sliceNamed(trace, "step")].track);
    return layout.lanes()[lane].firstRow + depth;
  }
};

}  // namespace

TEST(SliceQueries, SliceAtFindsTheSliceUnderTheTime) {
  Scene s;
  EXPECT_EQ(sliceAt(s.trace, s.layout, s.mainRow(1), 650, 0), kNoIndex);
  EXPECT_EQ(sliceAt(s.trace, s.layout, s.mainRow(1), 150, 0), sliceNamed(s.trace, "op"));
  EXPECT_EQ(sliceAt(s.trace, s.layout, s.mainRow(1), 750, 0), sliceNamed(s.trace, "op2"));
  // Near a thin slice: found within the slop, nearest first.
  EXPECT_EQ(sliceAt(s.trace, s.layout, s.mainRow(1), 690, 20), sliceNamed(s.trace, "op2"));
  EXPECT_EQ(sliceAt(s.trace, s.layout, s.mainRow(1), 650, 20), kNoIndex);
  EXPECT_EQ(sliceAt(s.trace, s.layout, 9999, 650, 20), kNoIndex);
}

TEST(SliceQueries, SelfTimeSubtractsDirectChildren) {
  Scene s;
  EXPECT_EQ(selfTime(s.trace, s.layout, sliceNamed(s.trace, "op")), 400);     // 500 - 2 x 50
  EXPECT_EQ(selfTime(s.trace, s.layout, sliceNamed(s.trace, "step")), 300);   // 1000 - 500 - 200
  EXPECT_EQ(selfTime(s.trace, s.layout, sliceNamed(s.trace, "op2")), 200);
}

TEST(SliceQueries, LaunchPartnerWorksBothWays) {
  Scene s;
  const std::uint32_t kA = sliceNamed(s.trace, "kA");
  const std::uint32_t launch = launchPartner(s.trace, kA);
  ASSERT_NE(launch, kNoIndex);
  EXPECT_EQ(s.trace.str(s.trace.slices[launch].name), "cudaLaunchKernel");
  EXPECT_EQ(s.trace.slices[launch].start, 200);
  EXPECT_EQ(launchPartner(s.trace, launch), kA);
  EXPECT_EQ(launchPartner(s.trace, sliceNamed(s.trace, "op")), kNoIndex);
}

TEST(SliceQueries, SearchIsCaseInsensitiveAndInStartOrder) {
  Scene s;
  const auto hits = findSlicesByName(s.trace, "OP");
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0], sliceNamed(s.trace, "op"));
  EXPECT_EQ(hits[1], sliceNamed(s.trace, "op2"));
  EXPECT_EQ(findSlicesByName(s.trace, "k").size(), 5u);  // kA, kB, two cudaLaunchKernel, work
  EXPECT_TRUE(findSlicesByName(s.trace, "").empty());
  EXPECT_TRUE(findSlicesByName(s.trace, "nothing like it").empty());
}

TEST(SliceQueries, NamedMatchesExactlyAndFoldsProfilerSteps) {
  TraceBuilder b;
  auto add = [&](const char* name, TimeNs start) {
    SliceEvent e;
    e.pid = b.numericId(1);
    e.tid = b.numericId(1);
    e.start = start;
    e.dur = start == 0 ? 10 : 30;
    e.name = b.intern(name);
    e.category = b.intern("user_annotation");
    b.addComplete(e);
  };
  add("ProfilerStep#1", 0);
  add("ProfilerStep#2", 100);
  add("ProfilerStepper", 200);
  const Trace t = b.finish();
  const auto steps = findSlicesNamed(t, "ProfilerStep*");
  EXPECT_EQ(steps.size(), 3u);  // a prefix: "ProfilerStepper" too, by design of the fold
  EXPECT_EQ(findSlicesNamed(t, "ProfilerStep#2").size(), 1u);
  EXPECT_EQ(longestSlice(t, findSlicesNamed(t, "ProfilerStep#1")), 0u);
  EXPECT_EQ(t.slices[longestSlice(t, steps)].start, 100);
  EXPECT_EQ(longestSlice(t, {}), kNoIndex);
  // From a time on: the longest of those starting there or later, else of them all.
  EXPECT_EQ(t.slices[longestSlice(t, steps, 150)].start, 200);
  EXPECT_EQ(t.slices[longestSlice(t, steps, 1000)].start, 100);
}

TEST(SliceQueries, OverlappingCollectsEveryRowOfTheTrack) {
  Scene s;
  const std::uint32_t track = s.trace.slices[sliceNamed(s.trace, "op")].track;
  const auto hits = slicesOverlapping(s.trace, s.layout, track, 240, 320);
  std::string names;
  for (std::uint32_t i : hits) names += std::string(s.trace.str(s.trace.slices[i].name)) + " ";
  EXPECT_EQ(names, "step op cudaLaunchKernel cudaLaunchKernel ");
  EXPECT_TRUE(slicesOverlapping(s.trace, s.layout, track, 1000, 2000).empty());
}
