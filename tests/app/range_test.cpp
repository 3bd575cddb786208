// Range selection and the per-step view: a drag on the time axis selects a
// range and the operator, kernel and gap tables and the range summary then cover it
// only; a step picked in the Steps dock (or on the utilisation strip)
// zooms to it and selects its range.
#include <algorithm>
#include <atomic>
#include <future>
#include <mutex>

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include "app_test_support.h"
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/kernel_table.h"
#include "elided_label.h"
#include "main_window.h"
#include "models/gap_list_model.h"
#include "models/kernel_table_model.h"
#include "models/op_table_model.h"
#include "models/report_table_model.h"
#include "models/table_format.h"
#include "panels/analysis_panels.h"
#include "panels/latest_job.h"
#include "panels/steps_panel.h"
#include "timeline/timeline_view.h"
#include "timeline/timeline_widget.h"
#include "timeline/utilisation_strip.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;
using gapscope::app::testing::waitUntil;

namespace {

class RangeWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ensureApp();
    w_ = std::make_unique<MainWindow>();
    w_->resize(1400, 900);
    w_->show();
    QSignalSpy loaded(w_.get(), &MainWindow::traceLoaded);
    ASSERT_TRUE(w_->openTrace(testData("h200/split_stack_eager.json")));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 0; }));
  }
  TraceSession& s() { return *w_->session(); }

  std::uint64_t kernelCalls() {
    w_->kernels()->waitForTable();
    std::uint64_t calls = 0;
    for (int r = 0; r < w_->kernels()->model()->rowCount(); ++r)
      calls += static_cast<std::uint64_t>(w_->kernels()->model()->kernelRow(r)->calls);
    return calls;
  }

  std::int64_t opCalls(const std::string& name) {
    w_->ops()->waitForTable();
    for (int r = 0; r < w_->ops()->model()->rowCount(); ++r)
      if (const auto* row = w_->ops()->model()->opRow(r); row->name == name) return row->calls;
    return 0;
  }

  std::unique_ptr<MainWindow> w_;
};

}  // namespace

TEST_F(RangeWindow, ADragOnTheAxisSelectsARangeTheTablesFollow) {
  TimelineWidget* t = w_->timeline();
  const double y = t->chrome().axisHeight / 2;
  const double x0 = t->chrome().namesWidth + (t->width() - t->chrome().namesWidth) * 0.3;
  const double x1 = t->chrome().namesWidth + (t->width() - t->chrome().namesWidth) * 0.6;
  QTest::mousePress(t, Qt::LeftButton, {}, QPoint(static_cast<int>(x0), static_cast<int>(y)));
  QTest::mouseMove(t, QPoint(static_cast<int>((x0 + x1) / 2), static_cast<int>(y)));
  QTest::mouseMove(t, QPoint(static_cast<int>(x1), static_cast<int>(y)));
  QTest::mouseRelease(t, Qt::LeftButton, {}, QPoint(static_cast<int>(x1), static_cast<int>(y)));
  const auto range = s().range();
  ASSERT_TRUE(range.has_value());
  EXPECT_GT(range->duration(), 0);

  // Kernels: those that started inside the range, counted here from the trace.
  std::uint64_t inRange = 0;
  for (const Slice& sl : s().trace().slices) inRange += sl.kind == SliceKind::Kernel && range->contains(sl.start);
  EXPECT_EQ(kernelCalls(), inRange);
  EXPECT_LT(inRange, s().analysis().summary().kernels);
  // Operators: aten::tanh calls that started inside the range, counted here.
  std::int64_t tanhInRange = 0, tanhAll = 0;
  for (const Slice& sl : s().trace().slices) {
    if (sl.kind != SliceKind::CpuOp || s().trace().str(sl.name) != "aten::tanh") continue;
    ++tanhAll;
    tanhInRange += range->contains(sl.start);
  }
  ASSERT_GT(tanhInRange, 0);
  ASSERT_LT(tanhInRange, tanhAll);
  EXPECT_EQ(opCalls("aten::tanh"), tanhInRange);
  // Gaps: only those overlapping the range.
  GapListModel* gaps = w_->gaps()->model();
  ASSERT_GT(gaps->rowCount(), 0);
  for (int r = 0; r < gaps->rowCount(); ++r) {
    const auto& g = s().gaps().gaps[gaps->gapIndex(r)];
    EXPECT_TRUE(range->overlaps(g.start, g.end()));
  }
  // The summary: the range's length and each GPU's busy time in it.
  auto* info = w_->findChild<QLabel*>(QStringLiteral("rangeInfo"));
  ASSERT_TRUE(info->isVisible());
  // GPU busy counted here: the trace has one device with one stream, whose
  // kernels and copies never overlap, so busy is their time inside the range.
  TimeNs busy = 0;
  for (const Slice& sl : s().trace().slices)
    if (isGpuActivity(sl.kind)) busy += std::max<TimeNs>(0, std::min(sl.end(), range->end) - std::max(sl.start, range->start));
  ASSERT_GT(busy, 0);
  EXPECT_EQ(analysis::busyIn(s().analysis().busy(), *range).front().second, busy);
  EXPECT_TRUE(info->text().contains(durationText(range->duration()))) << info->text().toStdString();
  EXPECT_TRUE(info->text().contains(durationText(busy))) << info->text().toStdString();

  // Esc: the whole trace again.
  QTest::keyClick(t, Qt::Key_Escape);
  EXPECT_FALSE(s().range().has_value());
  EXPECT_EQ(kernelCalls(), s().analysis().summary().kernels);
  EXPECT_EQ(opCalls("aten::tanh"), tanhAll);
  EXPECT_FALSE(info->isVisible());
}

