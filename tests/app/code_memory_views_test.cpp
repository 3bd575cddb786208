// The Call Tree dock (flame graph and tree table) and the memory views (the
// memory lane, the Memory dock): widths from the tree's figures, a picked
// frame highlighting exactly its slices, the range rule, and a click on a
// memory lane listing the allocations live there.
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

#include "../analysis/trace_maker.h"
#include "app_test_support.h"
#include "gapscope/analysis/steps.h"
#include "calltree/call_tree_model.h"
#include "calltree/flame_geometry.h"
#include "calltree/flame_graph_panel.h"
#include "calltree/flame_graph_widget.h"
#include "main_window.h"
#include "models/report_table_model.h"
#include "panels/memory_panel.h"
#include "timeline/timeline_view.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;
using gapscope::app::testing::waitUntil;
using gapscope::testing::TraceMaker;

namespace {

// step [0, 10000) > a [0, 6000) > x [0, 1000); b [6000, 10000)
Trace smallTree() {
  TraceMaker m;
  m.cpu("step", "user_annotation", 0, 10000);
  m.cpu("a", "cpu_op", 0, 6000);
  m.cpu("x", "cpu_op", 0, 1000);
  m.cpu("b", "cpu_op", 6000, 4000);
  return m.finish();
}

const FlameFrame* frameNamed(const Trace& trace, const calltree::CallTree& tree, const FlameLayout& layout,
                             std::string_view name) {
  for (const FlameFrame& f : layout.frames) {
    if (f.node != kNoIndex && trace.str(tree.nodes[f.node].name) == name) return &f;
  }
  return nullptr;
}

TEST(FlameGeometry, WidthsAreTheMetricsShare) {
  const Trace trace = smallTree();
  const calltree::CallTree tree = calltree::buildCallTree(trace, analysis::analyzeGaps(trace));
  const FlameLayout layout = layoutFlame(tree, {});
  EXPECT_EQ(layout.total, 10000);
  EXPECT_EQ(layout.depths, 4);  // thread, step, a|b, x
  const FlameFrame* a = frameNamed(trace, tree, layout, "a");
  const FlameFrame* b = frameNamed(trace, tree, layout, "b");
  const FlameFrame* x = frameNamed(trace, tree, layout, "x");
  ASSERT_TRUE(a && b && x);
  EXPECT_DOUBLE_EQ(a->x0, 0.0);  // the heavier child first
  EXPECT_DOUBLE_EQ(a->x1, 0.6);
  EXPECT_DOUBLE_EQ(b->x0, 0.6);
  EXPECT_DOUBLE_EQ(b->x1, 1.0);
  EXPECT_DOUBLE_EQ(x->x1 - x->x0, 0.1);
  EXPECT_EQ(x->depth, 3);

  // Zoomed to a: a full width, its callers above it as a path, b left out.
  FlameOptions zoom;
  zoom.zoomNode = tree.nodeOfSlice[1];
  const FlameLayout zoomed = layoutFlame(tree, zoom);
  EXPECT_EQ(zoomed.total, 6000);
  EXPECT_EQ(frameNamed(trace, tree, zoomed, "b"), nullptr);
  EXPECT_DOUBLE_EQ(frameNamed(trace, tree, zoomed, "a")->x1, 1.0);
  EXPECT_NEAR(frameNamed(trace, tree, zoomed, "x")->x1, 1000.0 / 6000.0, 1e-12);

  // Frames under the minimum width are left out, with what they hold.
  FlameOptions narrow;
  narrow.minFraction = 0.2;
  EXPECT_EQ(frameNamed(trace, tree, layoutFlame(tree, narrow), "x"), nullptr);
}

// The bottom-up flame graph weighs frames by self values: step's self (the
// 0 ns it does not spend in a or b) and a's 5000 ns above its caller step.
TEST(FlameGeometry, BottomUpWidthsAreSelfValues) {
  const Trace trace = smallTree();
  const calltree::CallTree tree = calltree::buildCallTree(trace, analysis::analyzeGaps(trace));
  const calltree::BottomUpTree bu = calltree::buildBottomUp(tree);
  FlameOptions options;
  options.selfWeights = true;
  const FlameLayout layout = layoutFlame(bu.tree, options);
  EXPECT_EQ(layout.total, 10000);  // every self value once
  const FlameFrame* a = frameNamed(trace, bu.tree, layout, "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value, 5000);
  for (const FlameFrame& f : layout.frames) {
    if (f.node == kNoIndex || trace.str(bu.tree.nodes[f.node].name) != "step") continue;
    EXPECT_GT(f.depth, 1);  // only as a caller: the root step weighs its 0 ns of self time
    // step as the caller of a (a's 5000 ns self), of b (4000), of a calling x (x's 1000).
    const std::string_view callee = trace.str(bu.tree.nodes[bu.tree.nodes[f.node].parent].name);
    const std::int64_t expected = f.depth == 3 ? 1000 : callee == "a" ? 5000 : 4000;
    EXPECT_EQ(f.value, expected) << callee << " at depth " << f.depth;
  }
}

class CodeMemoryWindow : public ::testing::Test {
 protected:
  void open(const std::string& path) {
    ensureApp();
    w_ = std::make_unique<MainWindow>();
    w_->resize(1400, 900);
    w_->show();
    QSignalSpy loaded(w_.get(), &MainWindow::traceLoaded);
    ASSERT_TRUE(w_->openTrace(testData(path)));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 0; }));
  }
  void showDock(const QString& name) {
    auto* dock = w_->findChild<QDockWidget*>(name);
    ASSERT_NE(dock, nullptr);
    dock->show();
    dock->raise();
    QCoreApplication::processEvents();
  }
  TraceSession& s() { return *w_->session(); }
  std::unique_ptr<MainWindow> w_;
};

