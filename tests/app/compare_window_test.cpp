// The compare window as a user drives it: open a pair, read the verdict,
// pick a row of the Compare dock and see its slices in both timelines,
// align at another step, export the comparison, and a bad file named while
// the good run stays shown.
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <QDockWidget>

#include <gtest/gtest.h>

#include "app_test_support.h"
#include "compare/compare_panel.h"
#include "compare/compare_window.h"
#include "elided_label.h"
#include "gapscope/compare/compare.h"
#include "gapscope/format/escape.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/timeline/slice_queries.h"
#include "main_window.h"
#include "models/report_table_model.h"
#include "panels/step_times_chart.h"
#include "panels/table_panel.h"
#include "timeline/timeline_view.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"
#include "../support/unmarked_loop.h"

#include <qcustomplot.h>

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;
using gapscope::app::testing::waitUntil;

namespace {

const char* kSplit = "h200/split_stack_eager.json";
const char* kCombined = "h200/combined_eager.json";

class ComparePair : public ::testing::Test {
 protected:
  void SetUp() override {
    ensureApp();
    window_ = std::make_unique<CompareWindow>();
    window_->show();
  }

  // Opens the pair and waits until it is compared (or one run failed).
  bool open(const QString& a, const QString& b) {
    QSignalSpy ready(window_.get(), &CompareWindow::pairReady);
    QSignalSpy compared(window_.get(), &CompareWindow::comparisonReady);
    window_->openPair(a, b);
    if (!waitUntil([&] { return ready.count() > 0; })) return false;
    const bool both = window_->session(CompareWindow::A)->hasTrace() && window_->session(CompareWindow::B)->hasTrace();
    return !both || waitUntil([&] { return compared.count() > 0; });
  }

  // The comparison of the two files, computed here from the library.
  compare::Comparison expected(const char* a, const char* b) {
    auto load = [](const char* f) {
      io::LoadResult r = io::loadChromeTrace(testData(f).toStdString());
      return std::make_shared<const analysis::TraceAnalysis>(std::make_shared<const Trace>(std::move(*r.trace)));
    };
    return compare::compareTraces(*load(a), *load(b));
  }

  CompareWindow& w() { return *window_; }
  std::unique_ptr<CompareWindow> window_;
};

}  // namespace

TEST_F(ComparePair, ShowsBothRunsTheVerdictAndTheTables) {
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  const compare::Comparison c = expected(kSplit, kCombined);
  EXPECT_EQ(w().verdictText().toStdString(), c.verdict);
  EXPECT_EQ(w().findChild<QLabel*>(QStringLiteral("compareVerdict"))->text().toStdString(), c.verdict);
  EXPECT_TRUE(w().findChild<QLabel*>(QStringLiteral("compareWarnings"))->isHidden());
  ComparePanel* panel = w().panel();
  EXPECT_EQ(panel->model("runs")->rowCount(), 2);
  EXPECT_EQ(panel->model("idle_per_step")->rowCount(), static_cast<int>(analysis::kGapCauseCount));
  EXPECT_EQ(panel->model("kernels")->rowCount(), static_cast<int>(c.kernels.size()));
  EXPECT_EQ(panel->model("ops")->rowCount(), static_cast<int>(c.ops.size()));
  // The first kernel row is the largest change, as in the CLI.
  EXPECT_EQ(panel->model("kernels")->text(0, "name"), c.kernels.front().name);
  EXPECT_TRUE(w().findChild<QAction*>(QStringLiteral("exportComparisonAction"))->isEnabled());
}

