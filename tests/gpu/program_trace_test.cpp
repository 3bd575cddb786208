// From the processes of a recorded program to one trace: NVTX names
// classified, capture windows applied, two processes merged without their
// streams or correlation ids colliding.
#include <gtest/gtest.h>

#include <set>

#include "gapscope/gpu/program_trace.h"
#include "records_fixture.h"

using namespace gapscope;
using namespace gapscope::gpu;

TEST(ClassifyNvtxRange, StepsOperatorsAndAnnotations) {
  EXPECT_EQ(classifyNvtxRange("ProfilerStep#12").kind, HostRangeKind::Step);
  EXPECT_EQ(classifyNvtxRange("ProfilerStep#").kind, HostRangeKind::Annotation);
  EXPECT_EQ(classifyNvtxRange("ProfilerStep#1x").kind, HostRangeKind::Annotation);
  ClassifiedRange op = classifyNvtxRange("aten::addmm, seq = 12, op_id = 3");
  EXPECT_EQ(op.kind, HostRangeKind::Op);
  EXPECT_EQ(op.name, "aten::addmm");
  EXPECT_EQ(classifyNvtxRange("aten::mm, op_id = 3").name, "aten::mm");
  EXPECT_EQ(classifyNvtxRange("AddmmBackward0, stashed seq = 4").name, "AddmmBackward0");
  EXPECT_EQ(classifyNvtxRange("aten::view, sizes = [[2, 3]]").name, "aten::view");
  EXPECT_EQ(classifyNvtxRange("aten::relu").kind, HostRangeKind::Op);
  EXPECT_EQ(classifyNvtxRange("forward").kind, HostRangeKind::Annotation);
  EXPECT_EQ(classifyNvtxRange("my range: a::b c").kind, HostRangeKind::Annotation);
  EXPECT_EQ(classifyNvtxRange(", seq = 1").kind, HostRangeKind::Annotation);
}

TEST(CaptureWindows, PairsOpenAndClose) {
  using M = wire::CaptureMark;
  auto w = captureWindows({M{false, 1}, M{true, 10}, M{true, 12}, M{false, 20}, M{true, 30}});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].from, 10u);
  EXPECT_EQ(w[0].until, 20u);
  EXPECT_EQ(w[1].from, 30u);
  EXPECT_EQ(w[1].until, UINT64_MAX);
}

TEST(KeepInside, RemovesWhatStartsOutside) {
  RecordSet r;
  for (std::uint64_t t : {5, 10, 15, 20, 25}) {
    KernelRecord k;
    k.start = t;
    k.end = t + 1;
    r.kernels.push_back(k);
  }
  EXPECT_EQ(keepInside(r, {TimeWindow{10, 20}}), 3u);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].start, 10u);
  EXPECT_EQ(r.kernels[1].start, 15u);
  EXPECT_EQ(keepInside(r, {}), 2u);  // no window: nothing is inside
  EXPECT_TRUE(r.kernels.empty());
}

namespace {

RecordSet process(std::uint32_t pid, std::uint32_t stream) {
  RecordSet r;
  r.processId = pid;
  r.processName = "worker" + std::to_string(pid);
  r.devices.push_back(fixture::h200());
  ApiCallRecord a = fixture::api(ApiDomain::Runtime, "cudaLaunchKernel", 0, 1000, 42);
  a.processId = pid;
  a.threadId = pid;
  r.apiCalls.push_back(a);
  KernelRecord k = fixture::kernel("kernel", 2000, 3000, 42);
  k.streamId = stream;
  r.kernels.push_back(k);
  HostRange h;
  h.kind = HostRangeKind::Annotation;
  h.name = "aten::mm, seq = 1";
  h.start = a.start - 10;
  h.end = a.end + 10;
  h.threadId = pid;
  r.ranges.push_back(h);
  r.droppedRecords = 2;
  return r;
}

}  // namespace

TEST(MergeProcesses, TwoProcessesStayApartInOneTrace) {
  std::vector<ProcessInfo> info{{100, "worker100", "python3 a.py"}, {200, "worker200", "python3 b.py"}};
  RecordSet m = mergeProcesses({process(100, 7), process(200, 7)}, info);
  EXPECT_EQ(m.processId, 100u);
  EXPECT_EQ(m.devices.size(), 1u);
  EXPECT_EQ(m.droppedRecords, 4u);
  ASSERT_EQ(m.kernels.size(), 2u);
  EXPECT_EQ(m.kernels[0].streamId, 7u);
  EXPECT_EQ(m.kernels[1].streamId, kProcessStreamStride + 7);
  EXPECT_NE(m.kernels[0].correlationId, m.kernels[1].correlationId);
  EXPECT_EQ(m.kernels[1].correlationId, m.apiCalls[1].correlationId);
  EXPECT_EQ(m.ranges[1].processId, 200u);
  EXPECT_EQ(m.ranges[1].kind, HostRangeKind::Op);
  EXPECT_EQ(m.ranges[1].name, "aten::mm");

  Trace t = convertToTrace(m);
  std::set<std::string> cpuProcesses;
  for (const auto& p : t.processes)
    if (!p.isGpu && p.pid.num > 0) cpuProcesses.insert(std::string(t.str(p.name)) + "/" + std::to_string(p.pid.num));
  EXPECT_EQ(cpuProcesses, (std::set<std::string>{"worker100/100", "worker200/200"}));
  std::size_t gpuStreams = 0, flows = 0;
  for (const auto& tr : t.tracks) gpuStreams += tr.kind == TrackKind::GpuStream;
  for (const auto& f : t.flows) flows += f.kind == FlowKind::LaunchToGpu;
  EXPECT_EQ(gpuStreams, 2u);
  EXPECT_EQ(flows, 2u);  // each launch linked to its own kernel
  for (const auto& f : t.flows) {
    const Slice& from = t.slices[f.from];
    const Slice& to = t.slices[f.to];
    EXPECT_EQ(from.correlation, to.correlation);
  }
  std::size_t ops = 0;
  for (const auto& s : t.slices) ops += t.str(s.name) == "aten::mm";
  EXPECT_EQ(ops, 2u);
}