// The node with the largest total of `metric` below the roots.
std::uint32_t heaviest(const calltree::CallTree& tree, calltree::Metric metric) {
  std::uint32_t best = kNoIndex;
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
    if (tree.nodes[n].parent == kNoIndex) continue;
    if (best == kNoIndex || tree.nodes[n].figure(metric).total > tree.nodes[best].figure(metric).total) best = n;
  }
  return best;
}

// Picking a frame highlights the slices merged into it: as many as its
// calls, all of its name, each under the same chain of names.
TEST_F(CodeMemoryWindow, PickedFrameHighlightsItsSlices) {
  open("h200/mlp_eager.json");
  showDock(QStringLiteral("callTreeDock"));
  FlameGraphPanel* panel = w_->callTree();
  panel->waitForTrees();
  ASSERT_NE(panel->views().topDown, nullptr);
  const calltree::CallTree& tree = *panel->views().topDown;
  EXPECT_EQ(panel->model()->rowCount(), static_cast<int>(tree.threads.size()));
  const std::uint32_t node = heaviest(tree, calltree::Metric::Device);
  ASSERT_NE(node, kNoIndex);
  panel->pickNode(node);
  const std::vector<std::uint32_t>& lit = s().highlights();
  ASSERT_EQ(lit.size(), tree.nodes[node].calls);
  const Trace& trace = s().trace();
  for (std::uint32_t slice : lit) {
    std::uint32_t n = node;
    for (std::uint32_t sl = slice; sl != kNoIndex; sl = trace.slices[sl].parent, n = tree.nodes[n].parent) {
      ASSERT_NE(n, kNoIndex);
      // The held tree merges the profiler steps into one "ProfilerStep*" node.
      if (tree.nodes[n].mergedSteps) {
        EXPECT_TRUE(analysis::isProfilerStepName(trace.str(trace.slices[sl].name)));
      } else {
        EXPECT_EQ(trace.slices[sl].name, tree.nodes[n].name);
      }
    }
    EXPECT_EQ(n, kNoIndex);  // the slice's chain is exactly the node's path
  }
  EXPECT_EQ(panel->flame()->selectedNode(), node);
  EXPECT_NE(s().selectedSlice(), kNoIndex);  // the longest, selected and shown
}

