// The Ranks window on a generated 8-rank set with two planted stragglers
// (bench/ranks): the heat map's cells against figures worked out from the
// generator's own timing, the outlined cells, a click asking for the right
// file and step, the rank table, comparing two ranks, a broken rank file,
// Cancel, and the main window opening a rank at a step.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "app_test_support.h"
#include "compare/compare_window.h"
#include "main_window.h"
#include "models/rank_table_model.h"
#include "models/table_format.h"
#include "panels/steps_panel.h"
#include "panels/table_panel.h"
#include "rank_set_generator.h"
#include "ranks/heat_legend.h"
#include "ranks/heat_map_geometry.h"
#include "ranks/rank_heat_map.h"
#include "ranks/ranks_window.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::waitUntil;

namespace {

bench::RankSetSpec plantedSpec() {
  bench::RankSetSpec spec;
  spec.ranks = 8;
  spec.steps = 10;
  spec.kernelsPerStep = 12;
  spec.gapRank = 5;
  spec.gapStep = 3;
  spec.lateRank = 2;
  spec.lateStep = 7;
  return spec;
}

// The set is written once for the whole suite.
const QString& rankDirectory() {
  static QTemporaryDir dir;
  static const QString path = [] {
    bench::writeRankSet(dir.path().toStdString(), plantedSpec());
    return dir.path();
  }();
  return path;
}

QString rankFile(int rank) { return rankDirectory() + QStringLiteral("/rank-%1.json").arg(rank); }

// The latest arrival at a step's all-reduce: when every rank's transfer starts.
std::int64_t lastArrival(const bench::RankSetSpec& spec, int step) {
  std::int64_t latest = 0;
  for (int r = 0; r < spec.ranks; ++r) latest = std::max(latest, bench::allReduceStart(spec, r, step));
  return latest;
}

class RanksWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ensureApp();
    window_ = std::make_unique<RanksWindow>();
    window_->resize(1280, 800);
    window_->show();
  }

  bool open(const QStringList& arguments) {
    QSignalSpy finished(window_.get(), &RanksWindow::loadFinished);
    if (!window_->open(arguments)) return false;
    return waitUntil([&] { return finished.count() > 0; }) && window_->ranks() != nullptr;
  }

  int columnOfStep(std::int64_t step) const {
    const RankGrid& g = window_->heatMap()->grid();
    for (int c = 0; c < g.columns(); ++c) {
      if (g.stepNumber(c) == step) return c;
    }
    return -1;
  }

  RanksWindow& w() { return *window_; }
  const RankGrid& grid() { return window_->heatMap()->grid(); }
  std::unique_ptr<RanksWindow> window_;
};

}  // namespace

TEST_F(RanksWindowTest, CellsHoldTheGeneratorsFiguresAndAgreeWithTheAnalysis) {
  ASSERT_TRUE(open({rankDirectory()})) << w().lastError().toStdString();
  const bench::RankSetSpec spec = plantedSpec();
  ASSERT_EQ(grid().rows(), spec.ranks);
  ASSERT_EQ(grid().columns(), spec.steps);
  const ranks::RanksAnalysis& a = w().ranks()->analysis;
  for (int row = 0; row < grid().rows(); ++row) {
    const int rank = static_cast<int>(grid().rankNumber(row));
    EXPECT_EQ(rank, row);
    EXPECT_TRUE(grid().file(row).endsWith(QStringLiteral("rank-%1.json").arg(rank)));
    TimeNs waitSum = 0;
    for (int column = 0; column < grid().columns(); ++column) {
      const int step = static_cast<int>(grid().stepNumber(column));
      ASSERT_EQ(step, column + 1);
      const std::int64_t start = bench::allReduceStart(spec, rank, step);
      const std::int64_t wait = lastArrival(spec, step) - start;
      const std::int64_t transfer = bench::allReduceEnd(spec, step) - lastArrival(spec, step);
      const std::int64_t stepTime = bench::stepTime(spec, step);
      EXPECT_EQ(*grid().value(RankMetric::StepTime, row, column), static_cast<double>(stepTime));
      EXPECT_EQ(*grid().value(RankMetric::CollectiveWait, row, column), static_cast<double>(wait));
      EXPECT_EQ(*grid().value(RankMetric::CollectiveTransfer, row, column), static_cast<double>(transfer));
      EXPECT_EQ(*grid().value(RankMetric::OwnTime, row, column), static_cast<double>(stepTime - wait));
      // The compute kernels and the all-reduce.
      EXPECT_EQ(*grid().value(RankMetric::Kernels, row, column), spec.kernelsPerStep + 1);
      const ranks::RankStep& s = *grid().cell(row, column).step;
      EXPECT_DOUBLE_EQ(*grid().value(RankMetric::GpuBusy, row, column),
                       100.0 * static_cast<double>(s.busyNs) / static_cast<double>(s.activeNs));
      EXPECT_EQ(*grid().value(RankMetric::LaunchOverheadIdle, row, column),
                static_cast<double>(s.idle[analysis::GapCause::LaunchOverhead]));
      waitSum += wait;
    }
    // The cells add up to the analysis' own per-rank figures.
    EXPECT_EQ(a.ranks[static_cast<std::size_t>(row)].waitNs, waitSum) << "rank " << rank;
  }
  // Per step, the slowest own time among the cells is the analysis' slowest rank's.
  for (int column = 0; column < grid().columns(); ++column) {
    double slowest = 0;
    for (int row = 0; row < grid().rows(); ++row) {
      slowest = std::max(slowest, *grid().value(RankMetric::OwnTime, row, column));
    }
    EXPECT_EQ(slowest, static_cast<double>(a.steps[static_cast<std::size_t>(column)].slowestNs));
  }
  // Only the planted ranks' steps run long: rank 5 in step 3, rank 2 in step 7.
  const auto [lo, hi] = grid().range(RankMetric::OwnTime);
  EXPECT_EQ(hi, *grid().value(RankMetric::OwnTime, 2, columnOfStep(7)));
  EXPECT_LT(lo, hi);
}