// The training script eager and compiled (tests/data/h100-user): the Step
// times tab draws each run's 11 iterations after the warm-up at their step
// numbers, each as long as the data loader's next() to the next counted in
// the JSON, under the verdict's test in words.
TEST_F(ComparePair, TheStepTimesTabShowsEachRunsStepsAndTheirSpread) {
  const char* runs[2] = {"h100-user/eager-torch.json.gz", "h100-user/compiled-torch.json.gz"};
  ASSERT_TRUE(open(testData(runs[0]), testData(runs[1])));
  ComparePanel* panel = w().panel();
  StepTimesChart* chart = panel->stepTimesChart();
  for (int run = 0; run < 2; ++run) {
    const auto loop = gapscope::testing::unmarkedLoopFromJson(testData(runs[run]).toStdString());
    ASSERT_EQ(chart->points(run), 11) << run;
    const auto* data = chart->plot()->graph(2 * run)->data().data();
    for (int k = 0; k < 11; ++k) {
      const std::size_t step = static_cast<std::size_t>(k) + 1;  // the warm-up is step 0 of nextStarts
      EXPECT_DOUBLE_EQ(data->at(k)->key, static_cast<double>(k + 2)) << run;
      EXPECT_DOUBLE_EQ(data->at(k)->value,
                       static_cast<double>(loop.nextStarts[step + 1] - loop.nextStarts[step]) / 1e6)
          << run << " step " << k + 2;
    }
  }
  EXPECT_TRUE(panel->spreadLabel()->text().endsWith(QStringLiteral("Beyond the steps' spread (p &lt; 0.001 over 11 and 11 steps)")))
      << panel->spreadLabel()->text().toStdString();
  EXPECT_TRUE(w().verdictText().contains(QStringLiteral("beyond the steps' spread (p < 0.001 over 11 and 11 steps)")));

  // A click on B's step 7 aligns both timelines there (the 7th step of
  // each: index 6, the warm-up being step 1).
  panel->tabs()->setCurrentWidget(chart->parentWidget());
  QCoreApplication::processEvents();
  const QPoint at = gapscope::app::testing::pixelOfStep(*chart, 1, 7);
  ASSERT_TRUE(chart->pointAt(at));
  EXPECT_EQ(chart->pointAt(at)->run, 1);
  EXPECT_EQ(chart->pointAt(at)->step, 7);
  QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, at);
  EXPECT_EQ(w().alignedStep(), 6);
  EXPECT_EQ(w().findChild<QComboBox*>(QStringLiteral("alignStep"))->currentText(), QStringLiteral("step 7"));
}

TEST_F(ComparePair, AKernelRowHighlightsItsSlicesInBothRuns) {
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  ComparePanel* panel = w().panel();
  ReportTableModel* kernels = panel->model("kernels");
  int row = -1;
  for (int r = 0; r < kernels->rowCount(); ++r)
    if (kernels->integer(r, "count_a") > 0 && kernels->integer(r, "count_b") > 0) row = r;
  ASSERT_GE(row, 0);
  // A click on the row, as a user makes it.
  TablePanel* table = panel->panel("kernels");
  table->view()->setFocus();
  const QModelIndex index = table->proxy()->mapFromSource(kernels->index(row, 0));
  QTest::mouseClick(table->view()->viewport(), Qt::LeftButton, {}, table->view()->visualRect(index).center());
  const std::string name = kernels->text(row, "name");
  for (auto side : {CompareWindow::A, CompareWindow::B}) {
    TraceSession* s = w().session(side);
    const auto named = timeline::findSlicesNamed(s->trace(), name);
    EXPECT_EQ(s->highlights().size(), named.size()) << side;
    EXPECT_EQ(static_cast<std::int64_t>(named.size()),
              kernels->integer(row, side == CompareWindow::A ? "count_a" : "count_b"));
  }
  // The leading run shows its longest occurrence selected.
  EXPECT_NE(w().session(CompareWindow::A)->selectedSlice(), kNoIndex);
}

