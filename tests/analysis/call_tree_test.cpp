// The call tree (gapscope/calltree) on a small trace whose tree is known:
// nested ops, a kernel launched from a nested op, a graph launch of three
// kernels and a launch-overhead gap, every figure asserted exactly.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <filesystem>

#include "gapscope/analysis/gaps.h"
#include "gapscope/calltree/call_tree.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/report/report.h"
#include "trace_maker.h"

namespace gapscope::calltree {
namespace {

using testing::TraceMaker;

// Thread 1:  step [0, 10000)
//              outer [1000, 6000)
//                inner [2000, 4000)
//                  cudaLaunchKernel [2500, 3000)  -> k1 [3200, 5200)
//              outer [6500, 9000)
//                cudaGraphLaunch [7000, 7500)     -> g1, g2, g3 [8000, 8600)
// Thread 2:  other [0, 500)
// The device is idle over [5200, 8000): the graph launch began after the
// queue ran dry, so the 2800 ns gap is launch overhead.
// The work of thread 1 below `outer`: inner's launch, the graph launch, and
// the GPU work they ran.
void addLaunchedWork(TraceMaker& m) {
  m.cpu("inner", "cpu_op", 2000, 2000);
  m.launch(2500, 500, 1);
  m.cpu("outer", "cpu_op", 6500, 2500);
  m.cpu("cudaGraphLaunch", "cuda_runtime", 7000, 500, 2);
  m.kernel("k1", 3200, 2000, 1);
  m.kernel("g1", 8000, 100, 2);
  m.kernel("g2", 8100, 200, 2);
  m.kernel("g3", 8300, 300, 2);
}

Trace knownTrace() {
  TraceMaker m;
  m.cpu("step", "user_annotation", 0, 10000);
  m.cpu("outer", "cpu_op", 1000, 5000);
  addLaunchedWork(m);
  m.cpu("other", "cpu_op", 0, 500, kNoCorrelation, 2);
  return m.finish();
}

// The node at the end of a path of names from a root of `thread`.
const CallNode* nodeAt(const Trace& trace, const CallTree& tree, std::size_t thread,
                       const std::vector<std::string>& path) {
  const std::vector<std::uint32_t>* level = &tree.threads.at(thread).roots;
  const CallNode* found = nullptr;
  for (const std::string& name : path) {
    found = nullptr;
    for (std::uint32_t id : *level) {
      if (trace.str(tree.nodes[id].name) == name) found = &tree.nodes[id];
    }
    if (!found) return nullptr;
    level = &found->children;
  }
  return found;
}

struct Expected {
  std::uint64_t calls;
  Figure cpu, device, launches, idle;
};

void expectNode(const CallNode* n, const Expected& e, const std::string& what) {
  ASSERT_NE(n, nullptr) << what;
  EXPECT_EQ(n->calls, e.calls) << what;
  EXPECT_EQ(n->cpuNs.total, e.cpu.total) << what;
  EXPECT_EQ(n->cpuNs.self, e.cpu.self) << what;
  EXPECT_EQ(n->deviceNs.total, e.device.total) << what;
  EXPECT_EQ(n->deviceNs.self, e.device.self) << what;
  EXPECT_EQ(n->launches.total, e.launches.total) << what;
  EXPECT_EQ(n->launches.self, e.launches.self) << what;
  EXPECT_EQ(n->idleNs.total, e.idle.total) << what;
  EXPECT_EQ(n->idleNs.self, e.idle.self) << what;
}

TEST(CallTree, KnownTreeHasExactFigures) {
  const Trace trace = knownTrace();
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace));
  ASSERT_EQ(tree.threads.size(), 2u);
  ASSERT_EQ(tree.threads[0].roots.size(), 1u);
  // Figures: {self, total}.
  expectNode(nodeAt(trace, tree, 0, {"step"}), {1, {2500, 10000}, {0, 2600}, {0, 2}, {0, 2800}}, "step");
  expectNode(nodeAt(trace, tree, 0, {"step", "outer"}), {2, {5000, 7500}, {0, 2600}, {0, 2}, {0, 2800}}, "outer");
  expectNode(nodeAt(trace, tree, 0, {"step", "outer", "inner"}), {1, {1500, 2000}, {0, 2000}, {0, 1}, {0, 0}},
             "inner");
  expectNode(nodeAt(trace, tree, 0, {"step", "outer", "inner", "cudaLaunchKernel"}),
             {1, {500, 500}, {2000, 2000}, {1, 1}, {0, 0}}, "cudaLaunchKernel");
  // One graph launch, three kernels; the device gap counts once (not again
  // for the stream gap it coincides with).
  expectNode(nodeAt(trace, tree, 0, {"step", "outer", "cudaGraphLaunch"}),
             {1, {500, 500}, {600, 600}, {1, 1}, {2800, 2800}}, "cudaGraphLaunch");
  expectNode(nodeAt(trace, tree, 1, {"other"}), {1, {500, 500}, {0, 0}, {0, 0}, {0, 0}}, "other");
}