TEST_F(RanksWindowTest, TheStragglingCellsAreThePlantedOnes) {
  ASSERT_TRUE(open({rankDirectory()}));
  std::set<std::pair<std::int64_t, std::int64_t>> outlined;
  for (int row = 0; row < grid().rows(); ++row) {
    for (int column = 0; column < grid().columns(); ++column) {
      if (grid().cell(row, column).straggling) outlined.insert({grid().rankNumber(row), grid().stepNumber(column)});
    }
  }
  const std::set<std::pair<std::int64_t, std::int64_t>> planted{{5, 3}, {2, 7}};
  EXPECT_EQ(outlined, planted);
  const QString verdict = w().findChild<QLabel*>(QStringLiteral("ranksVerdict"))->text();
  EXPECT_EQ(verdict.toStdString(), w().ranks()->analysis.verdict);
  EXPECT_TRUE(verdict.contains(QStringLiteral("straggler"))) << verdict.toStdString();
  // The tooltip names the cell and its figures.
  const QString tip = w().heatMap()->toolTipFor(5, columnOfStep(3));
  EXPECT_TRUE(tip.contains(QStringLiteral("rank 5"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("step 3")));
  EXPECT_TRUE(tip.contains(QStringLiteral("straggling")));
  EXPECT_TRUE(tip.contains(durationText(bench::stepTime(plantedSpec(), 3))));
}

TEST_F(RanksWindowTest, ClickingACellAsksForThatRanksFileAndStep) {
  ASSERT_TRUE(open({rankDirectory()}));
  QSignalSpy asked(&w(), &RanksWindow::openRankAtStep);
  RankHeatMap* map = w().heatMap();
  const QRect cell = map->cellRect(5, columnOfStep(3));
  ASSERT_TRUE(map->layout().cells.contains(cell.center()));
  EXPECT_EQ(map->cellAt(cell.center()), std::make_optional(RankHeatMap::Cell{5, columnOfStep(3)}));
  QTest::mouseClick(map, Qt::LeftButton, {}, cell.center());
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(0).toString(), rankFile(5));
  EXPECT_EQ(asked.at(0).at(1).toLongLong(), 3);
  // Outside the cells (the labels) nothing is asked.
  QTest::mouseClick(map, Qt::LeftButton, {}, QPoint(2, 2));
  EXPECT_EQ(asked.count(), 1);
}

