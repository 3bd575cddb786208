#include <gtest/gtest.h>

#include <filesystem>

#include "gapscope/gpu/records.h"
#include "gapscope/gpu/step_counts.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/writer/chrome_writer.h"
#include "model_compare.h"
#include "records_fixture.h"

using namespace gapscope;
using namespace gapscope::gpu;

namespace {

// Trace time of a fabricated record at `x` ns after the anchor: the base
// is the anchor's wall clock rounded down to the second.
constexpr TimeNs at(std::int64_t x) { return 123456789 + x; }

const Track* findTrack(const Trace& t, std::int64_t pid, std::int64_t tid) {
  for (const Track& tr : t.tracks)
    if (tr.pid.num == pid && tr.tid.num == tid) return &tr;
  return nullptr;
}

std::string lane(const Trace& t, const Track& tr) {
  std::string out;
  for (const Slice* s = t.trackBegin(tr); s != t.trackEnd(tr); ++s)
    out += std::string(t.str(s->name)) + "@" + std::to_string(s->depth) + ";";
  return out;
}

}  // namespace

TEST(ConvertRecords, HostLaneNestsStepsOpsAndCalls) {
  Trace t = convertToTrace(fixture::twoSteps());
  const Track* cpu = findTrack(t, fixture::kPid, fixture::kTid);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->kind, TrackKind::CpuThread);
  EXPECT_EQ(t.str(cpu->name), "thread 4243 (gapscope-cli)");
  const std::string step =
      "layer_norm@1;cudaLaunchKernel@2;matmul@1;cuLaunchKernelEx@2;cudaMemcpyAsync@1;cudaStreamSynchronize@1;"
      "Stream Sync@2;";
  EXPECT_EQ(lane(t, *cpu), "ProfilerStep#1@0;" + step + "ProfilerStep#2@0;" + step);
  const Slice& first = *t.trackBegin(*cpu);
  EXPECT_EQ(first.start, at(0));
  EXPECT_EQ(first.dur, 90000);
  EXPECT_EQ(first.kind, SliceKind::UserAnnotation);
  EXPECT_EQ(t.trackBegin(*cpu)[1].kind, SliceKind::CpuOp);
  EXPECT_EQ(t.metadata.baseTimeNanoseconds, 1790857026000000000);
  // The driver calls CUPTI reported inside cudaLaunchKernel are left out.
  EXPECT_EQ(t.issues.count("internal_driver_calls"), 2u);
  EXPECT_EQ(t.issues.count("overlap_spilled"), 0u);
}

TEST(ConvertRecords, GpuLanePerDeviceAndStreamWithLaunchConfiguration) {
  Trace t = convertToTrace(fixture::twoSteps());
  const Track* gpu = findTrack(t, 0, fixture::kStream);
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->kind, TrackKind::GpuStream);
  EXPECT_EQ(gpu->device, 0);
  EXPECT_EQ(gpu->stream, fixture::kStream);
  EXPECT_EQ(t.str(gpu->name), "stream 13");
  ASSERT_EQ(gpu->sliceCount, 6u);
  const Slice& k = *t.trackBegin(*gpu);
  EXPECT_EQ(k.kind, SliceKind::Kernel);
  EXPECT_EQ(k.start, at(14000));
  EXPECT_EQ(k.dur, 2500);
  ASSERT_NE(k.kernelInfo, kNoIndex);
  const KernelInfo& info = t.kernelInfos[k.kernelInfo];
  EXPECT_EQ(info.grid[0], 64);
  EXPECT_EQ(info.block[1], 4);
  EXPECT_EQ(info.registersPerThread, 39);
  EXPECT_EQ(info.sharedMemory, 24);
  EXPECT_FLOAT_EQ(info.blocksPerSm, 0.484848f);
  EXPECT_FLOAT_EQ(info.warpsPerSm, 1.939394f);
  EXPECT_EQ(info.occupancyPct, 3.f);
  std::string args = t.argsJson(k);
  EXPECT_NE(args.find("\"est. achieved occupancy %\": 3"), std::string::npos) << args;
  EXPECT_NE(args.find("\"grid\": [64, 1, 1]"), std::string::npos) << args;
  const Slice& copy = t.trackBegin(*gpu)[2];
  EXPECT_EQ(t.str(copy.name), "Memcpy DtoH (Device -> Pinned)");
  EXPECT_EQ(copy.kind, SliceKind::Memcpy);
  ASSERT_EQ(t.metadata.devices.size(), 1u);
  EXPECT_EQ(t.metadata.devices[0].numSms, 132);
  const Process& gpuProcess = t.processes[gpu->process];
  EXPECT_EQ(t.str(gpuProcess.labels), "GPU 0");
  EXPECT_TRUE(gpuProcess.isGpu);
}

TEST(ConvertRecords, CorrelationsBecomeLaunchFlows) {
  Trace t = convertToTrace(fixture::twoSteps());
  // Per step: cudaLaunchKernel, cuLaunchKernelEx and cudaMemcpyAsync launch work.
  ASSERT_EQ(t.flows.size(), 6u);
  for (const Flow& f : t.flows) {
    EXPECT_EQ(f.kind, FlowKind::LaunchToGpu);
    EXPECT_EQ(t.slices[f.from].correlation, t.slices[f.to].correlation);
    EXPECT_TRUE(isGpuActivity(t.slices[f.to].kind));
  }
  std::uint32_t launch = t.launchForCorrelation(11);
  ASSERT_NE(launch, kNoIndex);
  EXPECT_EQ(t.str(t.slices[launch].name), "cuLaunchKernelEx");
  std::uint32_t op = t.gpuOpForCorrelation(11);
  ASSERT_NE(op, kNoIndex);
  EXPECT_EQ(t.str(t.slices[op].name), "nvjet_sm90_tst_64x8_64x16_1x4_h_bz_NNT");
}

