#include "gapscope/timeline/gpu_busy.h"

#include <gtest/gtest.h>

#include "gapscope/model/trace_builder.h"

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

Trace twoStreams() {
  TraceBuilder b;
  auto kernel = [&](std::int64_t stream, TimeNs start, TimeNs dur, const char* cat = "kernel") {
    SliceEvent e;
    e.pid = b.numericId(0);
    e.tid = b.numericId(stream);
    e.start = start;
    e.dur = dur;
    e.name = b.intern("k");
    e.category = b.intern(cat);
    b.addComplete(e);
  };
  kernel(7, 0, 100);
  kernel(9, 50, 100);   // overlaps stream 7: counts once
  kernel(7, 300, 100);
  kernel(7, 500, 400, "gpu_user_annotation");  // not activity
  return b.finish();
}

}  // namespace

TEST(GpuBusy, UnionPerDeviceCountsOverlapOnce) {
  const auto devices = buildDeviceBusy(twoStreams());
  ASSERT_EQ(devices.size(), 1u);
  ASSERT_EQ(devices[0].busy.size(), 2u);
  EXPECT_EQ(devices[0].busy[0], std::make_pair(TimeNs{0}, TimeNs{150}));
  EXPECT_EQ(busyIn(devices[0], 0, 1000), 250);
  EXPECT_EQ(busyIn(devices[0], 100, 350), 100);  // 50 of the first, 50 of the second
  EXPECT_EQ(busyIn(devices[0], 500, 900), 0);
}

TEST(GpuBusy, BinsGiveTheBusyShare) {
  const auto devices = buildDeviceBusy(twoStreams());
  const auto bins = utilisationBins(devices[0], 0, 400, 4);
  ASSERT_EQ(bins.size(), 4u);
  EXPECT_DOUBLE_EQ(bins[0], 1.0);
  EXPECT_DOUBLE_EQ(bins[1], 0.5);
  EXPECT_DOUBLE_EQ(bins[2], 0.0);
  EXPECT_DOUBLE_EQ(bins[3], 1.0);
  EXPECT_TRUE(utilisationBins(devices[0], 10, 10, 4) == std::vector<double>(4, 0.0));
}