// 400 ranks of 40 steps: four times what a 1024x700 window's map shows at
// once (a cell at least 4 px high).
TEST_F(RanksWindowTest, ManyRanksOpenOnTheVerdictsCellAndFollowTheTable) {
  bench::RankSetSpec spec;
  spec.ranks = 400;
  spec.steps = 40;
  spec.kernelsPerStep = 1;
  spec.lateRank = 333;
  spec.lateStep = 33;
  QTemporaryDir dir;
  bench::writeRankSet(dir.path().toStdString(), spec);
  w().resize(1024, 700);
  ASSERT_TRUE(open({dir.path()}));
  const auto& causes = w().ranks()->analysis.causes;
  ASSERT_FALSE(causes.empty());
  ASSERT_EQ(causes.front().rank, 333);
  ASSERT_EQ(causes.front().worstStep, 33);
  RankHeatMap* map = w().heatMap();
  ASSERT_TRUE(map->layout().scrollsVertically);
  auto inView = [](std::pair<int, int> span, int index) { return span.first <= index && index <= span.second; };
  // The verdict's rank and step are in view, the first rank no longer.
  EXPECT_TRUE(inView(map->visibleRows(), grid().rowOfRank(333)));
  EXPECT_TRUE(inView(map->visibleColumns(), grid().columnOfStep(33)));
  EXPECT_FALSE(inView(map->visibleRows(), grid().rowOfRank(0)));
  // The table shows it as its current row, nothing selected.
  TablePanel* table = w().table();
  const QModelIndex current = table->view()->currentIndex();
  ASSERT_TRUE(current.isValid());
  EXPECT_EQ(w().ranks()->analysis.ranks[static_cast<std::size_t>(table->sourceRow(current.row()))].rank, 333);
  EXPECT_FALSE(table->view()->selectionModel()->hasSelection());
  // A rank picked in the table comes into view.
  table->view()->setCurrentIndex(table->view()->model()->index(3, 0));  // as a click on the 4th row
  const std::int64_t picked = w().ranks()->analysis.ranks[static_cast<std::size_t>(table->sourceRow(3))].rank;
  EXPECT_TRUE(inView(map->visibleRows(), grid().rowOfRank(picked))) << picked;
  EXPECT_FALSE(inView(map->visibleRows(), grid().rowOfRank(333)));
}

TEST_F(RanksWindowTest, TheMetricChoiceRecoloursAndTheLegendShowsItsRange) {
  ASSERT_TRUE(open({rankDirectory()}));
  w().setMetric(RankMetric::CollectiveWait);
  EXPECT_EQ(w().heatMap()->currentMetric(), RankMetric::CollectiveWait);
  const auto [lo, hi] = grid().range(RankMetric::CollectiveWait);
  EXPECT_EQ(lo, 0.0);  // the last rank to arrive waits for nobody
  EXPECT_EQ(w().legend()->lowest(), durationText(0));
  EXPECT_EQ(w().legend()->highest(), durationText(static_cast<TimeNs>(hi)));
  EXPECT_NE(w().heatMap()->colourOf(lo), w().heatMap()->colourOf(hi));
  EXPECT_FALSE(w().legend()->warmUpShown());
}

// A start-up of 20 ms on rank 6 makes step 1 a warm-up: its column stays,
// grey, named in the key and its tooltips, and the colour scale is the
// other steps', so their differences still show.
TEST_F(RanksWindowTest, AWarmUpStepIsOffTheColourScale) {
  bench::RankSetSpec spec = plantedSpec();
  spec.warmUpRank = 6;
  QTemporaryDir dir;
  bench::writeRankSet(dir.path().toStdString(), spec);
  ASSERT_TRUE(open({dir.path()}));
  ASSERT_EQ(columnOfStep(1), 0);
  EXPECT_TRUE(grid().isWarmUp(0));
  EXPECT_FALSE(grid().isWarmUp(1));
  std::int64_t longest = 0;
  for (int step = 2; step <= spec.steps; ++step) longest = std::max(longest, bench::stepTime(spec, step));
  EXPECT_EQ(grid().range(RankMetric::StepTime).second, static_cast<double>(longest));
  EXPECT_EQ(w().legend()->highest(), durationText(longest));
  EXPECT_TRUE(w().legend()->warmUpShown());
  EXPECT_TRUE(w().findChild<QLabel*>(QStringLiteral("rankTableScope"))->text().contains(QStringLiteral("after the warm-up")));
  EXPECT_TRUE(w().heatMap()->toolTipFor(6, 0).contains(QStringLiteral("warm-up step")));
  EXPECT_FALSE(w().heatMap()->toolTipFor(6, 1).contains(QStringLiteral("warm-up step")));
  EXPECT_FALSE(grid().cell(6, 0).straggling);
}

