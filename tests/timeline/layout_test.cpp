#include "gapscope/timeline/layout.h"

#include <gtest/gtest.h>

#include "trace_fixture.h"

using namespace gapscope;
using namespace gapscope::timeline;
using gapscope::testing::sliceNamed;
using gapscope::testing::TraceFixture;

namespace {

const Lane* laneNamed(const TimelineLayout& layout, const std::string& name) {
  for (const auto& l : layout.lanes()) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

}  // namespace

TEST(TimelineLayout, OrdersGpuThenCpuThenKinetoAndSkipsEmptyProcesses) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  ASSERT_EQ(layout.groups().size(), 3u);  // GPU 1 has metadata only
  EXPECT_EQ(layout.groups()[0].kind, GroupKind::Gpu);
  EXPECT_EQ(layout.groups()[0].name, "GPU 0 (python3)");
  EXPECT_EQ(layout.groups()[1].kind, GroupKind::Cpu);
  EXPECT_EQ(layout.groups()[1].name, "python3 (pid 495)");
  EXPECT_EQ(layout.groups()[2].kind, GroupKind::Profiler);
  EXPECT_EQ(layout.groups()[2].name, "Spans");
  EXPECT_FALSE(layout.groups()[0].collapsedByDefault);
  EXPECT_TRUE(layout.groups()[2].collapsedByDefault);
}

TEST(TimelineLayout, LanesPerThreadStreamAndCounter) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  const auto& cpu = layout.groups()[1];
  ASSERT_EQ(cpu.lanes.size(), 3u);  // two threads and the counter
  EXPECT_EQ(layout.lanes()[cpu.lanes[0]].name, "thread 495 (python3)");
  EXPECT_EQ(layout.lanes()[cpu.lanes[1]].name, "thread 500");
  const Lane& counter = layout.lanes()[cpu.lanes[2]];
  EXPECT_EQ(counter.kind, LaneKind::Counter);
  EXPECT_EQ(counter.name, "mem");
  EXPECT_DOUBLE_EQ(counter.counterMax, 30);
  EXPECT_DOUBLE_EQ(counter.counterMin, 0);

  const auto& gpu = layout.groups()[0];
  ASSERT_EQ(gpu.lanes.size(), 2u);
  EXPECT_EQ(layout.lanes()[gpu.lanes[0]].name, "stream 7");
  EXPECT_EQ(layout.lanes()[gpu.lanes[1]].name, "stream 9");
}

TEST(TimelineLayout, RowsHoldEachDepthInStartOrder) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  const Lane* main = laneNamed(layout, "thread 495 (python3)");
  ASSERT_NE(main, nullptr);
  ASSERT_EQ(main->rowCount, 3u);  // step > op > launches
  const auto names = [&](std::uint32_t row) {
    std::string out;
    const RowSlices r = layout.rowSlices(t, row);
    for (std::uint32_t k = 0; k < r.size(); ++k) out += std::string(t.str(r[k].name)) + " ";
    return out;
  };
  EXPECT_EQ(names(main->firstRow), "step ");
  EXPECT_EQ(names(main->firstRow + 1), "op op2 ");
  EXPECT_EQ(names(main->firstRow + 2), "cudaLaunchKernel cudaLaunchKernel ");
  for (std::uint32_t r = main->firstRow; r < main->firstRow + 3; ++r) {
    EXPECT_TRUE(layout.rows()[r].disjoint);
  }
  EXPECT_EQ(layout.rows()[main->firstRow + 1].maxDuration, 500);
  EXPECT_EQ(layout.rowOfSlice(t, sliceNamed(t, "op2")), main->firstRow + 1);
}

TEST(TimelineLayout, SpilledOverlapsGetTheirOwnNonDisjointFreeRows) {
  TraceBuilder b;
  const ChromeId dev = b.numericId(0), stream = b.numericId(7);
  auto k = [&](TimeNs start, TimeNs dur) {
    SliceEvent e;
    e.pid = dev;
    e.tid = stream;
    e.start = start;
    e.dur = dur;
    e.name = b.intern("k");
    e.category = b.intern("kernel");
    return e;
  };
  b.addComplete(k(100, 50));
  b.addComplete(k(120, 50));  // overlaps without nesting: spills
  b.addComplete(k(200, 10));
  const Trace t = b.finish();
  const auto layout = TimelineLayout::build(t);
  ASSERT_EQ(layout.lanes().size(), 1u);
  ASSERT_EQ(layout.lanes()[0].rowCount, 2u);
  EXPECT_FALSE(layout.rows()[0].spill);
  EXPECT_TRUE(layout.rows()[1].spill);
  EXPECT_EQ(layout.rows()[0].count, 2u);
  EXPECT_EQ(layout.rows()[1].count, 1u);
}

TEST(TimelineLayout, ColourClassesAreStableAndMarkCopiesAndLaunches) {
  TraceFixture f;
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  const Slice& launch = t.slices[sliceNamed(t, "cudaLaunchKernel")];
  EXPECT_EQ(layout.colourClass(launch), kColourLaunch);
  const Slice& op = t.slices[sliceNamed(t, "op")];
  EXPECT_LT(layout.colourClass(op), kNamePaletteSize);

  // The same name gets the same class in another trace, whatever its id.
  TraceBuilder b;
  b.intern("padding so ids differ");
  SliceEvent e;
  e.pid = b.numericId(1);
  e.tid = b.numericId(1);
  e.dur = 5;
  e.name = b.intern("op");
  e.category = b.intern("cpu_op");
  b.addComplete(e);
  const Trace other = b.finish();
  EXPECT_EQ(TimelineLayout::build(other).colourClass(other.slices[0]), layout.colourClass(op));
}

