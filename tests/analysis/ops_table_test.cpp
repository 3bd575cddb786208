// Operator table rules on small built traces: nesting, naming, attribution.
#include <gtest/gtest.h>

#include "gapscope/analysis/ops_table.h"
#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

using testing::TraceMaker;

const OpRow* findRow(const OpTable& t, const std::string& name, OpDevice device) {
  for (const auto& r : t.rows) {
    if (r.name == name && r.device == device) return &r;
  }
  return nullptr;
}

const OpRow& row(const OpTable& t, const std::string& name, OpDevice device = OpDevice::Cpu) {
  const OpRow* r = findRow(t, name, device);
  if (r == nullptr) throw std::runtime_error("no row " + name);
  return *r;
}

TEST(OpsTable, SelfCpuSubtractsFullyNestedChildren) {
  TraceMaker m;
  m.cpu("aten::linear", "cpu_op", 0, 100).cpu("aten::t", "cpu_op", 10, 20).cpu("aten::addmm", "cpu_op", 40, 50);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::linear").calls, 1);
  EXPECT_EQ(row(t, "aten::linear").cpuTotal, 100);
  EXPECT_EQ(row(t, "aten::linear").selfCpu, 30);
  EXPECT_EQ(row(t, "aten::t").selfCpu, 20);
  EXPECT_EQ(t.selfCpuTotal, 100);
}

TEST(OpsTable, ChildEndingExactlyAtParentEndIsNested) {
  TraceMaker m;
  m.cpu("parent", "cpu_op", 0, 100).cpu("child", "cpu_op", 60, 40);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "parent").selfCpu, 60);
}

TEST(OpsTable, PartialOverlapIsNoNesting) {
  // b = [50,150) only partly overlaps a = [0,100): not its child. c = [60,70)
  // lies inside both; the innermost full container, b, is its parent.
  TraceMaker m;
  m.cpu("a", "cpu_op", 0, 100).cpu("b", "cpu_op", 50, 100).cpu("c", "cpu_op", 60, 10);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "a").selfCpu, 100);
  EXPECT_EQ(row(t, "b").selfCpu, 90);
  EXPECT_EQ(row(t, "c").selfCpu, 10);
  EXPECT_EQ(t.selfCpuTotal, 200);
}

TEST(OpsTable, NestingIsPerThread) {
  TraceMaker m;
  m.cpu("outer", "cpu_op", 0, 100, kNoCorrelation, 1).cpu("other", "cpu_op", 10, 10, kNoCorrelation, 2);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "outer").selfCpu, 100);
  EXPECT_EQ(row(t, "other").selfCpu, 10);
}

TEST(OpsTable, ProfilerOverheadJoinsTheThreadItInterrupted) {
  // Kineto writes "Activity Buffer Request" on pid -1; PyTorch counts it as
  // a child of the op running on the thread then. Its kernel-less share of
  // the op's time leaves the op's self CPU.
  TraceMaker m;
  m.cpu("aten::pow", "cpu_op", 0, 1000, kNoCorrelation, 1).launch(900, 50, 8, 1);
  m.kernel("pow_kernel", 1000, 70, 8);
  SliceEvent overhead;
  overhead.pid = m.builder().numericId(-1);
  overhead.tid = m.builder().numericId(0);
  overhead.start = 100;
  overhead.dur = 700;
  overhead.name = m.builder().intern("Activity Buffer Request");
  overhead.category = m.builder().intern("overhead");
  m.builder().addComplete(overhead);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::pow").selfCpu, 250);
  EXPECT_EQ(row(t, "aten::pow").deviceTotal, 70);  // no double counting through the overhead
  EXPECT_EQ(row(t, "Activity Buffer Request").selfCpu, 700);
  EXPECT_EQ(row(t, "Activity Buffer Request").deviceTotal, 0);
  EXPECT_EQ(t.selfCpuTotal, 1000);
}

TEST(OpsTable, ProfilerOverheadStaysAloneWhenTheThreadIsAmbiguous) {
  TraceMaker m;
  m.cpu("a", "cpu_op", 0, 1000, kNoCorrelation, 1).cpu("b", "cpu_op", 0, 1000, kNoCorrelation, 2);
  m.cpu("Activity Buffer Request", "overhead", 100, 700, kNoCorrelation, 3);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "a").selfCpu, 1000);
  EXPECT_EQ(row(t, "b").selfCpu, 1000);
  EXPECT_EQ(row(t, "Activity Buffer Request").selfCpu, 700);
}

