// The cause of each gap, for each cause and each launch kind.
#include <gtest/gtest.h>

#include <string>

#include "gap_trace.h"
#include "gapscope/analysis/gaps.h"

using namespace gapscope;
using namespace gapscope::analysis;
using gapscope::gaps_test::GapTrace;
using gapscope::gaps_test::us;

namespace {

// The listed gaps of one stream (stream -1: the device's own gaps).
std::vector<Gap> gapsOf(const GapAnalysis& a, std::int64_t stream) {
  std::vector<Gap> out;
  for (const Gap& g : a.gaps)
    if (g.stream == stream) out.push_back(g);
  return out;
}

std::string name(const Trace& t, std::uint32_t slice) {
  return slice == kNoIndex ? "-" : std::string(t.str(t.slices[slice].name));
}

}  // namespace

TEST(GapCauses, LaunchStartedAfterTheGpuWentIdleIsLaunchOverhead) {
  GapTrace g;
  g.cpu("aten::a", us(0), us(8)).launch(us(1), us(5), 1).kernel("k1", us(7), us(3), 1);
  g.cpu("aten::b", us(12), us(18))
      .cpu("aten::empty", us(13), us(3))
      .launch(us(19), us(6), 2)
      .kernel("k2", us(25), us(5), 2);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  ASSERT_TRUE(a.hasGpuActivity);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  const Gap& gap = dev[0];
  EXPECT_EQ(gap.start, us(10));
  EXPECT_EQ(gap.dur, us(15));
  EXPECT_EQ(gap.cause, GapCause::LaunchOverhead);
  EXPECT_EQ(gap.hta, HtaIdleKind::HostWait);
  EXPECT_EQ(name(t, gap.before), "k1");
  EXPECT_EQ(name(t, gap.after), "k2");
  EXPECT_EQ(name(t, gap.launch), "cudaLaunchKernel");
  EXPECT_EQ(t.slices[gap.launch].start, us(19));
  EXPECT_EQ(gap.launchTrack, t.slices[gap.launch].track);

  // Self time inside [10, 25): the launch 6, aten::b 13 - 3 - 6 = 4,
  // aten::empty 3, nothing traced in [10, 12) = 2.
  auto ops = cpuOpsOf(a, gap);
  ASSERT_EQ(ops.size(), 4u);
  EXPECT_EQ(t.str(ops[0].name), "cudaLaunchKernel");
  EXPECT_EQ(ops[0].selfNs, us(6));
  EXPECT_EQ(t.str(ops[1].name), "aten::b");
  EXPECT_EQ(ops[1].selfNs, us(4));
  EXPECT_EQ(t.str(ops[2].name), "aten::empty");
  EXPECT_EQ(ops[2].selfNs, us(3));
  EXPECT_TRUE(ops[3].isUntraced);
  EXPECT_EQ(ops[3].selfNs, us(2));
  EXPECT_EQ(explainGap(t, gap), "cudaLaunchKernel began 9 µs after the GPU went idle");

  // The stream of a one-stream device has the same gap.
  auto stream = gapsOf(a, 7);
  ASSERT_EQ(stream.size(), 1u);
  EXPECT_EQ(stream[0].cause, GapCause::LaunchOverhead);
  EXPECT_EQ(cpuOpsOf(a, stream[0]).size(), 4u);

  ASSERT_EQ(a.devices.size(), 1u);
  EXPECT_EQ(a.devices[0].activeNs(), us(23));
  EXPECT_EQ(a.devices[0].busyNs, us(8));
  EXPECT_EQ(a.devices[0].idle[GapCause::LaunchOverhead], us(15));
  // The trace-wide attribution of launch overhead names the same ops.
  ASSERT_EQ(a.overheadCpuOps.size(), 4u);
  EXPECT_EQ(t.str(a.overheadCpuOps[0].name), "cudaLaunchKernel");
}

TEST(GapCauses, LaunchCallStillRunningWhenTheQueueDrainedIsLaunchOverhead) {
  GapTrace g;
  g.launch(us(0), us(2), 1).kernel("k1", us(3), us(5), 1);  // ends at 8
  g.launch(us(6), us(10), 2).kernel("k2", us(15), us(5), 2);  // call runs 6..16
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  EXPECT_EQ(dev[0].cause, GapCause::LaunchOverhead);
  // HTA only looks at the call's start, which came before the gap.
  EXPECT_EQ(dev[0].hta, HtaIdleKind::KernelWait);
  EXPECT_EQ(explainGap(t, dev[0]),
            "cudaLaunchKernel was still running when the GPU went idle (it ended 8 µs into the gap)");
}