TEST(CallTree, NodesComeParentsFirstWithDepths) {
  const Trace trace = knownTrace();
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace));
  ASSERT_EQ(tree.nodes.size(), 6u);  // step, outer, inner, cudaLaunchKernel, cudaGraphLaunch, other
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    const CallNode& n = tree.nodes[i];
    if (n.parent == kNoIndex) {
      EXPECT_EQ(n.depth, 0u);
      continue;
    }
    EXPECT_LT(n.parent, i);
    EXPECT_EQ(n.depth, tree.nodes[n.parent].depth + 1);
    EXPECT_EQ(n.thread, tree.nodes[n.parent].thread);
  }
  EXPECT_EQ(tree.threads[0].totals(tree.nodes, Metric::Cpu).total, 10000);
  EXPECT_EQ(tree.threads[0].totals(tree.nodes, Metric::Device).total, 2600);
}

TEST(CallTree, GpuWorkWithoutALaunchIsNotCharged) {
  TraceMaker m;
  m.cpu("op", "cpu_op", 0, 1000);
  m.kernel("orphan", 2000, 500, 99);  // no launch call with correlation 99
  const Trace trace = m.finish();
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace));
  ASSERT_EQ(tree.nodes.size(), 1u);
  EXPECT_EQ(tree.nodes[0].deviceNs.total, 0);
}

// A range holds the second outer call and its graph launch only: the step
// (started before) stays as their path with no call of its own, the first
// outer call, inner and thread 2 are left out.
TEST(CallTree, RangeCountsTheCallsStartingInsideIt) {
  const Trace trace = knownTrace();
  CallTreeOptions options;
  options.range = TimeRange{6000, 10000};
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace), options);
  ASSERT_EQ(tree.nodes.size(), 3u);  // step, outer, cudaGraphLaunch
  EXPECT_TRUE(tree.threads[1].roots.empty());
  expectNode(nodeAt(trace, tree, 0, {"step"}), {0, {0, 0}, {0, 600}, {0, 1}, {0, 2800}}, "step");
  expectNode(nodeAt(trace, tree, 0, {"step", "outer"}), {1, {2000, 2500}, {0, 600}, {0, 1}, {0, 2800}}, "outer");
  expectNode(nodeAt(trace, tree, 0, {"step", "outer", "cudaGraphLaunch"}),
             {1, {500, 500}, {600, 600}, {1, 1}, {2800, 2800}}, "cudaGraphLaunch");
  EXPECT_EQ(nodeAt(trace, tree, 0, {"step", "outer", "inner"}), nullptr);
  // The outer node holds the second outer slice only (index 4 in the maker's order).
  const std::uint32_t outer = tree.nodes[tree.threads[0].roots[0]].children[0];
  const std::vector<std::uint32_t> slices = tree.slicesOf(outer);
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(trace.slices[slices[0]].start, 6500);
  for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
    if (tree.nodes[i].parent != kNoIndex) {
      EXPECT_LT(tree.nodes[i].parent, i);
    }
  }
}