TEST(OpsTable, ProfilerStepsFoldIntoOneRow) {
  TraceMaker m;
  m.cpu("ProfilerStep#3", "user_annotation", 0, 100).cpu("ProfilerStep#4", "user_annotation", 200, 50);
  m.cpu("ProfilerStep", "cpu_op", 300, 5);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "ProfilerStep*").calls, 2);
  EXPECT_EQ(row(t, "ProfilerStep*").cpuTotal, 150);
  EXPECT_TRUE(row(t, "ProfilerStep*").annotation);
  EXPECT_EQ(row(t, "ProfilerStep").calls, 1);
}

TEST(OpsTable, CpuAndGpuEventsOfOneNameStayApart) {
  TraceMaker m;
  m.cpu("step", "user_annotation", 0, 100);
  m.gpu("step", "gpu_user_annotation", 50, 300);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "step", OpDevice::Cpu).cpuTotal, 100);
  EXPECT_EQ(row(t, "step", OpDevice::Cpu).deviceTotal, 0);
  EXPECT_EQ(row(t, "step", OpDevice::Gpu).selfDevice, 300);
  EXPECT_EQ(row(t, "step", OpDevice::Gpu).cpuTotal, 0);
  // A GPU annotation is a range, not work: it stays out of the GPU total.
  EXPECT_EQ(t.selfDeviceTotal, 0);
}

TEST(OpsTable, KernelsGoToTheInnermostOpAroundTheLaunch) {
  TraceMaker m;
  m.cpu("ProfilerStep#1", "user_annotation", 0, 1000);
  m.cpu("aten::linear", "cpu_op", 10, 500).cpu("aten::addmm", "cpu_op", 20, 100).launch(30, 20, 77);
  m.kernel("gemm", 200, 40, 77);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::addmm").selfDevice, 40);
  EXPECT_EQ(row(t, "aten::addmm").deviceTotal, 40);
  EXPECT_EQ(row(t, "aten::linear").selfDevice, 0);
  EXPECT_EQ(row(t, "aten::linear").deviceTotal, 40);
  EXPECT_EQ(row(t, "ProfilerStep*").deviceTotal, 40);
  EXPECT_EQ(row(t, "cudaLaunchKernel").deviceTotal, 0);
  EXPECT_EQ(row(t, "gemm", OpDevice::Gpu).selfDevice, 40);
  EXPECT_EQ(row(t, "aten::addmm").selfCpu, 80);
  EXPECT_EQ(t.selfDeviceTotal, 40);
}

TEST(OpsTable, PythonFramesAreNotOperators) {
  // with_stack=True adds python_function frames around and between ops;
  // PyTorch's table leaves them out, so an op's child is the next op down.
  TraceMaker m;
  m.cpu("step", "user_annotation", 0, 1000).cpu("model.py(10): forward", "python_function", 10, 500);
  m.cpu("aten::relu", "cpu_op", 20, 200).cpu("torch/nn/functional.py(5): relu", "python_function", 30, 100);
  m.cpu("aten::clamp_min", "cpu_op", 40, 50);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(findRow(t, "model.py(10): forward", OpDevice::Cpu), nullptr);
  EXPECT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(row(t, "step").selfCpu, 800);
  EXPECT_EQ(row(t, "aten::relu").selfCpu, 150);
  EXPECT_EQ(t.selfCpuTotal, 1000);
}

TEST(OpsTable, KernelsGoToCpuOpsOnlyNotToAnnotations) {
  // Kineto's "External id" on GPU work names the innermost cpu_op at the
  // launch; a record_function range sets none. A graph replayed straight
  // under annotations (torch.cuda.CUDAGraph.replay) is attributed to nothing.
  TraceMaker m;
  m.cpu("ProfilerStep#2", "user_annotation", 0, 1000).cpu("replay", "user_annotation", 10, 500);
  m.cpu("cudaGraphLaunch", "cuda_runtime", 20, 40, 9);
  m.kernel("graph_kernel_a", 100, 30, 9).kernel("graph_kernel_b", 140, 20, 9);
  m.cpu("aten::copy_", "cpu_op", 600, 100).cpu("cudaMemcpyAsync", "cuda_runtime", 610, 20, 10);
  m.gpu("Memcpy DtoD (Device -> Device)", "gpu_memcpy", 700, 5, 10);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "replay").deviceTotal, 0);
  EXPECT_EQ(row(t, "ProfilerStep*").selfDevice, 0);
  EXPECT_EQ(row(t, "ProfilerStep*").deviceTotal, 5);  // the copy's, through aten::copy_
  EXPECT_EQ(row(t, "graph_kernel_a", OpDevice::Gpu).selfDevice, 30);
  EXPECT_EQ(t.selfDeviceTotal, 55);
}

