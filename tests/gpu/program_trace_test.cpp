// From the processes of a recorded program to one trace: NVTX names
// classified, capture windows applied, two processes merged without their
// streams or correlation ids colliding; or one trace per process, named
// after its rank (`record -o DIR/`).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "gapscope/gpu/program_trace.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/writer/chrome_writer.h"
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
  // Operators whose names do not read as one, as gapscope's observer tags them.
  ClassifiedRange detach = classifyNvtxRange("detach, scope = operator");
  EXPECT_EQ(detach.kind, HostRangeKind::Op);
  EXPECT_EQ(detach.name, "detach");
  ClassifiedRange node = classifyNvtxRange("autograd::engine::evaluate_function: AddmmBackward0, scope = operator");
  EXPECT_EQ(node.kind, HostRangeKind::Op);
  EXPECT_EQ(node.name, "autograd::engine::evaluate_function: AddmmBackward0");
  EXPECT_EQ(classifyNvtxRange("autograd::engine::evaluate_function: AddmmBackward0").kind, HostRangeKind::Annotation);
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
  std::vector<ProcessInfo> info{{100, "worker100", "python3 a.py", {}}, {200, "worker200", "python3 b.py", {}}};
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

TEST(ProcessTraceNames, RankElsePid) {
  std::vector<ProcessInfo> info{{100, "python3", "", {1, 2, 1}},
                                {200, "python3", "", {0, 2, 0}},
                                {300, "helper", "", {}},
                                {400, "python3", "", {1, 2, 1}},   // rank 1 again: named by pid
                                {500, "python3", "", {-1, 2, 0}}};  // WORLD_SIZE without RANK
  EXPECT_EQ(processTraceNames(info), (std::vector<std::string>{"rank-1.json.gz", "rank-0.json.gz", "pid-300.json.gz",
                                                               "pid-400.json.gz", "pid-500.json.gz"}));
}

namespace {

// What `record -o DIR/` leaves for each process, read back as `ranks DIR` reads it.
std::vector<Trace> writeEachProcess(std::vector<RecordSet> sets, const std::vector<ProcessInfo>& info,
                                    const std::vector<std::string>& names) {
  auto dir = std::filesystem::temp_directory_path() / ("gapscope_each_process_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<Trace> out;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    const std::string path = (dir / names[k]).string();
    writer::WriteResult w = writer::writeChromeTrace(convertToTrace(singleProcess(std::move(sets[k]), info[k])), path);
    EXPECT_TRUE(w.ok()) << w.error;
    io::LoadResult r = io::loadChromeTrace(path);
    EXPECT_TRUE(r.ok()) << r.error;
    out.push_back(r.trace ? std::move(*r.trace) : Trace{});
  }
  std::filesystem::remove_all(dir);
  return out;
}

// The pids of the host slices and the GPU streams of a trace.
std::set<std::int64_t> hostPids(const Trace& t) {
  std::set<std::int64_t> pids;
  for (const auto& s : t.slices)
    if (!isGpuKind(s.kind)) pids.insert(t.tracks[s.track].pid.num);
  return pids;
}

std::set<std::int64_t> streams(const Trace& t) {
  std::set<std::int64_t> out;
  for (const auto& tr : t.tracks)
    if (tr.kind == TrackKind::GpuStream) out.insert(tr.stream);
  return out;
}

}  // namespace

TEST(EachProcess, OneTracePerProcessWithItsRankAndOnlyItsEvents) {
  std::vector<ProcessInfo> info{{100, "worker100", "python3 train.py", {0, 2, 0}},
                                {200, "worker200", "python3 train.py", {1, 2, 1}},
                                {300, "worker300", "helper", {}}};
  const std::vector<std::string> names = processTraceNames(info);
  EXPECT_EQ(names, (std::vector<std::string>{"rank-0.json.gz", "rank-1.json.gz", "pid-300.json.gz"}));
  std::vector<Trace> t = writeEachProcess({process(100, 7), process(200, 7), process(300, 9)}, info, names);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].metadata.distributedInfoJson, R"({"rank": 0, "world_size": 2, "local_rank": 0})");
  EXPECT_EQ(t[1].metadata.distributedInfoJson, R"({"rank": 1, "world_size": 2, "local_rank": 1})");
  EXPECT_EQ(t[2].metadata.distributedInfoJson, "");
  const std::int64_t pids[] = {100, 200, 300};
  const std::int64_t ownStream[] = {7, 7, 9};  // each file numbers its streams as its process did
  for (std::size_t k = 0; k < t.size(); ++k) {
    EXPECT_EQ(hostPids(t[k]), std::set<std::int64_t>{pids[k]}) << names[k];
    EXPECT_EQ(streams(t[k]), std::set<std::int64_t>{ownStream[k]}) << names[k];
    std::size_t kernels = 0, ops = 0;
    for (const auto& s : t[k].slices) {
      kernels += s.kind == SliceKind::Kernel;
      ops += t[k].str(s.name) == "aten::mm";  // its NVTX range classified as an operator
    }
    EXPECT_EQ(kernels, 1u) << names[k];
    EXPECT_EQ(ops, 1u) << names[k];
    EXPECT_EQ(t[k].flows.size(), 1u) << names[k];
  }
}

namespace {

// A process whose CUPTI clock reads `anchor` at wall-clock time `wall`, with
// a kernel starting at each of the wall-clock times `kernelWalls`.
RecordSet clockedProcess(std::uint64_t anchor, std::int64_t wall, const std::vector<std::int64_t>& kernelWalls) {
  RecordSet r;
  r.processId = 100;
  r.clockAnchor = anchor;
  r.wallClockAtAnchor = wall;
  for (std::int64_t at : kernelWalls) {
    KernelRecord k = fixture::kernel("kernel", 0, 0, 0);
    k.start = anchor + static_cast<std::uint64_t>(at - wall);
    k.end = k.start + 1000;
    r.kernels.push_back(k);
  }
  return r;
}

TimeNs lastKernelStart(const Trace& t) {
  TimeNs last = -1;
  for (const auto& s : t.slices)
    if (s.kind == SliceKind::Kernel) last = std::max(last, s.start);
  return last;
}

}  // namespace

// Rank 0's first record is at 0.9 s, rank 1's only at 1.5 s, in the next
// second; both run a kernel at 1.5 s, which must have one time in both.
TEST(ShareTimeBase, TheSameInstantHasTheSameTimeInEveryTrace) {
  constexpr std::int64_t second = 1'790'000'000'000'000'000;
  std::vector<RecordSet> sets{clockedProcess(1'000, second, {second + 900'000'000, second + 1'500'000'000}),
                              clockedProcess(777'000, second + 1'200'000'000, {second + 1'500'000'000})};
  EXPECT_EQ(convertToTrace(sets[1]).metadata.baseTimeNanoseconds, second + 1'000'000'000) << "alone: its own second";
  shareTimeBase(sets);
  const Trace a = convertToTrace(sets[0]);
  const Trace b = convertToTrace(sets[1]);
  EXPECT_EQ(a.metadata.baseTimeNanoseconds, second);
  EXPECT_EQ(b.metadata.baseTimeNanoseconds, second);
  EXPECT_EQ(lastKernelStart(a), 1'500'000'000);
  EXPECT_EQ(lastKernelStart(b), 1'500'000'000);
}