TEST_F(ComparePair, BothTimelinesFollowOneZoomAtTheAlignedStep) {
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  auto* choice = w().findChild<QComboBox*>(QStringLiteral("alignStep"));
  ASSERT_EQ(choice->count(), 4);  // start of GPU work + 3 common steps
  // Named by the steps' numbers: these runs' first step is ProfilerStep#2.
  ASSERT_EQ(w().session(CompareWindow::A)->gaps().steps[0].number, 2);
  EXPECT_EQ(choice->itemText(1), QStringLiteral("step 2"));
  EXPECT_EQ(choice->itemText(3), QStringLiteral("step 4"));
  w().alignAtStep(1);
  EXPECT_EQ(w().alignedStep(), 1);
  TimelineWidget* a = w().view(CompareWindow::A)->timeline();
  TimelineWidget* b = w().view(CompareWindow::B)->timeline();
  const auto stepA = w().session(CompareWindow::A)->gaps().steps[1];
  const auto stepB = w().session(CompareWindow::B)->gaps().steps[1];
  // Step 2 of A starts where step 2 of B starts, at the same zoom.
  EXPECT_NEAR(a->scale().toPixel(stepA.cpuStart), b->scale().toPixel(stepB.cpuStart), 1.0);
  EXPECT_DOUBLE_EQ(a->scale().nsPerPixel(), b->scale().nsPerPixel());
  a->zoomAt(2.0, a->width() / 2.0);
  EXPECT_DOUBLE_EQ(a->scale().nsPerPixel(), b->scale().nsPerPixel());
  EXPECT_NEAR(a->scale().toPixel(stepA.cpuStart), b->scale().toPixel(stepB.cpuStart), 1.0);
  // Both axes count from the aligned step's start: the same labels at the
  // same places, in one unit ("350 us" over "0.45 ms" before).
  a->repaint();
  b->repaint();
  auto labels = [](TimelineWidget* t) {
    std::vector<std::pair<long, std::string>> out;
    for (const auto& tick : t->lastFrame().ticks.ticks)
      if (tick.major) out.emplace_back(std::lround(tick.x), tick.label);
    return out;
  };
  ASSERT_FALSE(labels(a).empty());
  EXPECT_EQ(labels(a), labels(b));
}

// A script with no step marks, eager against compiled (tests/data/h100-user):
// the first step of each is a warm-up (start-up, 2.4 s of compilation), so
// the window opens aligned at the second, and both warnings are shown.
TEST_F(ComparePair, OpensAlignedAfterAWarmUpStep) {
  ASSERT_TRUE(open(testData("h100-user/eager-torch.json.gz"), testData("h100-user/compiled-torch.json.gz")));
  ASSERT_TRUE(w().session(CompareWindow::A)->gaps().steps.front().warmUp);
  EXPECT_EQ(w().alignedStep(), 1);
  const QLabel* warnings = w().findChild<QLabel*>(QStringLiteral("compareWarnings"));
  EXPECT_FALSE(warnings->isHidden());
  EXPECT_TRUE(warnings->text().contains(QStringLiteral("B's first step, ")));
}

// A kernel group's row jumps to its longest occurrence among the compared
// steps, not to a longer one in the program's start-up: the eager run's
// longest copy of the group is a host-to-device copy 8.3 s before its
// second step (that memcpy no longer joins the fused group either).
TEST_F(ComparePair, ARowJumpsIntoTheComparedSteps) {
  ASSERT_TRUE(open(testData("h100-user/eager-gapscope.json.gz"), testData("h100-user/compiled-torch.json.gz")));
  ComparePanel* panel = w().panel();
  ASSERT_GT(panel->model("kernel_groups")->rowCount(), 0);
  for (const std::string& name : w().comparison()->comparison.groups.front().kernelsA) {
    EXPECT_EQ(name.rfind("Memcpy", 0), std::string::npos) << name;
  }
  panel->activateGroup(0);
  TraceSession* a = w().session(CompareWindow::A);
  const auto& steps = a->gaps().steps;
  ASSERT_TRUE(steps.front().warmUp);
  ASSERT_NE(a->selectedSlice(), kNoIndex);
  EXPECT_GE(a->trace().slices[a->selectedSlice()].start, steps[1].cpuStart);
  // A kernel whose longest run is in A's start-up and which runs in the steps too.
  const ReportTableModel* kernels = panel->model("kernels");
  int row = -1;
  for (int r = 0; r < kernels->rowCount() && row < 0; ++r) {
    if (kernels->integer(r, "count_a") == 0) continue;
    const auto named = timeline::findSlicesNamed(a->trace(), kernels->text(r, "name"));
    const std::uint32_t longest = timeline::longestSlice(a->trace(), named);
    const bool inSteps = std::any_of(named.begin(), named.end(),
                                     [&](std::uint32_t i) { return a->trace().slices[i].start >= steps[1].cpuStart; });
    if (inSteps && a->trace().slices[longest].start < steps[1].cpuStart) row = r;
  }
  ASSERT_GE(row, 0);
  panel->activateKernel(row);
  ASSERT_NE(a->selectedSlice(), kNoIndex);
  EXPECT_GE(a->trace().slices[a->selectedSlice()].start, steps[1].cpuStart);
}