TEST(GapCauses, ThreadBlockedInDeviceSynchronizeIsSynchronization) {
  GapTrace g;
  g.launch(us(0), us(5), 1).kernel("k1", us(6), us(94), 1);  // ends at 100
  g.call("cudaDeviceSynchronize", us(10), us(91), 50);         // returns at 101
  g.launch(us(110), us(5), 2).kernel("k2", us(112), us(8), 2);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  const Gap& gap = dev[0];
  EXPECT_EQ(gap.cause, GapCause::Synchronization);
  EXPECT_EQ(name(t, gap.syncCall), "cudaDeviceSynchronize");
  EXPECT_EQ(gap.hta, HtaIdleKind::HostWait);  // HTA calls the same gap host wait
  auto ops = cpuOpsOf(a, gap);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_TRUE(ops[0].isUntraced);
  EXPECT_EQ(ops[0].selfNs, us(9));
  EXPECT_EQ(t.str(ops[1].name), "cudaLaunchKernel");
  EXPECT_EQ(ops[1].selfNs, us(2));
  EXPECT_EQ(t.str(ops[2].name), "cudaDeviceSynchronize");
  EXPECT_EQ(ops[2].selfNs, us(1));
  EXPECT_EQ(explainGap(t, gap),
            "the launching thread was blocked in cudaDeviceSynchronize when the GPU went idle; "
            "cudaLaunchKernel followed 10 µs after the gap began");
}

TEST(GapCauses, SyncReturningJustBeforeTheGapCountsWithinTheClockSlack) {
  auto build = [] {
    GapTrace g;
    g.launch(us(0), us(5), 1).kernel("k1", us(6), us(94), 1);  // ends at 100
    g.call("cudaStreamSynchronize", us(10), us(89), 50);       // returns at 99
    g.launch(us(110), us(5), 2).kernel("k2", us(112), us(8), 2);
    return g.finish();
  };
  Trace t = build();
  EXPECT_EQ(gapsOf(analyzeGaps(t), -1).at(0).cause, GapCause::Synchronization);
  GapOptions strict;
  strict.syncSlackNs = 0;
  EXPECT_EQ(gapsOf(analyzeGaps(t, strict), -1).at(0).cause, GapCause::LaunchOverhead);
}

TEST(GapCauses, SynchronousMemcpyBlocksTheThread) {
  GapTrace g;
  g.launch(us(0), us(5), 1).kernel("k1", us(6), us(44), 1);  // ends at 50
  g.call("cudaMemcpy", us(10), us(50), 2).gpu("Memcpy DtoH (Device -> Pageable)", "gpu_memcpy",
                                                 us(50), us(8), 2);  // ends at 58
  g.launch(us(65), us(5), 3).kernel("k3", us(68), us(12), 3);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  EXPECT_EQ(dev[0].start, us(58));
  EXPECT_EQ(dev[0].cause, GapCause::Synchronization);
  EXPECT_EQ(name(t, dev[0].syncCall), "cudaMemcpy");
  EXPECT_EQ(a.launchStats.byKind[static_cast<std::size_t>(LaunchKind::Memcpy)], 1u);
}

TEST(GapCauses, OpLaunchedBeforeTheGapIsQueuedEvenIfTheThreadSyncsLater) {
  GapTrace g;
  g.launch(us(0), us(5), 1).kernel("k1", us(6), us(94), 1);  // ends at 100
  g.launch(us(7), us(2), 2);                                  // queued long before
  g.call("cudaStreamSynchronize", us(10), us(120), 50);
  g.kernel("k2", us(105), us(20), 2);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  EXPECT_EQ(dev[0].cause, GapCause::Queued);
  EXPECT_EQ(dev[0].hta, HtaIdleKind::KernelWait);
  EXPECT_EQ(explainGap(t, dev[0]),
            "cudaLaunchKernel ended 91 µs before the GPU went idle; the op waited in the queue");
}