// Bottom-up: a root stands for every call of its name on its thread.
TEST_F(CodeMemoryWindow, BottomUpRootHighlightsEveryCallOfItsName) {
  open("h200/mlp_eager.json");
  showDock(QStringLiteral("callTreeDock"));
  FlameGraphPanel* panel = w_->callTree();
  panel->waitForTrees();
  panel->directionBox()->setCurrentIndex(1);
  ASSERT_TRUE(panel->bottomUp());
  const calltree::CallTree& bu = panel->views().bottomUp->tree;
  const calltree::ThreadCalls& thread = bu.threads.at(0);
  std::uint32_t root = kNoIndex;
  for (std::uint32_t r : thread.roots) {
    if (s().trace().str(bu.nodes[r].name) == "aten::addmm") root = r;
  }
  ASSERT_NE(root, kNoIndex);
  panel->pickNode(root);
  const Trace& trace = s().trace();
  const Track& track = trace.tracks[thread.track];
  std::size_t named = 0;
  for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i) {
    named += trace.str(trace.slices[i].name) == "aten::addmm";
  }
  EXPECT_GT(named, 0u);
  EXPECT_EQ(s().highlights().size(), named);
}

// With a range, the tree holds the calls starting inside it.
TEST_F(CodeMemoryWindow, CallTreeFollowsTheRange) {
  open("h200/mlp_eager.json");
  showDock(QStringLiteral("callTreeDock"));
  FlameGraphPanel* panel = w_->callTree();
  panel->waitForTrees();
  const auto& steps = s().gaps().steps;
  ASSERT_FALSE(steps.empty());
  const TimeRange range{steps.front().cpuStart, steps.front().cpuEnd};
  s().setRange(range);
  panel->waitForTrees();
  const calltree::CallTree& tree = *panel->views().topDown;
  std::uint64_t calls = 0;
  for (const calltree::CallNode& n : tree.nodes) calls += n.calls;
  std::uint64_t inside = 0;
  const Trace& trace = s().trace();
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    inside += tree.nodeOfSlice[i] != kNoIndex;
    if (tree.nodeOfSlice[i] != kNoIndex) {
      EXPECT_TRUE(range.contains(trace.slices[i].start));
    }
  }
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(calls, inside);
  EXPECT_LT(calls, s().analysis().callTree().nodes.size() + s().trace().slices.size());
  std::uint64_t wholeCalls = 0;
  for (const calltree::CallNode& n : s().analysis().callTree().nodes) wholeCalls += n.calls;
  EXPECT_LT(calls, wholeCalls);
}

// The memory lane sits under the GPU's lanes; a click on it at the peak
// lists the allocations live there.
TEST_F(CodeMemoryWindow, MemoryLaneClickListsLiveAllocations) {
  open("public/tl-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz");
  const timeline::TimelineLayout& layout = s().layout();
  ASSERT_EQ(layout.memoryLanes().size(), 2u);  // CPU and GPU 0
  std::uint32_t gpuLane = kNoIndex;
  for (std::uint32_t l = 0; l < layout.lanes().size(); ++l) {
    const timeline::Lane& lane = layout.lanes()[l];
    if (lane.kind == timeline::LaneKind::Memory && layout.memoryLanes()[lane.memory].device == 0) gpuLane = l;
  }
  ASSERT_NE(gpuLane, kNoIndex);
  const timeline::Group& group = layout.groups()[layout.lanes()[gpuLane].group];
  EXPECT_EQ(group.kind, timeline::GroupKind::Gpu);
  EXPECT_EQ(group.device, 0);
  EXPECT_EQ(group.lanes.back(), gpuLane);  // under the streams

  const memory::DeviceMemory& gpu = *s().analysis().memory().device(0);
  const timeline::MemoryLane& lane = layout.memoryLanes()[layout.lanes()[gpuLane].memory];
  EXPECT_EQ(lane.peakAllocated, gpu.peakAllocated);
  EXPECT_EQ(lane.allocated.ts.size(), gpu.curve.size());

  TimelineWidget* timeline = w_->timeline();
  timeline->fitAll();
  timeline->setScrollY(0);
  QCoreApplication::processEvents();
  const QRectF rect = timeline->laneRect(gpuLane);
  ASSERT_FALSE(rect.isNull());
  const QPoint at(static_cast<int>(timeline->xOfTime(gpu.peakAllocatedTs)) + 1, static_cast<int>(rect.center().y()));
  QSignalSpy picked(w_->session(), &TraceSession::memoryTimePicked);
  QTest::mouseClick(timeline, Qt::LeftButton, {}, at);
  ASSERT_EQ(picked.count(), 1);
  const TimeNs ts = picked.at(0).at(1).toLongLong();
  EXPECT_GE(ts, gpu.peakAllocatedTs);
  MemoryPanel* panel = w_->memory();
  EXPECT_EQ(panel->liveTime(), ts);
  const auto live = memory::liveAllocations(s().analysis().memory(), 0, ts);
  EXPECT_EQ(panel->liveModel()->rowCount(), static_cast<int>(live.size()));
  EXPECT_EQ(panel->tabs()->currentIndex(), 2);
  auto* dock = w_->findChild<QDockWidget*>(QStringLiteral("memoryDock"));
  EXPECT_TRUE(dock->isVisible());
}