TEST(ConvertRecords, GraphLaunchFlowsToItsFirstKernelOnly) {
  RecordSet r;
  r.processId = 1;
  r.ranges.push_back(fixture::range(HostRangeKind::Step, "ProfilerStep#1", 0, 50000));
  r.apiCalls.push_back(fixture::api(ApiDomain::Runtime, "cudaGraphLaunch", 1000, 5000, 77));
  for (int i = 0; i < 3; ++i) {
    KernelRecord k = fixture::kernel("k", 10000 + 3000 * i, 12000 + 3000 * i, 77);
    k.graphId = 5;
    k.graphNodeId = 100 + i;
    r.kernels.push_back(k);
  }
  Trace t = convertToTrace(r);
  ASSERT_EQ(t.flows.size(), 1u);
  // No wall clock: times count from the first record (the step at 0).
  EXPECT_EQ(t.slices[t.flows[0].to].start, 10000);
  EXPECT_EQ(t.issues.count("orphan_flow_start"), 0u);
  auto steps = countPerStep(t, analysis::computeGpuBusy(t));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kernels, 3u);
  EXPECT_NE(t.argsJson(t.slices[t.flows[0].to]).find("\"graph id\": 5"), std::string::npos);
}

TEST(ConvertRecords, ContextSyncWithoutCallGoesToItsOwnLane) {
  RecordSet r;
  r.processId = 1;
  r.kernels.push_back(fixture::kernel("k", 0, 1000, 3));
  SyncRecord s;
  s.kind = SyncKind::ContextSynchronize;
  s.start = fixture::kAnchor + 500;
  s.end = fixture::kAnchor + 1500;
  s.contextId = 1;
  s.streamId = kNoStream;
  r.syncs.push_back(s);
  Trace t = convertToTrace(r);
  const Track* lane = findTrack(t, 0, -1);
  ASSERT_NE(lane, nullptr);
  EXPECT_EQ(t.str(lane->name), "context sync");
  EXPECT_EQ(t.str(t.trackBegin(*lane)->name), "Context Sync");
  // Without a wall clock the trace starts at 0.
  EXPECT_EQ(t.metadata.baseTimeNanoseconds, 0);
  EXPECT_EQ(t.minTime(), 0);
}

TEST(ConvertRecords, CuptiOverheadOfTwoThreadsOverlapsWithoutBreakingNesting) {
  RecordSet r;
  r.processId = 1;
  r.kernels.push_back(fixture::kernel("k", 0, 1000, 3));
  r.overheads.push_back(OverheadRecord{"Activity Buffer Request", fixture::kAnchor + 100, fixture::kAnchor + 700, 11});
  r.overheads.push_back(OverheadRecord{"Activity Buffer Request", fixture::kAnchor + 150, fixture::kAnchor + 740, 12});
  Trace t = convertToTrace(r);
  EXPECT_EQ(t.issues.find("overlap_spilled"), nullptr);
  int overheadSlices = 0;
  for (const auto& s : t.slices) overheadSlices += t.str(s.category) == "overhead";
  EXPECT_EQ(overheadSlices, 2);
}

TEST(ConvertRecords, PerStepCounts) {
  Trace t = convertToTrace(fixture::twoSteps());
  auto steps = countPerStep(t, analysis::computeGpuBusy(t));
  ASSERT_EQ(steps.size(), 2u);
  for (const auto& s : steps) {
    EXPECT_EQ(s.kernels, 2u);
    EXPECT_EQ(s.memcpys, 1u);
    EXPECT_EQ(s.memsets, 0u);
    EXPECT_EQ(s.gpuBusy, 2500 + 2000 + 1000);
    EXPECT_EQ(s.cpuDur, 90000);
  }
  EXPECT_EQ(steps[1].name, "ProfilerStep#2");
}

TEST(ConvertRecords, DroppedRecordsAreAnIssue) {
  RecordSet r = fixture::twoSteps();
  r.droppedRecords = 17;
  Trace t = convertToTrace(r);
  EXPECT_EQ(t.issues.count("cupti_dropped_records"), 17u);
}

TEST(ConvertRecords, EmptyRecordSetGivesAnEmptyTrace) {
  Trace t = convertToTrace(RecordSet{});
  EXPECT_TRUE(t.slices.empty());
  EXPECT_TRUE(t.flows.empty());
}

TEST(ConvertRecords, RecordingSurvivesWriteAndRead) {
  Trace original = convertToTrace(fixture::twoSteps());
  auto path = std::filesystem::temp_directory_path() / ("gapscope_gpu_rt_" + std::to_string(::getpid()) + ".json.gz");
  writer::WriteResult w = writer::writeChromeTrace(original, path.string());
  ASSERT_TRUE(w.ok()) << w.error;
  io::LoadResult r = io::loadChromeTrace(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(r.ok()) << r.error;
  roundtrip::CompareOptions strict;
  strict.argsOnlyWhereFirstHasThem = false;
  // The recording's own notes (internal driver calls left out) are not part
  // of the file; the file itself imports without any.
  strict.compareIssues = false;
  EXPECT_EQ(roundtrip::compareTraces(original, *r.trace, strict), "");
  EXPECT_TRUE(r.trace->issues.empty());
}