TEST_F(ComparePair, StepsNumberedApartAreNamedForEachRun) {
  // A: PyTorch's ProfilerStep#2..#4; B: gapscope's recorder, steps 1..10.
  ASSERT_TRUE(open(testData(kSplit), testData("h100/gapscope_split_stack.json.gz")));
  auto* choice = w().findChild<QComboBox*>(QStringLiteral("alignStep"));
  ASSERT_EQ(choice->count(), 4);
  EXPECT_EQ(choice->itemText(1), QStringLiteral("step 2 of A, 1 of B"));
  EXPECT_EQ(choice->itemText(3), QStringLiteral("step 4 of A, 3 of B"));
}

TEST_F(ComparePair, OnASmallScreenTheDockLeavesTheTimelinesRoom) {
  w().resize(1024, 700);
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  waitUntil([] { return false; }, 200);  // the layout, then the room check after it
  auto* dock = w().findChild<QDockWidget*>(QStringLiteral("compareDock"));
  ASSERT_NE(dock, nullptr);
  EXPECT_LE(dock->height(), 0.3 * w().height() + 1) << dock->height() << " of " << w().height();
  for (auto side : {CompareWindow::A, CompareWindow::B}) EXPECT_GE(w().view(side)->timeline()->height(), 90);
}

// Each run's own verdict is one line under its legend (the comparison's
// verdict is on top), whole in its tooltip: wrapped, it took a line more of
// each timeline at 1024x700.
TEST_F(ComparePair, EachRunsVerdictIsOneLineWholeInItsTooltip) {
  w().resize(1024, 700);
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  waitUntil([] { return false; }, 100);
  for (auto side : {CompareWindow::A, CompareWindow::B}) {
    auto* verdict = qobject_cast<ElidedLabel*>(w().view(side)->findChild<QLabel*>(QStringLiteral("verdict")));
    ASSERT_NE(verdict, nullptr);
    EXPECT_EQ(verdict->text().toStdString(), w().session(side)->gaps().verdict.line);
    EXPECT_LE(verdict->height(), 2 * verdict->fontMetrics().lineSpacing());
    ASSERT_NE(verdict->shownText(), verdict->text()) << "the sentence is longer than a 1024 px line";
    verdict->repaint();
    EXPECT_EQ(verdict->toolTip(), verdict->text());
  }
}

TEST_F(ComparePair, ExportsTheComparison) {
  ASSERT_TRUE(open(testData(kSplit), testData(kCombined)));
  QTemporaryDir dir;
  const QString html = dir.filePath(QStringLiteral("cmp.html"));
  EXPECT_EQ(w().exportComparison(html, report::ReportFormat::Html), QString());
  QFile f(html);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(f.readAll());
  EXPECT_TRUE(text.contains(QString::fromStdString(format::escapeHtml(w().verdictText().toStdString()))));
  EXPECT_TRUE(text.contains(QStringLiteral("<svg")));
  const QString json = dir.filePath(QStringLiteral("cmp.json"));
  EXPECT_EQ(w().exportComparison(json, report::ReportFormat::Json), QString());
  EXPECT_TRUE(QFile::exists(json));
}

TEST_F(ComparePair, ABadFileIsNamedAndTheGoodRunStaysShown) {
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("broken.json"));
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": }\n]}");
  f.close();
  ASSERT_TRUE(open(testData(kSplit), bad));
  EXPECT_TRUE(w().session(CompareWindow::A)->hasTrace());
  EXPECT_FALSE(w().session(CompareWindow::B)->hasTrace());
  EXPECT_TRUE(w().lastError().contains(QStringLiteral("Run B"))) << w().lastError().toStdString();
  EXPECT_TRUE(w().lastError().contains(bad)) << w().lastError().toStdString();
  EXPECT_EQ(w().comparison(), nullptr);
  EXPECT_FALSE(w().findChild<QAction*>(QStringLiteral("exportComparisonAction"))->isEnabled());
}