TEST(OpsTable, SameNameOnlyChildFoldsIntoItsParent) {
  // aten::mul > aten::mul > aten::mul: PyTorch keeps the outermost call; its
  // children become those of the innermost, and so do its kernels.
  TraceMaker m;
  m.cpu("aten::mul", "cpu_op", 0, 100).cpu("aten::mul", "cpu_op", 10, 80).cpu("aten::mul", "cpu_op", 20, 60);
  m.launch(30, 10, 4).cpu("aten::empty", "cpu_op", 50, 5);
  m.kernel("mul_kernel", 200, 7, 4);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::mul").calls, 1);
  EXPECT_EQ(row(t, "aten::mul").cpuTotal, 100);
  EXPECT_EQ(row(t, "aten::mul").selfCpu, 85);  // minus the launch (10) and aten::empty (5)
  EXPECT_EQ(row(t, "aten::mul").selfDevice, 7);
  EXPECT_EQ(row(t, "aten::mul").deviceTotal, 7);
  EXPECT_EQ(t.selfCpuTotal, 100);
}

TEST(OpsTable, SameNameChildWithSiblingsIsKept) {
  // aten::mean calling aten::div: different names, both stay. A same-name
  // child that has a sibling is a call of its own and stays too.
  TraceMaker m;
  m.cpu("aten::mean", "cpu_op", 0, 100).cpu("aten::div", "cpu_op", 10, 30);
  m.cpu("aten::mul", "cpu_op", 200, 100).cpu("aten::mul", "cpu_op", 210, 30).cpu("aten::add", "cpu_op", 250, 10);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::mean").calls, 1);
  EXPECT_EQ(row(t, "aten::div").calls, 1);
  EXPECT_EQ(row(t, "aten::mul").calls, 2);
  EXPECT_EQ(row(t, "aten::mul").selfCpu, 60 + 30);
}

TEST(OpsTable, PartlyOverlappingSiblingsNeverGiveNegativeSelfCpu) {
  // b starts inside a and ends after it: both are children of p. PyTorch
  // would subtract 60 + 60 from p's 100; the time they share counts once.
  TraceMaker m;
  m.cpu("p", "cpu_op", 0, 100).cpu("a", "cpu_op", 0, 60).cpu("b", "cpu_op", 30, 60);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "p").selfCpu, 10);
  for (const OpRow& r : t.rows) EXPECT_GE(r.selfCpu, 0) << r.name;
}

TEST(OpsTable, KernelWithoutLaunchStaysUnattributed) {
  TraceMaker m;
  m.cpu("aten::mm", "cpu_op", 0, 100).kernel("orphan", 200, 40, 99);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::mm").deviceTotal, 0);
  EXPECT_EQ(row(t, "orphan", OpDevice::Gpu).deviceTotal, 40);
  EXPECT_EQ(t.selfDeviceTotal, 40);
}

TEST(OpsTable, MemcpyAndMemsetAreAttributedLikeKernels) {
  TraceMaker m;
  m.cpu("aten::copy_", "cpu_op", 0, 100).cpu("cudaMemcpyAsync", "cuda_runtime", 10, 20, 3);
  m.cpu("aten::zero_", "cpu_op", 200, 100).cpu("cudaMemsetAsync", "cuda_runtime", 210, 20, 4);
  m.gpu("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 20, 30, 3);
  m.gpu("Memset (Device)", "gpu_memset", 220, 5, 4);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(row(t, "aten::copy_").selfDevice, 30);
  EXPECT_EQ(row(t, "aten::zero_").selfDevice, 5);
  EXPECT_EQ(t.selfDeviceTotal, 35);
}

TEST(OpsTable, CudaSyncEventsAreGpuRowsAttributedLikeKernels) {
  // Kineto writes "Context Sync" on a stream-less track (pid = device,
  // tid -1); PyTorch counts it as CUDA time of the op that synchronised.
  TraceMaker m;
  m.cpu("aten::item", "cpu_op", 0, 100).cpu("cudaDeviceSynchronize", "cuda_runtime", 10, 80, 12);
  m.gpu("Context Sync", "cuda_sync", 20, 60, 12, -1);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(findRow(t, "Context Sync", OpDevice::Cpu), nullptr);
  EXPECT_EQ(row(t, "Context Sync", OpDevice::Gpu).selfDevice, 60);
  EXPECT_EQ(row(t, "aten::item").selfDevice, 60);
  EXPECT_EQ(t.selfCpuTotal, 100);
}

TEST(OpsTable, ProfilerBookkeepingOpsAreDropped) {
  TraceMaker m;
  m.cpu("outer", "cpu_op", 0, 100).cpu("profiler::_record_function_exit", "cpu_op", 10, 30);
  m.cpu("aten::is_leaf", "cpu_op", 50, 10);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(findRow(t, "profiler::_record_function_exit", OpDevice::Cpu), nullptr);
  EXPECT_EQ(findRow(t, "aten::is_leaf", OpDevice::Cpu), nullptr);
  EXPECT_EQ(row(t, "outer").selfCpu, 100);
}

TEST(OpsTable, KinetoTraceSpanIsNotAnOp) {
  TraceMaker m;
  SliceEvent span;
  span.pid = m.builder().stringId("Spans");
  span.tid = m.builder().stringId("PyTorch Profiler");
  span.start = 0;
  span.dur = 10000;
  span.name = m.builder().intern("PyTorch Profiler (0)");
  span.category = m.builder().intern("Trace");
  m.builder().addComplete(span);
  m.cpu("aten::mm", "cpu_op", 10, 100);
  OpTable t = buildOpTable(m.finish());
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].name, "aten::mm");
}