TEST(CallTree, SlicesOfANodeAreItsMergedCalls) {
  const Trace trace = knownTrace();
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace));
  const std::uint32_t outer = tree.nodes[tree.threads[0].roots[0]].children[0];
  const std::vector<std::uint32_t> slices = tree.slicesOf(outer);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(trace.slices[slices[0]].start, 1000);
  EXPECT_EQ(trace.slices[slices[1]].start, 6500);
}

// Bottom-up: each frame by name, its callers below it; self figures summed
// over the stacks it ends, totals of the frames no same-named frame encloses.
TEST(CallTree, BottomUpCarriesEachFrameUpItsCallers) {
  const Trace trace = knownTrace();
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace));
  const BottomUpTree bu = buildBottomUp(tree);
  EXPECT_EQ(bu.tree.threads[0].roots.size(), 5u);  // step, outer, inner, both launches
  expectNode(nodeAt(trace, bu.tree, 0, {"outer"}), {2, {5000, 7500}, {0, 2600}, {0, 2}, {0, 2800}}, "outer");
  expectNode(nodeAt(trace, bu.tree, 0, {"outer", "step"}), {2, {5000, 7500}, {0, 2600}, {0, 2}, {0, 2800}},
             "outer <- step");
  expectNode(nodeAt(trace, bu.tree, 0, {"cudaLaunchKernel", "inner", "outer", "step"}),
             {1, {500, 500}, {2000, 2000}, {1, 1}, {0, 0}}, "cudaLaunchKernel <- inner <- outer <- step");
  expectNode(nodeAt(trace, bu.tree, 0, {"cudaGraphLaunch", "outer"}),
             {1, {500, 500}, {600, 600}, {1, 1}, {2800, 2800}}, "cudaGraphLaunch <- outer");
  // Origins: the top-down node a bottom-up node stands for.
  const std::uint32_t graphRoot = [&] {
    for (std::uint32_t r : bu.tree.threads[0].roots) {
      if (trace.str(bu.tree.nodes[r].name) == "cudaGraphLaunch") return r;
    }
    return kNoIndex;
  }();
  ASSERT_NE(graphRoot, kNoIndex);
  const std::vector<std::uint32_t> origins = bu.origins(graphRoot);
  ASSERT_EQ(origins.size(), 1u);
  EXPECT_EQ(trace.str(tree.nodes[origins[0]].name), "cudaGraphLaunch");
  EXPECT_EQ(tree.nodes[origins[0]].deviceNs.self, 600);
}

// f calls f: the bottom-up root f sums both selves but counts the outer
// total only (the inner one is inside it); "f called by f" is the inner
// call alone.
TEST(CallTree, BottomUpCountsRecursionOnce) {
  TraceMaker m;
  m.cpu("f", "cpu_op", 0, 1000);
  m.cpu("f", "cpu_op", 100, 500);
  m.cpu("g", "cpu_op", 200, 100);
  const Trace trace = m.finish();
  const BottomUpTree bu = buildBottomUp(buildCallTree(trace, analysis::analyzeGaps(trace)));
  expectNode(nodeAt(trace, bu.tree, 0, {"f"}), {2, {900, 1000}, {}, {}, {}}, "f");
  expectNode(nodeAt(trace, bu.tree, 0, {"f", "f"}), {1, {400, 500}, {}, {}, {}}, "f <- f");
  expectNode(nodeAt(trace, bu.tree, 0, {"g", "f", "f"}), {1, {100, 100}, {}, {}, {}}, "g <- f <- f");
}