TEST(TimelineLayout, EmptyTraceHasNoGroups) {
  TraceBuilder b;
  const Trace t = b.finish();
  const auto layout = TimelineLayout::build(t);
  EXPECT_TRUE(layout.groups().empty());
  EXPECT_EQ(layout.rowOfSlice(t, 0), kNoIndex);
}

TEST(TimelineLayout, NamesLoseStraySpaces) {
  TraceBuilder b;
  const ChromeId dev = b.numericId(0), stream = b.numericId(7);
  b.setThreadName(dev, stream, "stream 7 ");
  b.setProcessLabels(dev, " GPU 0");
  SliceEvent e;
  e.pid = dev;
  e.tid = stream;
  e.dur = 5;
  e.name = b.intern("k");
  e.category = b.intern("kernel");
  b.addComplete(e);
  const Trace t = b.finish();
  const auto layout = TimelineLayout::build(t);
  ASSERT_EQ(layout.lanes().size(), 1u);
  EXPECT_EQ(layout.lanes()[0].name, "stream 7");
  EXPECT_EQ(layout.groups()[0].name, "GPU 0");
}

TEST(RowSlices, GallopFindsWhatBisectionFinds) {
  std::vector<Slice> slices(1000);
  for (std::uint32_t i = 0; i < slices.size(); ++i) slices[i].start = static_cast<TimeNs>(i / 3) * 10;  // ties too
  const RowSlices row(slices.data(), 0u, static_cast<std::uint32_t>(slices.size()));
  for (std::uint32_t from : {0u, 1u, 17u, 500u, 998u, 999u, 1000u}) {
    for (TimeNs t = -5; t < 3400; t += 7) {
      const std::uint32_t expect = std::max(from, row.lowerBoundStart(t, 0));
      EXPECT_EQ(row.gallopStart(t, from), std::min<std::uint32_t>(expect, 1000)) << from << " " << t;
    }
  }
}

TEST(RowSlices, BucketIndexAnswersLikeBisection) {
  // Bursty starts: long quiet stretches and dense clusters, with ties.
  std::vector<Slice> slices;
  TimeNs t = 0;
  for (int burst = 0; burst < 40; ++burst) {
    t += 1000000;
    for (int i = 0; i < 300; ++i) {
      slices.emplace_back();
      slices.back().start = t;
      t += (i % 5 == 0) ? 0 : 3;
    }
  }
  const auto n = static_cast<std::uint32_t>(slices.size());
  StartBuckets buckets;
  buckets.build(n, [&](std::uint32_t k) { return slices[k].start; });
  ASSERT_FALSE(buckets.empty());
  const RowSlices plain(slices.data(), 0u, n);
  const RowSlices indexed = plain.withBuckets(&buckets);
  for (TimeNs q = -10; q < t + 10; q += 997) {
    for (std::uint32_t from : {0u, 5u, 3000u, n - 1, n}) {
      EXPECT_EQ(indexed.lowerBoundStart(q, from), plain.lowerBoundStart(q, from)) << q << " " << from;
      EXPECT_EQ(indexed.gallopStart(q, from), plain.gallopStart(q, from)) << q << " " << from;
    }
  }
}

TEST(TimelineLayout, CuptiOverheadIsTuckedAwayWithKinetosOwnLanes) {
  TraceBuilder b;
  const ChromeId overheadPid = b.numericId(-1), cpu = b.numericId(10);
  b.setProcessName(overheadPid, "CUPTI overhead");
  b.setProcessSortIndex(overheadPid, -1);
  auto add = [&](ChromeId pid, const char* cat) {
    SliceEvent e;
    e.pid = pid;
    e.tid = b.numericId(0);
    e.dur = 5;
    e.name = b.intern("x");
    e.category = b.intern(cat);
    b.addComplete(e);
  };
  add(overheadPid, "overhead");
  add(cpu, "cpu_op");
  const Trace t = b.finish();
  const auto layout = TimelineLayout::build(t);
  ASSERT_EQ(layout.groups().size(), 2u);
  EXPECT_EQ(layout.groups()[0].kind, GroupKind::Cpu);
  EXPECT_EQ(layout.groups()[1].kind, GroupKind::Profiler);
  EXPECT_TRUE(layout.groups()[1].collapsedByDefault);
  EXPECT_EQ(layout.groups()[1].name, "CUPTI overhead");
}

TEST(TimelineLayout, ContentRangeIgnoresStraySamplesOfMetadata) {
  TraceFixture f;
  f.b.noteTime(-5000000);  // e.g. a metadata event stamped far away
  const Trace t = f.build();
  const auto layout = TimelineLayout::build(t);
  EXPECT_EQ(t.minTime(), -5000000);
  EXPECT_EQ(layout.contentStart(), 0);
  EXPECT_EQ(layout.contentEnd(), 1000);
}