// The dock's tables for the device, and for a range.
TEST_F(CodeMemoryWindow, MemoryDockTablesAndRange) {
  open("public/tl-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz");
  MemoryPanel* panel = w_->memory();
  const memory::MemoryAnalysis& m = s().analysis().memory();
  const memory::DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(panel->deviceBox()->currentData().toInt(), 0);  // a GPU first
  EXPECT_EQ(panel->byOpModel()->rowCount(), static_cast<int>(gpu.byOp.size()));
  EXPECT_EQ(static_cast<std::uint64_t>(panel->allocationsModel()->rowCount()), gpu.allocated.count);
  EXPECT_EQ(panel->liveTime(), gpu.peakAllocatedTs);  // the peak until a click
  EXPECT_TRUE(panel->summary()->text().contains(QStringLiteral("96.6 MiB")));

  const TimeRange range{gpu.peakAllocatedTs - 100'000, gpu.peakAllocatedTs + 100'000};
  s().setRange(range);
  panel->waitForAnalysis();
  memory::MemoryOptions options;
  options.range = range;
  const memory::MemoryAnalysis inside = memory::analyzeMemory(s().trace(), options);
  EXPECT_EQ(static_cast<std::uint64_t>(panel->allocationsModel()->rowCount()), inside.device(0)->allocated.count);
  EXPECT_TRUE(panel->summary()->text().contains(QStringLiteral("selected range")));
  s().setRange(std::nullopt);
  panel->waitForAnalysis();
  EXPECT_EQ(static_cast<std::uint64_t>(panel->allocationsModel()->rowCount()), gpu.allocated.count);
}

// A 2021 trace's memory events carry no address: which allocations were
// freed is unknown, and the dock says so instead of "never freed: 0".
TEST_F(CodeMemoryWindow, WithoutAddressesNeverFreedAndLiveAreUnknown) {
  open("public/kineto-tb-resnet50-2021/worker0.1623143089861.pt.trace.json.gz");
  MemoryPanel* panel = w_->memory();
  const memory::DeviceMemory* d = s().analysis().memory().device(panel->deviceBox()->currentData().toInt());
  ASSERT_NE(d, nullptr);
  ASSERT_GT(d->withoutAddress, 0u);
  const QString summary = panel->summary()->text();
  EXPECT_TRUE(summary.contains(QStringLiteral("never freed: unknown (%1 events without an address)").arg(d->withoutAddress)))
      << summary.toStdString();
  const QString live = panel->findChild<QLabel*>(QStringLiteral("memoryLiveLabel"))->text();
  EXPECT_TRUE(live.contains(QStringLiteral("which allocations is unknown"))) << live.toStdString();
  EXPECT_FALSE(live.contains(QStringLiteral("from before the trace"))) << live.toStdString();
}

}  // namespace