// Several recordings a side (tests/data/h200-user-repeat): the window
// opens eager-2 against compiled-3, neither its side's typical recording;
// adding the others (and a file that is not there) switches each side to
// its typical one and tells the change against the recordings' spread, as
// compareRecordings does from the library with the recordings in the same
// order.
TEST_F(ComparePair, AddedRecordingsShowEachSidesTypicalOneAndTheRunToRunSpread) {
  const auto path = [](const std::string& name) { return testData(("h200-user-repeat/" + name + ".json.gz").c_str()); };
  ASSERT_TRUE(open(path("eager-2"), path("compiled-3")));
  const std::array<std::vector<std::string>, 2> added{
      std::vector<std::string>{"eager-1", "eager-3", "eager-4", "eager-5", "eager-6", "eager-7", "eager-8"},
      std::vector<std::string>{"compiled-1", "compiled-2", "compiled-4"}};
  for (CompareWindow::Side side : {CompareWindow::A, CompareWindow::B}) {
    QStringList paths;
    for (const std::string& name : added[side]) paths << path(name);
    if (side == CompareWindow::A) paths << path("not-recorded");
    QSignalSpy compared(window_.get(), &CompareWindow::comparisonReady);
    w().addRecordings(side, paths);
    ASSERT_TRUE(waitUntil([&] { return compared.count() > 0; }, 60000)) << side;
  }
  EXPECT_TRUE(w().lastError().contains(QStringLiteral("not-recorded.json.gz"))) << w().lastError().toStdString();

  // The library's answer: every recording in the order the window has them.
  std::array<std::vector<compare::Recording>, 2> recordings;
  std::array<std::vector<std::shared_ptr<const analysis::TraceAnalysis>>, 2> runs;
  const std::array<std::string, 2> first{"eager-2", "compiled-3"};
  for (std::size_t side = 0; side < 2; ++side) {
    std::vector<std::string> names{first[side]};
    names.insert(names.end(), added[side].begin(), added[side].end());
    for (const std::string& name : names) {
      io::LoadResult r = io::loadChromeTrace(path(name).toStdString());
      runs[side].push_back(std::make_shared<const analysis::TraceAnalysis>(std::make_shared<const Trace>(std::move(*r.trace))));
      recordings[side].push_back(compare::recordingOf(compare::runFigures(*runs[side].back())));
    }
  }
  std::array<std::size_t, 2> typical{};
  for (std::size_t side = 0; side < 2; ++side) {
    typical[side] = compare::typicalRecording(recordings[side]);
  }
  const compare::Comparison c = compare::compareRecordings(*runs[0][typical[0]], *runs[1][typical[1]], recordings);
  EXPECT_EQ(w().verdictText().toStdString(), c.verdict);
  EXPECT_NE(c.verdict.find("beyond the run-to-run spread (p = 0.0081 over 8 and 4 recordings)"), std::string::npos)
      << c.verdict;
  for (CompareWindow::Side side : {CompareWindow::A, CompareWindow::B}) {
    EXPECT_EQ(w().session(side)->loaded().path.toStdString(), recordings[side][typical[side]].file);
    EXPECT_NE(w().recordings()[side][typical[side]].file, first[side]);
    const auto* title = w().findChild<QLabel*>(side == CompareWindow::A ? QStringLiteral("runTitleA") : QStringLiteral("runTitleB"));
    EXPECT_TRUE(title->text().endsWith(QStringLiteral("the middle of %1 recordings").arg(recordings[side].size())))
        << title->text().toStdString();
  }
  EXPECT_TRUE(w().session(CompareWindow::A)->loaded().path.endsWith(QStringLiteral("eager-1.json.gz")));
  EXPECT_TRUE(w().session(CompareWindow::B)->loaded().path.endsWith(QStringLiteral("compiled-1.json.gz")));
  ComparePanel* panel = w().panel();
  EXPECT_EQ(panel->model("recordings")->rowCount(), 12);
  EXPECT_TRUE(panel->tabs()->isTabVisible(panel->tabs()->indexOf(panel->panel("recordings"))));
  EXPECT_TRUE(panel->spreadLabel()->text().contains(
      QStringLiteral("Beyond the run-to-run spread (p = 0.0081 over 8 and 4 recordings)")))
      << panel->spreadLabel()->text().toStdString();
  // The advice to record again is the recordings' test's to give, not the middle pair's.
  EXPECT_FALSE(panel->spreadLabel()->text().contains(QStringLiteral("record each run again")))
      << panel->spreadLabel()->text().toStdString();
}