// The report's "idle_frames": the graph launch's 2800 ns of launch-overhead
// idle go to the innermost Python frame (forward) and the innermost module
// (Net_0) around it; <module>, further out, gets none.
TEST(CallTree, ReportChargesIdleToTheInnermostPythonFrame) {
  TraceMaker m;
  m.cpu("train.py(3): <module>", "python_function", 0, 10000);
  m.cpu("nn.Module: Net_0", "python_function", 500, 9000);
  m.cpu("model.py(8): forward", "python_function", 600, 8800);
  addLaunchedWork(m);
  const Trace trace = m.finish();
  const report::Table t = report::idleFramesTable(trace, buildCallTree(trace, analysis::analyzeGaps(trace)), 10);
  ASSERT_EQ(t.rows.size(), 2u);
  std::map<std::string, std::vector<report::Cell>> rows;
  for (const auto& row : t.rows) rows[std::get<std::string>(row[0])] = row;
  for (const char* name : {"model.py(8): forward", "nn.Module: Net_0"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(rows.count(name));
    const auto& row = rows[name];
    EXPECT_EQ(std::get<std::int64_t>(row[t.column("idle_us")]), 2800);
    EXPECT_DOUBLE_EQ(std::get<double>(row[t.column("idle_pct")]), 100.0);
    EXPECT_EQ(std::get<std::int64_t>(row[t.column("launches")]), 2);
    EXPECT_EQ(std::get<std::int64_t>(row[t.column("device_us")]), 2600);
  }
  EXPECT_EQ(std::get<std::string>(rows["nn.Module: Net_0"][t.column("kind")]), "module");
  EXPECT_EQ(std::get<std::string>(rows["model.py(8): forward"][t.column("kind")]), "python");
}

// Without Python stacks, the innermost operator: "outer" holds the graph launch.
TEST(CallTree, ReportWithoutPythonChargesTheInnermostOperator) {
  const Trace trace = knownTrace();
  const report::Table t = report::idleFramesTable(trace, buildCallTree(trace, analysis::analyzeGaps(trace)), 10);
  ASSERT_EQ(t.rows.size(), 1u);  // inner's launch waited for nothing
  EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "outer");
  EXPECT_EQ(std::get<std::string>(t.rows[0][t.column("kind")]), "operator");
  EXPECT_EQ(std::get<std::int64_t>(t.rows[0][t.column("idle_us")]), 2800);
  EXPECT_EQ(std::get<std::int64_t>(t.rows[0][t.column("launches")]), 1);
}

// Steps merged: ProfilerStep#1 and #2 are one "ProfilerStep*" node with both
// calls, their ops one node below it; bottom-up, op's caller is that node.
TEST(CallTree, MergedStepsAreOneNode) {
  TraceMaker m;
  m.cpu("ProfilerStep#1", "user_annotation", 0, 1000);
  m.cpu("op", "cpu_op", 100, 500);
  m.cpu("ProfilerStep#2", "user_annotation", 2000, 1000);
  m.cpu("op", "cpu_op", 2100, 300);
  const Trace trace = m.finish();
  CallTreeOptions options;
  options.mergeSteps = true;
  const CallTree tree = buildCallTree(trace, analysis::analyzeGaps(trace), options);
  ASSERT_EQ(tree.threads[0].roots.size(), 1u);
  const CallNode& steps = tree.nodes[tree.threads[0].roots[0]];
  EXPECT_TRUE(steps.mergedSteps);
  EXPECT_EQ(nodeName(trace, steps), "ProfilerStep*");
  EXPECT_EQ(steps.calls, 2u);
  EXPECT_EQ(steps.cpuNs.total, 2000);
  EXPECT_EQ(steps.cpuNs.self, 1200);
  ASSERT_EQ(steps.children.size(), 1u);
  EXPECT_EQ(tree.nodes[steps.children[0]].calls, 2u);
  EXPECT_EQ(tree.slicesOf(tree.threads[0].roots[0]).size(), 2u);
  const BottomUpTree bu = buildBottomUp(tree);
  EXPECT_EQ(bu.tree.threads[0].roots.size(), 2u);  // ProfilerStep*, op
  const CallNode* opUp = nodeAt(trace, bu.tree, 0, {"op"});
  ASSERT_NE(opUp, nullptr);
  ASSERT_EQ(opUp->children.size(), 1u);
  EXPECT_TRUE(bu.tree.nodes[opUp->children[0]].mergedSteps);
  EXPECT_EQ(bu.tree.nodes[opUp->children[0]].cpuNs.self, 800);
  // Without the option each step is its own root.
  EXPECT_EQ(buildCallTree(trace, analysis::analyzeGaps(trace)).threads[0].roots.size(), 2u);
}