// A range picked and dropped again before its tables came (on a 10 GB trace
// the operator table of a range takes a second or two): the window neither
// waits for them nor lets them replace the whole trace's tables later.
TEST_F(RangeWindow, ARangeClearedBeforeItsTablesCameLeavesTheWholeTracesTables) {
  const std::int64_t tanhAll = opCalls("aten::tanh");
  const std::uint64_t kernelsAll = kernelCalls();
  const auto& steps = s().gaps().steps;
  ASSERT_GT(steps.size(), 1u);
  const TimeRange step{steps[1].cpuStart, steps[1].cpuEnd};
  std::int64_t tanhInStep = 0;
  for (const Slice& sl : s().trace().slices)
    tanhInStep += sl.kind == SliceKind::CpuOp && s().trace().str(sl.name) == "aten::tanh" && step.contains(sl.start);
  ASSERT_LT(tanhInStep, tanhAll);
  s().setRange(step);
  s().setRange(std::nullopt);  // no event handled between: the step's tables are on their way
  EXPECT_EQ(opCalls("aten::tanh"), tanhAll);  // waits for the step's table, handles what it sends
  EXPECT_EQ(kernelCalls(), kernelsAll);
  QTest::qWait(100);
  EXPECT_EQ(opCalls("aten::tanh"), tanhAll);
  EXPECT_EQ(kernelCalls(), kernelsAll);
}

// The range tables' jobs: one runs at a time, the newest request waits for
// it and those between are never run, only the latest result arrives, and
// a dropped one not at all.
TEST(LatestJob, RunsOneAtATimeAndDeliversOnlyTheLatest) {
  gapscope::app::testing::ensureApp();
  QObject owner;
  std::vector<int> delivered;
  LatestJob<int> job(&owner, [&](int v) { delivered.push_back(v); });
  std::promise<void> release;
  const std::shared_future<void> gate = release.get_future().share();
  std::atomic<int> running{0}, mostAtOnce{0};
  std::vector<int> ran;
  std::mutex ranMutex;
  auto work = [&](int v) {
    return [&, v, gate] {
      const int now = ++running;
      for (int seen = mostAtOnce.load(); now > seen && !mostAtOnce.compare_exchange_weak(seen, now);) {
      }
      gate.wait();
      {
        std::lock_guard lock(ranMutex);
        ran.push_back(v);
      }
      --running;
      return v;
    };
  };
  job.start(work(1));  // runs, held at the gate
  job.start(work(2));  // waits for it
  job.start(work(3));  // replaces 2
  release.set_value();
  job.waitForLatest();
  EXPECT_EQ(delivered, std::vector<int>{3});
  EXPECT_EQ(ran, (std::vector<int>{1, 3}));
  EXPECT_EQ(mostAtOnce.load(), 1);
  job.start(work(4));
  job.drop();
  job.waitForLatest();
  EXPECT_EQ(delivered, std::vector<int>{3});
}