TEST_F(RanksWindowTest, TheRankTableHasARowPerRankAndSorts) {
  ASSERT_TRUE(open({rankDirectory()}));
  RankTableModel* model = w().tableModel();
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const ranks::RanksAnalysis& a = w().ranks()->analysis;
  ASSERT_EQ(model->rowCount(), 8);
  for (int row = 0; row < 8; ++row) {
    const ranks::RankRow& r = a.ranks[static_cast<std::size_t>(row)];
    auto at = [&](int column, int role = Qt::DisplayRole) { return model->index(row, column).data(role); };
    EXPECT_EQ(at(RankTableModel::Rank).toString(), QString::number(row));
    EXPECT_EQ(at(RankTableModel::File).toString(), QStringLiteral("rank-%1.json").arg(row));
    EXPECT_EQ(at(RankTableModel::Steps, kSortRole).toULongLong(), 10u);
    EXPECT_EQ(at(RankTableModel::StepTime).toString(), durationText(r.stepTimeNs));
    EXPECT_EQ(at(RankTableModel::Wait, kSortRole).toLongLong(), r.waitNs);
    EXPECT_EQ(at(RankTableModel::Transfer, kSortRole).toLongLong(), r.collectiveNs - r.waitNs);
    EXPECT_EQ(at(RankTableModel::StragglingSteps, kSortRole).toULongLong(), row == 2 || row == 5 ? 1u : 0u);
  }
  // Sorted by straggling steps, the two stragglers come first.
  QSortFilterProxyModel* proxy = w().table()->proxy();
  proxy->sort(RankTableModel::StragglingSteps, Qt::DescendingOrder);
  const std::set<int> top{proxy->index(0, RankTableModel::Rank).data().toInt(),
                          proxy->index(1, RankTableModel::Rank).data().toInt()};
  EXPECT_EQ(top, (std::set<int>{2, 5}));
}