TEST(OpsTable, GroupingByShapesSplitsRows) {
  TraceMaker m;
  m.cpu("aten::mm", "cpu_op", 0, 10, kNoCorrelation, 1, "[[2, 3], [3, 4]]");
  m.cpu("aten::mm", "cpu_op", 20, 30, kNoCorrelation, 1, "[[8, 8], [8, 8]]");
  m.cpu("aten::mm", "cpu_op", 60, 10, kNoCorrelation, 1, "[[2, 3], [3, 4]]");
  Trace trace = m.finish();
  EXPECT_EQ(buildOpTable(trace).rows.size(), 1u);
  OpTableOptions byShapes;
  byShapes.groupByShapes = true;
  OpTable grouped = buildOpTable(trace, byShapes);
  ASSERT_EQ(grouped.rows.size(), 2u);
  EXPECT_EQ(grouped.rows[0].inputShapes, "[[8, 8], [8, 8]]");  // larger CPU total first
  EXPECT_EQ(grouped.rows[0].calls, 1);
  EXPECT_EQ(grouped.rows[1].inputShapes, "[[2, 3], [3, 4]]");
  EXPECT_EQ(grouped.rows[1].calls, 2);
  EXPECT_EQ(grouped.rows[1].cpuTotal, 20);
}

TEST(OpsTable, PercentagesUsePyTorchDenominators) {
  TraceMaker m;
  m.cpu("a", "cpu_op", 0, 300).launch(10, 10, 1).cpu("b", "cpu_op", 400, 100);
  m.kernel("k", 50, 80, 1);
  m.gpu("a", "gpu_user_annotation", 40, 200);
  OpTable t = buildOpTable(m.finish());
  EXPECT_EQ(t.selfCpuTotal, 400);
  EXPECT_EQ(t.selfDeviceTotal, 80);
  EXPECT_DOUBLE_EQ(t.selfCpuPct(row(t, "a")), 72.5);
  EXPECT_DOUBLE_EQ(t.cpuTotalPct(row(t, "a")), 75.0);
  EXPECT_DOUBLE_EQ(t.selfDevicePct(row(t, "a")), 100.0);
  EXPECT_DOUBLE_EQ(t.selfDevicePct(row(t, "a", OpDevice::Gpu)), 250.0);  // as PyTorch prints it
}

TEST(OpsTable, AveragesRoundToNearestNanosecond) {
  OpRow r;
  r.calls = 3;
  r.cpuTotal = 200;  // 66.67
  r.deviceTotal = 100;
  EXPECT_EQ(r.cpuAvg(), 67);
  EXPECT_EQ(r.deviceAvg(), 33);
  EXPECT_EQ(OpRow{}.cpuAvg(), 0);
}

TEST(OpsTable, SortKeys) {
  EXPECT_EQ(parseOpSortKey("self_cpu"), OpSortKey::SelfCpu);
  EXPECT_EQ(parseOpSortKey("cuda_time_total"), OpSortKey::DeviceTotal);
  EXPECT_EQ(parseOpSortKey("self_device_us"), OpSortKey::SelfDevice);
  EXPECT_EQ(parseOpSortKey("count"), OpSortKey::Calls);
  EXPECT_FALSE(parseOpSortKey("bogus").has_value());
  EXPECT_EQ(opSortKeyNames().size(), 8u);

  std::vector<OpRow> rows(3);
  rows[0].name = "b";
  rows[0].calls = 5;
  rows[1].name = "a";
  rows[1].calls = 5;
  rows[2].name = "c";
  rows[2].calls = 9;
  sortOpRows(rows, OpSortKey::Calls);
  EXPECT_EQ(rows[0].name, "c");
  EXPECT_EQ(rows[1].name, "a");  // tie: by name
  sortOpRows(rows, OpSortKey::Name);
  EXPECT_EQ(rows[0].name, "a");
  EXPECT_EQ(rows[2].name, "c");
}

TEST(OpsTable, EmptyTrace) {
  OpTable t = buildOpTable(TraceBuilder().finish());
  EXPECT_TRUE(t.rows.empty());
  EXPECT_EQ(t.selfCpuTotal, 0);
}

}  // namespace
}  // namespace gapscope::analysis