// Files that cannot be read, or are already among the recordings, add
// nothing: the window stays one recording a side, its verdict unchanged.
TEST_F(ComparePair, RecordingsThatAddNothingLeaveTheComparisonAlone) {
  const auto path = [](const std::string& name) { return testData(("h200-user-repeat/" + name + ".json.gz").c_str()); };
  ASSERT_TRUE(open(path("eager-1"), path("compiled-1")));
  const QString before = w().verdictText();
  QSignalSpy compared(window_.get(), &CompareWindow::comparisonReady);
  w().addRecordings(CompareWindow::A, {path("not-recorded")});
  ASSERT_TRUE(waitUntil([&] { return compared.count() > 0; }, 60000));
  EXPECT_EQ(w().verdictText(), before);
  EXPECT_FALSE(w().panel()->tabs()->isTabVisible(w().panel()->tabs()->indexOf(w().panel()->panel("recordings"))));
  EXPECT_TRUE(w().lastError().contains(QStringLiteral("not-recorded"))) << w().lastError().toStdString();
  // The shown file again (by another name for it) is left out before any read.
  w().addRecordings(CompareWindow::B, {path("compiled-1"), QFileInfo(path("eager-1")).absoluteFilePath()});
  EXPECT_TRUE(w().statusBar()->currentMessage().contains(QStringLiteral("each recording counts once")))
      << w().statusBar()->currentMessage().toStdString();
}

// The typical recording gone before it could be read again (deleted as the
// recordings came in): it is left out and the next typical one is shown.
TEST_F(ComparePair, ATypicalRecordingThatCannotBeReadAgainIsLeftOut) {
  QTemporaryDir dir;
  const auto copy = [&](const std::string& name) {
    const QString to = dir.filePath(QString::fromStdString(name) + QStringLiteral(".json.gz"));
    EXPECT_TRUE(QFile::copy(testData(("h200-user-repeat/" + name + ".json.gz").c_str()), to));
    return to;
  };
  for (const char* name : {"eager-1", "eager-2", "eager-3", "eager-4", "compiled-1"}) copy(name);
  const auto at = [&](const char* name) { return dir.filePath(QString::fromLatin1(name) + QStringLiteral(".json.gz")); };
  ASSERT_TRUE(open(at("eager-2"), at("compiled-1")));
  // eager-1 is A's typical one: 22.2 ms of 16.2, 22.2, 22.4 and 25.0.
  QObject::connect(window_.get(), &CompareWindow::recordingsRead, [&] { QFile::remove(at("eager-1")); });
  QSignalSpy compared(window_.get(), &CompareWindow::comparisonReady);
  w().addRecordings(CompareWindow::A, {at("eager-1"), at("eager-3"), at("eager-4")});
  ASSERT_TRUE(waitUntil([&] { return compared.count() > 0; }, 60000));
  EXPECT_EQ(w().session(CompareWindow::A)->loaded().path, at("eager-3"));
  ASSERT_EQ(w().recordings()[CompareWindow::A].size(), 3u);
  for (const auto& r : w().recordings()[CompareWindow::A]) EXPECT_NE(QString::fromStdString(r.file), at("eager-1"));
  EXPECT_TRUE(w().statusBar()->currentMessage().contains(QStringLiteral("could not be read again")))
      << w().statusBar()->currentMessage().toStdString();
  EXPECT_NE(w().verdictText().indexOf(QStringLiteral("middle recordings of 3 and 1")), -1) << w().verdictText().toStdString();
}

TEST(MainWindowCompare, ComparesTheOpenTraceAndRemembersThePair) {
  ensureApp();
  MainWindow window;
  window.show();
  QSignalSpy loaded(&window, &MainWindow::traceLoaded);
  ASSERT_TRUE(window.openTrace(testData(kSplit)));
  ASSERT_TRUE(waitUntil([&] { return loaded.count() > 0; }));
  CompareWindow* cw = window.compareWith(testData(kCombined));
  ASSERT_NE(cw, nullptr);
  QSignalSpy compared(cw, &CompareWindow::comparisonReady);
  ASSERT_TRUE(waitUntil([&] { return compared.count() > 0; }));
  // Run A is the main window's trace itself, not a second read of the file.
  EXPECT_EQ(cw->session(CompareWindow::A)->loaded().trace, window.session()->loaded().trace);
  const auto pairs = window.recentComparisons();
  ASSERT_FALSE(pairs.isEmpty());
  EXPECT_TRUE(pairs.front().first.endsWith(QStringLiteral("split_stack_eager.json")));
  EXPECT_TRUE(pairs.front().second.endsWith(QStringLiteral("combined_eager.json")));
  cw->close();
}