TEST_F(RangeWindow, PickingAStepZoomsToItAndSelectsItsRange) {
  StepsPanel* steps = w_->steps();
  const auto& stepStats = s().gaps().steps;
  ASSERT_EQ(steps->model()->rowCount(), static_cast<int>(stepStats.size()));  // one device
  steps->pickStep(1);
  const auto& step = stepStats[1];
  const auto range = s().range();
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->start, step.cpuStart);
  EXPECT_GE(range->end, step.cpuEnd);
  // The view shows the step, and not much else.
  const auto& scale = w_->timeline()->scale();
  EXPECT_LE(scale.start(), step.cpuStart);
  EXPECT_GE(scale.end(), range->end);
  EXPECT_LT(scale.duration(), 1.3 * static_cast<double>(range->duration()));
  // Its kernels are the ones the step launched (each step synchronises).
  EXPECT_EQ(kernelCalls(), step.kernels);
  // The status bar names the range: the step with its GPU work, not the
  // step's GPU window the Steps table's figures are over.
  auto* info = w_->findChild<QLabel*>(QStringLiteral("rangeInfo"));
  EXPECT_TRUE(info->text().startsWith(QString::fromStdString(std::string(s().trace().str(step.name))) +
                                      " with its GPU work: Range "))
      << info->text().toStdString();
  // A drag is just a range again.
  s().setRange(TimeRange{step.cpuStart, step.cpuEnd});
  EXPECT_TRUE(info->text().startsWith("Range ")) << info->text().toStdString();
}

// At the smallest window the status bar's trace and range summaries share
// the line: neither overlaps the other, and one too long for its room ends
// in "…" with the whole text in its tooltip (it was cut mid-character).
TEST_F(RangeWindow, TheStatusSummariesGiveWayWithoutOverlapping) {
  w_->resize(1024, 700);
  waitUntil([&] { return w_->width() <= 1024; });
  w_->steps()->pickStep(1);
  auto* info = w_->findChild<ElidedLabel*>(QStringLiteral("traceInfo"));
  auto* range = w_->findChild<ElidedLabel*>(QStringLiteral("rangeInfo"));
  ASSERT_NE(info, nullptr);
  ASSERT_NE(range, nullptr);
  ASSERT_TRUE(waitUntil([&] { return range->isVisible(); }));
  QApplication::processEvents();
  EXPECT_FALSE(info->geometry().intersects(range->geometry()));
  // Squeezed (a longer range text, a badge beside it): each gives way, eliding.
  const QString longer = range->text() + range->text();
  range->setText(longer);
  QApplication::processEvents();
  EXPECT_FALSE(info->geometry().intersects(range->geometry()));
  for (ElidedLabel* label : {info, range}) {
    if (label->shownText() == label->text()) continue;
    EXPECT_TRUE(label->shownText().endsWith(QChar(0x2026))) << label->shownText().toStdString();
    label->repaint();
    EXPECT_EQ(label->toolTip(), label->text());
  }
  EXPECT_TRUE(info->shownText() != info->text() || range->shownText() != longer);  // it did not fit whole
}

TEST_F(RangeWindow, TheUtilisationStripMarksTheStepsAndAClickPicksOne) {
  w_->timeline()->fitAll();
  UtilisationStrip* strip = w_->findChild<UtilisationStrip*>();
  waitUntil([&] { return !strip->markedSteps().empty(); }, 2000);
  ASSERT_EQ(strip->markedSteps().size(), s().gaps().steps.size());
  const auto& step = s().gaps().steps[2];
  const double x = w_->timeline()->chrome().namesWidth + w_->timeline()->scale().toPixel(step.cpuStart) + 3;
  strip->pickStepAt(x);
  ASSERT_TRUE(s().range().has_value());
  EXPECT_EQ(s().range()->start, step.cpuStart);
}