// A record_function range opens in the Python frame of its __enter__ and
// outlives it (the layout spills it). Its node hangs under the frame that
// holds it whole, and it has no self time of its own: the frames and
// operators nested where it lies hold that time. Thread: loop [0, 1000)
// holds enter [10, 20), which opens the range step [15, 900); work [30, 800)
// runs in the loop meanwhile.
TEST(CallTree, ASpilledRangeHangsUnderTheFrameThatHoldsItAndCountsNoSelfTime) {
  TraceMaker m;
  m.cpu("loop", "python_function", 0, 1000);
  m.cpu("enter", "python_function", 10, 10);
  m.cpu("step", "user_annotation", 15, 885);
  m.cpu("work", "cpu_op", 30, 770);
  const Trace t = m.finish();
  const CallTree tree = buildCallTree(t, analysis::analyzeGaps(t));
  const CallNode* step = nodeAt(t, tree, 0, {"loop", "step"});
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->cpuNs.total, 885);
  EXPECT_EQ(step->cpuNs.self, 0);
  EXPECT_EQ(nodeAt(t, tree, 0, {"loop", "enter", "step"}), nullptr);
  // The loop's self time is what no nested slice covers: 1000 - 10 (enter) - 770 (work).
  EXPECT_EQ(nodeAt(t, tree, 0, {"loop"})->cpuNs.self, 1000 - 10 - 770);
  std::int64_t self = 0;
  for (const CallNode& n : tree.nodes) self += n.cpuNs.self;
  EXPECT_EQ(self, 1000);  // the thread ran 1000 ns, and its nodes' self times say so
}

// On every real trace, each thread's self times add up to its roots' total:
// no time is counted twice (the H100 Adam trace's main thread read 55.2 ms
// bottom-up against 19.2 ms top-down while spilled ranges kept their own).
TEST(CallTree, SelfTimesAddUpToTheRootsOnEveryRealTrace) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    const std::string path = entry.path().string();
    if (!(path.ends_with(".json") || path.ends_with(".json.gz")) || path.find(".oracle.") != std::string::npos) continue;
    SCOPED_TRACE(path);
    io::LoadResult loaded = io::loadChromeTrace(path);
    if (!loaded.trace) continue;
    const Trace& t = *loaded.trace;
    const CallTree tree = buildCallTree(t, analysis::analyzeGaps(t));
    std::vector<std::int64_t> self(tree.threads.size(), 0);
    for (const CallNode& n : tree.nodes) self[n.thread] += n.cpuNs.self;
    for (std::size_t th = 0; th < tree.threads.size(); ++th) {
      std::int64_t roots = 0;
      for (std::uint32_t r : tree.threads[th].roots) roots += tree.nodes[r].cpuNs.total;
      EXPECT_EQ(self[th], roots) << "thread " << th;
    }
    for (const CallNode& n : tree.nodes) {
      if (n.parent != kNoIndex) EXPECT_LE(n.cpuNs.total, tree.nodes[n.parent].cpuNs.total) << t.str(n.name);
    }
  }
}

TEST(CallTree, MetricNamesRoundTrip) {
  for (Metric m : {Metric::Cpu, Metric::Device, Metric::Launches, Metric::Idle}) {
    Metric back = Metric::Cpu;
    ASSERT_TRUE(metricForName(metricName(m), &back));
    EXPECT_EQ(back, m);
  }
  Metric unused = Metric::Cpu;
  EXPECT_FALSE(metricForName("gpu", &unused));
}

}  // namespace
}  // namespace gapscope::calltree