TEST_F(RanksWindowTest, TwoSelectedRanksAskForTheCompareView) {
  ASSERT_TRUE(open({rankDirectory()}));
  QSignalSpy compare(&w(), &RanksWindow::compareRanks);
  QTableView* view = w().table()->view();
  auto* button = w().findChild<QWidget*>(QStringLiteral("compareRanks"));
  ASSERT_NE(button, nullptr);
  EXPECT_FALSE(button->isEnabled());
  view->selectionModel()->select(view->model()->index(5, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  EXPECT_FALSE(w().compareSelected());
  view->selectionModel()->select(view->model()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  EXPECT_TRUE(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
  ASSERT_EQ(compare.count(), 1);
  EXPECT_EQ(compare.at(0).at(0).toString(), rankFile(0));
  EXPECT_EQ(compare.at(0).at(1).toString(), rankFile(5));
  EXPECT_EQ(compare.at(0).at(2).toLongLong(), RanksWindow::kNoStep);
  // A cell's "compare with the median rank": that rank and step, and a rank
  // of the step's median own time (every rank but the straggler is one).
  ASSERT_TRUE(w().compareWithMedian(2, columnOfStep(7)));
  ASSERT_EQ(compare.count(), 2);
  EXPECT_EQ(compare.at(1).at(0).toString(), rankFile(2));
  EXPECT_NE(compare.at(1).at(1).toString(), rankFile(2));
  EXPECT_EQ(compare.at(1).at(2).toLongLong(), 7);
}

TEST_F(RanksWindowTest, AnUnreadableRankIsNamedAndTheOthersShown) {
  QTemporaryDir dir;
  bench::RankSetSpec spec = plantedSpec();
  spec.ranks = 3;
  spec.steps = 2;
  spec.gapRank = spec.lateRank = -1;
  bench::writeRankSet(dir.path().toStdString(), spec);
  QFile bad(dir.path() + QStringLiteral("/rank-3.json"));
  ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
  bad.write("this is not json");
  bad.close();
  ASSERT_TRUE(open({dir.path()})) << w().lastError().toStdString();
  EXPECT_EQ(grid().rows(), 3);
  auto* problems = w().findChild<QLabel*>(QStringLiteral("ranksProblems"));
  ASSERT_NE(problems, nullptr);
  EXPECT_TRUE(problems->isVisible());
  EXPECT_TRUE(problems->text().contains(QStringLiteral("rank-3.json"))) << problems->text().toStdString();
}

TEST_F(RanksWindowTest, CancelStopsTheLoad) {
  QSignalSpy finished(&w(), &RanksWindow::loadFinished);
  ASSERT_TRUE(w().open({rankDirectory()}));
  EXPECT_TRUE(w().findChild<QWidget*>(QStringLiteral("ranksCancel"))->isVisible());
  w().cancel();  // what the Cancel button does
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  EXPECT_EQ(w().ranks(), nullptr);
  EXPECT_EQ(w().lastError(), QStringLiteral("Cancelled"));
  EXPECT_FALSE(w().findChild<QWidget*>(QStringLiteral("ranksCancel"))->isVisible());
}

TEST_F(RanksWindowTest, NothingToReadSaysSo) {
  QTemporaryDir empty;
  QSignalSpy finished(&w(), &RanksWindow::loadFinished);
  ASSERT_TRUE(w().open({empty.path()}));
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  EXPECT_EQ(w().ranks(), nullptr);
  EXPECT_FALSE(w().lastError().isEmpty());
}

TEST(RanksMainWindow, ARankOpensAtTheClickedStep) {
  ensureApp();
  MainWindow main;
  main.resize(1280, 800);
  main.show();
  RanksWindow* ranksWindow = main.openRanks({rankDirectory()});
  QSignalSpy finished(ranksWindow, &RanksWindow::loadFinished);
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  QSignalSpy loaded(&main, &MainWindow::traceLoaded);
  emit ranksWindow->openRankAtStep(rankFile(5), 3);  // what a click on (rank 5, step 3) does
  ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1 && main.session()->range().has_value(); }));
  EXPECT_EQ(main.session()->loaded().path, rankFile(5));
  const ranks::RankStep& step = *ranksWindow->heatMap()->grid().cell(5, 2).step;
  ASSERT_EQ(step.step, 3);
  EXPECT_EQ(main.session()->range()->start, step.startNs);
  EXPECT_GE(main.session()->range()->end, step.startNs + step.timeNs);
  // Another step of the open rank: no reload, the range moves.
  emit ranksWindow->openRankAtStep(rankFile(5), 4);
  const ranks::RankStep& next = *ranksWindow->heatMap()->grid().cell(5, 3).step;
  EXPECT_EQ(main.session()->range()->start, next.startNs);
  EXPECT_EQ(loaded.count(), 1);
  // Two ranks to compare, at a step: the compare window, aligned there.
  emit ranksWindow->compareRanks(rankFile(0), rankFile(5), 3);
  auto* compare = main.findChild<CompareWindow*>();
  ASSERT_NE(compare, nullptr);
  ASSERT_TRUE(waitUntil([&] { return compare->alignedStep() == 2; }));
  EXPECT_TRUE(compare->session(CompareWindow::B)->loaded().path.endsWith(QStringLiteral("rank-5.json")));
  ranksWindow->close();
}

TEST(HeatMapGeometry, ShrinksCellsThenScrollsAndLabelsEveryKthRow) {
  const HeatMapFont font{16, 60, 20};
  const QRect area(0, 0, 800, 400);
  const HeatMapGeometry few = layoutHeatMap(8, 10, area, font, 12);
  EXPECT_FALSE(few.scrollsVertically);
  EXPECT_EQ(few.rowLabelStride, 1);
  EXPECT_LE(few.cellHeight, 2 * 16 + 4);
  EXPECT_LE(few.cells.right(), area.right());
  const HeatMapGeometry many = layoutHeatMap(64, 10, area, font, 12);
  EXPECT_FALSE(many.scrollsVertically);
  EXPECT_EQ(many.cellHeight, (400 - 16 - 6) / 64);
  EXPECT_EQ(many.rowLabelStride, labelStride(16.0 / many.cellHeight));
  const HeatMapGeometry huge = layoutHeatMap(1000, 2000, area, font, 12);
  EXPECT_TRUE(huge.scrollsVertically);
  EXPECT_TRUE(huge.scrollsHorizontally);
  EXPECT_EQ(huge.cellHeight, HeatMapGeometry::kMinCell);
  EXPECT_EQ(huge.content.height(), 1000 * HeatMapGeometry::kMinCell);
  EXPECT_EQ(huge.rowLabelStride, 5);
  EXPECT_EQ(labelStride(1), 1);
  EXPECT_EQ(labelStride(2.5), 5);
  EXPECT_EQ(labelStride(11), 20);
}