TEST(GapCauses, StreamWaitEventBetweenLaunchesMakesAQueuedStreamGapSynchronization) {
  auto build = [](bool markerOnOtherStream) {
    GapTrace g;
    g.launch(us(0), us(2), 1).kernel("k1", us(5), us(45), 1, 7);  // stream 7: 5..50
    g.launch(us(3), us(2), 2).kernel("k2", us(6), us(14), 2, 8);  // stream 8: 6..20
    g.call("cudaStreamWaitEvent", us(6), us(1), 3);
    if (markerOnOtherStream) g.gpu("Stream Wait Event", "cuda_sync", us(6), 0, 3, 9);
    g.launch(us(8), us(2), 4).kernel("k3", us(51), us(9), 4, 8);  // waits for k1
    return g.finish();
  };
  Trace t = build(false);
  GapAnalysis a = analyzeGaps(t);
  auto s8 = gapsOf(a, 8);
  ASSERT_EQ(s8.size(), 1u);
  EXPECT_EQ(s8[0].start, us(20));
  EXPECT_EQ(s8[0].dur, us(31));
  EXPECT_EQ(s8[0].cause, GapCause::Synchronization);
  EXPECT_EQ(name(t, s8[0].syncCall), "cudaStreamWaitEvent");
  EXPECT_EQ(explainGap(t, s8[0]),
            "the op waited on another stream through cudaStreamWaitEvent issued before "
            "cudaLaunchKernel");
  // The device was idle only between k1's end and k3's start.
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  EXPECT_EQ(dev[0].start, us(50));
  EXPECT_EQ(dev[0].dur, us(1));
  EXPECT_EQ(dev[0].cause, GapCause::Queued);

  // A cuda_sync marker saying the wait was for stream 9 clears stream 8.
  Trace t2 = build(true);
  auto s8b = gapsOf(analyzeGaps(t2), 8);
  ASSERT_EQ(s8b.size(), 1u);
  EXPECT_EQ(s8b[0].cause, GapCause::Queued);
}

TEST(GapCauses, CudaSyncMarkerMakesAnUnknownCallBlocking) {
  auto build = [](bool marker) {
    GapTrace g;
    g.launch(us(0), us(5), 1).kernel("k1", us(6), us(94), 1);
    g.call("cudaSomeFutureSync", us(10), us(91), 50);
    if (marker) g.gpu("Context Sync", "cuda_sync", us(10), us(90), 50);
    g.launch(us(110), us(5), 2).kernel("k2", us(112), us(8), 2);
    return g.finish();
  };
  Trace without = build(false);
  EXPECT_EQ(gapsOf(analyzeGaps(without), -1).at(0).cause, GapCause::LaunchOverhead);
  Trace with = build(true);
  GapAnalysis a = analyzeGaps(with);
  EXPECT_EQ(gapsOf(a, -1).at(0).cause, GapCause::Synchronization);
  EXPECT_EQ(name(with, gapsOf(a, -1).at(0).syncCall), "cudaSomeFutureSync");
  // The marker is no GPU activity.
  EXPECT_EQ(a.devices.at(0).gpuOps, 2u);
}

TEST(GapCauses, GapsInsideOneGraphLaunchAreQueuedAndTheGraphIsOneLaunch) {
  GapTrace g;
  g.call("cudaGraphLaunch", us(0), us(30), 7);
  g.kernel("g1", us(10), us(2), 7).kernel("g2", us(15), us(2), 7).kernel("g3", us(20), us(2), 7);
  g.launch(us(40), us(5), 8).kernel("k", us(46), us(4), 8);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 3u);
  EXPECT_EQ(dev[0].cause, GapCause::Queued);  // g1 -> g2, call still running
  EXPECT_EQ(dev[1].cause, GapCause::Queued);
  EXPECT_EQ(name(t, dev[0].launch), "cudaGraphLaunch");
  EXPECT_EQ(explainGap(t, dev[0]), "both ops come from one cudaGraphLaunch: a gap inside the launched graph");
  EXPECT_EQ(dev[2].cause, GapCause::LaunchOverhead);

  const LaunchStats& s = a.launchStats;
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(s.byKind[static_cast<std::size_t>(LaunchKind::Graph)], 1u);
  ASSERT_EQ(a.launches.size(), 2u);
  const LaunchInfo& graph = a.launches[0];
  EXPECT_EQ(graph.kind, LaunchKind::Graph);
  EXPECT_EQ(graph.opCount, 3u);
  EXPECT_EQ(name(t, graph.firstOp), "g1");
  EXPECT_EQ(graph.gpuNs, us(6));
  EXPECT_EQ(graph.launchNs, us(30));
  EXPECT_EQ(graph.queueNs, us(-20));  // the first kernel ran before the call returned
  EXPECT_TRUE(graph.shortKernel);
}

TEST(GapCauses, DriverLaunchesAreLaunchesToo) {
  GapTrace g;
  g.call("cuLaunchKernel", us(0), us(4), 1, 1, "cuda_driver").kernel("triton_a", us(5), us(5), 1);
  g.cpu("triton launcher", us(12), us(10));
  g.call("cuLaunchKernelEx", us(16), us(4), 2, 1, "cuda_driver").kernel("triton_b", us(21), us(5), 2);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 1u);
  EXPECT_EQ(dev[0].cause, GapCause::LaunchOverhead);
  EXPECT_EQ(name(t, dev[0].launch), "cuLaunchKernelEx");
  EXPECT_EQ(a.launchStats.byKind[static_cast<std::size_t>(LaunchKind::DriverKernel)], 2u);
}

TEST(GapCauses, AsyncMemcpyAndMemsetWithVersionSuffixesAreLaunches) {
  GapTrace g;
  g.call("cudaMemsetAsync", us(0), us(3), 1).gpu("Memset (Device)", "gpu_memset", us(4), us(1), 1);
  g.call("cudaMemcpyAsync_v3020", us(10), us(3), 2)
      .gpu("Memcpy HtoD (Pinned -> Device)", "gpu_memcpy", us(12), us(2), 2);
  g.call("cudaLaunchKernel_ptsz", us(20), us(3), 3).kernel("k", us(22), us(2), 3);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 2u);
  EXPECT_EQ(dev[0].cause, GapCause::LaunchOverhead);
  EXPECT_EQ(name(t, dev[0].launch), "cudaMemcpyAsync_v3020");
  EXPECT_EQ(dev[1].cause, GapCause::LaunchOverhead);
  const auto& k = a.launchStats.byKind;
  EXPECT_EQ(k[static_cast<std::size_t>(LaunchKind::Memset)], 1u);
  EXPECT_EQ(k[static_cast<std::size_t>(LaunchKind::Memcpy)], 1u);
  EXPECT_EQ(k[static_cast<std::size_t>(LaunchKind::Kernel)], 1u);
  EXPECT_EQ(a.devices.at(0).gpuOps, 3u);
}

TEST(GapCauses, OpWhoseLaunchIsMissingIsOther) {
  GapTrace g;
  g.launch(us(0), us(2), 1).kernel("k1", us(3), us(2), 1);
  g.kernel("k2", us(20), us(2), 99);  // correlation 99 names no call
  g.kernel("k3", us(40), us(2), kNoCorrelation);
  Trace t = g.finish();
  GapAnalysis a = analyzeGaps(t);
  auto dev = gapsOf(a, -1);
  ASSERT_EQ(dev.size(), 2u);
  EXPECT_EQ(dev[0].cause, GapCause::Other);
  EXPECT_EQ(dev[0].launchTrack, kNoIndex);
  EXPECT_EQ(explainGap(t, dev[0]), "no launch call with correlation id 99 is in the trace");
  EXPECT_EQ(explainGap(t, dev[1]), "the GPU op that ends the gap has no correlation id");
  EXPECT_EQ(cpuOpsOf(a, dev[0]).size(), 0u);
  bool noted = false;
  for (const auto& n : a.notes) noted = noted || n.find("matches no launch call") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(CallNames, LaunchAndSyncKindsIgnoreVersionSuffixes) {
  EXPECT_EQ(launchKindForName("cudaLaunchKernelExC_v11060"), LaunchKind::Kernel);
  EXPECT_EQ(launchKindForName("cuLaunchKernelEx"), LaunchKind::DriverKernel);
  EXPECT_EQ(launchKindForName("cudaGraphLaunch_v10000"), LaunchKind::Graph);
  EXPECT_EQ(launchKindForName("cuMemcpyHtoDAsync_v2"), LaunchKind::Memcpy);
  EXPECT_EQ(launchKindForName("cudaMemsetAsync_ptsz"), LaunchKind::Memset);
  EXPECT_EQ(launchKindForName("cudaEventRecord"), LaunchKind::None);
  EXPECT_EQ(launchKindForName("cudaLaunchKernelFoo"), LaunchKind::None);
  EXPECT_EQ(syncKindForName("cudaDeviceSynchronize"), SyncKind::Device);
  EXPECT_EQ(syncKindForName("cudaStreamSynchronize_ptsz"), SyncKind::Stream);
  EXPECT_EQ(syncKindForName("cudaEventSynchronize"), SyncKind::Event);
  EXPECT_EQ(syncKindForName("cudaMemcpy"), SyncKind::Memcpy);
  EXPECT_EQ(syncKindForName("cuMemcpyDtoH_v2"), SyncKind::Memcpy);
  EXPECT_EQ(syncKindForName("cudaMemcpyAsync"), SyncKind::None);
  EXPECT_EQ(syncKindForName("cudaStreamWaitEvent"), SyncKind::StreamWaitEvent);
  EXPECT_EQ(syncKindForName("cudaLaunchKernel"), SyncKind::None);
  for (const char* alloc : {"cudaMalloc", "cudaMalloc_v3020", "cudaFree", "cudaMallocHost", "cudaHostAlloc", "cudaFreeHost",
                            "cuMemAlloc_v2", "cuMemFree_v2", "cudaMallocManaged"}) {
    EXPECT_TRUE(isMemoryManagementCall(alloc)) << alloc;
  }
  for (const char* other : {"cudaMallocAsync", "cudaFreeAsync", "cudaLaunchKernel", "cudaMemcpy", "cudaMemsetAsync",
                            "cudaStreamCreateWithFlags", "aten::empty"}) {
    EXPECT_FALSE(isMemoryManagementCall(other)) << other;
  }
}
