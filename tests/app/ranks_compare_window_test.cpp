// Two runs of a job compared in the app (Ranks window > Compare with
// Another Run…): run A with a planted late rank, run B without; the window's
// verdict and tables are the core comparison's, the job table's step time is
// the generator's, the chart draws each run's steps, and double-clicks ask
// for the compare window on the right files.
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "app_test_support.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/ranks_json.h"
#include "gapscope/ranks/set_compare.h"
#include "models/rank_compare_model.h"
#include "models/table_format.h"
#include "panels/step_times_chart.h"
#include "panels/table_panel.h"
#include "rank_set_generator.h"
#include "ranks/ranks_compare_window.h"
#include "ranks/ranks_window.h"

#include <qcustomplot.h>

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::waitUntil;

namespace {

bench::RankSetSpec spec(bool lateRank) {
  bench::RankSetSpec s;
  s.ranks = 4;
  s.steps = 8;
  s.kernelsPerStep = 10;
  if (lateRank) {
    s.lateRank = 2;
    s.lateStep = 5;
  }
  return s;
}

TimeNs jobStepTime(const bench::RankSetSpec& s) {
  std::vector<TimeNs> times;
  for (int step = 1; step <= s.steps; ++step) times.push_back(bench::stepTime(s, step));
  std::sort(times.begin(), times.end());
  return times[(times.size() - 1) / 2];
}

ranks::RanksAnalysis analyse(const QString& dir) {
  return ranks::analyzeRanks(ranks::loadRankSet(ranks::rankFiles({dir.toStdString()})).tables);
}

// Compares the window's run with `runB` and waits until run B is read.
RanksCompareWindow* compareAndWait(RanksWindow& window, const QString& runB) {
  RanksCompareWindow* compare = window.compareWithRun({runB});
  if (!compare) return nullptr;
  QSignalSpy compared(compare, &RanksCompareWindow::loadFinished);
  return waitUntil([&] { return compared.count() > 0; }) ? compare : nullptr;
}

class RanksCompareWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ensureApp();
    a_ = dir_.path() + QStringLiteral("/before");
    b_ = dir_.path() + QStringLiteral("/after");
    bench::writeRankSet(a_.toStdString(), spec(true));
    bench::writeRankSet(b_.toStdString(), spec(false));
    ranks_ = std::make_unique<RanksWindow>();
    QSignalSpy finished(ranks_.get(), &RanksWindow::loadFinished);
    ASSERT_TRUE(ranks_->open({a_}));
    ASSERT_TRUE(waitUntil([&] { return finished.count() > 0; }));
    compare_ = compareAndWait(*ranks_, b_);
    ASSERT_NE(compare_, nullptr);
    ASSERT_NE(compare_->comparison(), nullptr);
  }

  QTemporaryDir dir_;
  QString a_;
  QString b_;
  std::unique_ptr<RanksWindow> ranks_;
  RanksCompareWindow* compare_ = nullptr;  // owned by ranks_
};

}  // namespace

TEST_F(RanksCompareWindowTest, ShowsTheCoreComparison) {
  const ranks::RankSetComparison expected = ranks::compareRankSets(analyse(a_), analyse(b_));
  const ranks::RankSetComparison& shown = *compare_->comparison();
  EXPECT_EQ(shown.verdict, expected.verdict);
  auto* verdict = compare_->findChild<QLabel*>(QStringLiteral("ranksCompareVerdict"));
  ASSERT_NE(verdict, nullptr);
  EXPECT_EQ(verdict->text().toStdString(), expected.verdict);
  EXPECT_NE(expected.verdict.find("the straggler is gone: rank 2"), std::string::npos) << expected.verdict;
  // The job table: step time from the generator, straggling steps 1 and 0.
  QTableWidget* job = compare_->jobTable();
  ASSERT_EQ(job->rowCount(), 8);
  EXPECT_EQ(job->item(0, 1)->text(), durationText(jobStepTime(spec(true))));
  EXPECT_EQ(job->item(0, 2)->text(), durationText(jobStepTime(spec(false))));
  EXPECT_EQ(job->item(6, 1)->text(), QStringLiteral("1"));
  EXPECT_EQ(job->item(6, 2)->text(), QStringLiteral("0"));
  EXPECT_EQ(job->item(7, 1)->text(), QStringLiteral("2"));
  EXPECT_EQ(job->item(7, 2)->text(), QStringLiteral("none"));
  // Every cell visible: the table is as large as its cells.
  EXPECT_GE(job->width(), job->columnWidth(0) + job->columnWidth(1) + job->columnWidth(2));
  // The ranks and steps of both runs, and each run's steps in the chart.
  EXPECT_EQ(compare_->rankTable()->view()->model()->rowCount(), 4);
  EXPECT_EQ(compare_->stepTable()->view()->model()->rowCount(), 8);
  EXPECT_EQ(compare_->chart()->points(0), 8);
  EXPECT_EQ(compare_->chart()->points(1), 8);
  auto* model = qobject_cast<RankCompareModel*>(compare_->rankTable()->proxy()->sourceModel());
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->data(model->index(2, RankCompareModel::StragglingA)).toString(), QStringLiteral("1"));
  EXPECT_EQ(model->data(model->index(2, RankCompareModel::StragglingB)).toString(), QStringLiteral("0"));
}

// Each side recorded again (File > Add Runs of A/B): A's further runs
// launch 12, 14 and 16 kernels a step, B's 8, 6 and 9, so A's typical run
// is the one of 12 and B's the one of 8; the window shows those two and
// the verdict, the core's comparison of every run in the same order. A run
// given again is left out.
TEST_F(RanksCompareWindowTest, FurtherRunsOfEachSideShowTheTypicalOnesAndTheRunToRunSpread) {
  std::array<QList<QStringList>, 2> added;
  std::array<std::vector<std::string>, 2> names{std::vector<std::string>{a_.toStdString()},
                                                std::vector<std::string>{b_.toStdString()}};
  std::vector<ranks::RanksAnalysis> analyses{analyse(a_), analyse(b_)};
  analyses.reserve(8);
  std::array<std::vector<const ranks::RanksAnalysis*>, 2> runs{std::vector<const ranks::RanksAnalysis*>{&analyses[0]},
                                                               std::vector<const ranks::RanksAnalysis*>{&analyses[1]}};
  const std::array<std::vector<int>, 2> kernels{std::vector<int>{12, 14, 16}, std::vector<int>{8, 6, 9}};
  for (int side : {0, 1}) {
    for (int k : kernels[static_cast<std::size_t>(side)]) {
      bench::RankSetSpec s = spec(false);
      s.kernelsPerStep = k;
      const QString dir = dir_.path() + QStringLiteral("/%1-%2").arg(side == 0 ? "a" : "b").arg(k);
      bench::writeRankSet(dir.toStdString(), s);
      added[static_cast<std::size_t>(side)] << QStringList{dir};
      names[static_cast<std::size_t>(side)].push_back(dir.toStdString());
      analyses.push_back(analyse(dir));
      runs[static_cast<std::size_t>(side)].push_back(&analyses.back());
    }
  }
  added[0] << QStringList{b_};  // already B's: left out
  for (int side : {0, 1}) {
    QSignalSpy finished(compare_, &RanksCompareWindow::loadFinished);
    ASSERT_TRUE(compare_->addRuns(side, added[static_cast<std::size_t>(side)]));
    ASSERT_TRUE(waitUntil([&] { return finished.count() > 0; }, 60000)) << side;
  }
  const ranks::RankSetComparison expected = ranks::compareRankSetRecordings(runs, names);
  const ranks::RankSetComparison& shown = *compare_->comparison();
  EXPECT_EQ(shown.verdict, expected.verdict);
  EXPECT_NE(expected.verdict.find("middle recordings of 4 and 4)"), std::string::npos) << expected.verdict;
  ASSERT_EQ(compare_->recordings()[0].size(), 4u);
  ASSERT_EQ(compare_->recordings()[1].size(), 4u);
  EXPECT_TRUE(compare_->recordings()[0][1].typical);  // 12 kernels
  EXPECT_TRUE(compare_->recordings()[1][1].typical);  // 8 kernels
  bench::RankSetSpec twelve = spec(false);
  twelve.kernelsPerStep = 12;
  bench::RankSetSpec eight = spec(false);
  eight.kernelsPerStep = 8;
  EXPECT_EQ(compare_->jobTable()->item(0, 1)->text(), durationText(jobStepTime(twelve)));
  EXPECT_EQ(compare_->jobTable()->item(0, 2)->text(), durationText(jobStepTime(eight)));
  auto* runsLabel = compare_->findChild<QLabel*>(QStringLiteral("ranksCompareRuns"));
  EXPECT_TRUE(runsLabel->text().contains(QStringLiteral("the middle of 4 recordings"))) << runsLabel->text().toStdString();
  // A run given again and a folder without ranks: not counted, said in the notes.
  const QString empty = dir_.path() + QStringLiteral("/empty");
  QDir().mkpath(empty);
  QSignalSpy finished(compare_, &RanksCompareWindow::loadFinished);
  ASSERT_TRUE(compare_->addRuns(1, {QStringList{b_}, QStringList{empty}}));
  ASSERT_TRUE(waitUntil([&] { return finished.count() > 0; }, 60000));
  EXPECT_EQ(compare_->recordings()[1].size(), 4u);
  auto* notes = compare_->findChild<QLabel*>(QStringLiteral("ranksCompareNotes"));
  EXPECT_TRUE(notes->text().contains(QStringLiteral("A run already among the recordings left out")))
      << notes->text().toStdString();
  EXPECT_TRUE(notes->text().contains(QStringLiteral("Could not read ") + empty)) << notes->text().toStdString();
  EXPECT_TRUE(compare_->statusBar()->currentMessage().contains(empty)) << compare_->statusBar()->currentMessage().toStdString();
  EXPECT_EQ(compare_->comparison()->verdict, expected.verdict);
}

// A click on run A's step 5 in the chart (rank 2's late step) asks for the
// compare window on rank 2's traces, aligned at step 5.
TEST_F(RanksCompareWindowTest, AClickOnAStepInTheChartAsksForItsSlowestRank) {
  QSignalSpy asked(ranks_.get(), &RanksWindow::compareRanks);
  compare_->show();
  compare_->resize(1280, 800);
  QCoreApplication::processEvents();
  StepTimesChart* chart = compare_->chart();
  const QPoint at = gapscope::app::testing::pixelOfStep(*chart, 0, 5);
  ASSERT_TRUE(chart->pointAt(at));
  QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, at);
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(0).toString(), a_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(0).at(1).toString(), b_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(0).at(2).toLongLong(), 5);
}

TEST_F(RanksCompareWindowTest, DoubleClicksAskForTheCompareWindowOnTheRightFiles) {
  QSignalSpy asked(ranks_.get(), &RanksWindow::compareRanks);
  ASSERT_TRUE(compare_->compareRankRow(2));
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(0).toString(), a_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(0).at(1).toString(), b_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(0).at(2).toLongLong(), RanksWindow::kNoStep);
  // Step 5: the late rank of run A, aligned at the step.
  ASSERT_TRUE(compare_->compareStepRow(4));
  ASSERT_EQ(asked.count(), 2);
  EXPECT_EQ(asked.at(1).at(0).toString(), a_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(1).at(1).toString(), b_ + QStringLiteral("/rank-2.json"));
  EXPECT_EQ(asked.at(1).at(2).toLongLong(), 5);
}

namespace {

// Opens `dir` (a generated set without a straggler) in a Ranks window,
// compares it with `runB` and returns the compare window's error.
QString errorComparingWith(const QTemporaryDir& dir, const QString& runB) {
  const QString a = dir.path() + QStringLiteral("/a");
  bench::writeRankSet(a.toStdString(), spec(false));
  RanksWindow window;
  QSignalSpy finished(&window, &RanksWindow::loadFinished);
  EXPECT_TRUE(window.open({a}));
  EXPECT_TRUE(waitUntil([&] { return finished.count() > 0; }));
  RanksCompareWindow* compare = compareAndWait(window, runB);
  if (!compare) return QStringLiteral("no compare window");
  EXPECT_EQ(compare->comparison(), nullptr);
  return compare->lastError();
}

}  // namespace

TEST(RanksCompareWindow, AnUnreadableRunBSaysSo) {
  ensureApp();
  QTemporaryDir dir;
  const QString error = errorComparingWith(dir, dir.path() + QStringLiteral("/missing"));
  EXPECT_TRUE(error.startsWith(QStringLiteral("Could not read run B: "))) << error.toStdString();
}

namespace {

// Run B's document as `gapscope-cli ranks --format json` writes it, with
// each rank's file renamed by `renameFile`.
QString writeDocument(const QString& runDir, const QString& path,
                      const std::function<std::string(const std::string&)>& renameFile) {
  ranks::RankSet set = ranks::loadRankSet(ranks::rankFiles({runDir.toStdString()}));
  ranks::RanksAnalysis analysis = ranks::analyzeRanks(set.tables);
  for (ranks::RankRow& row : analysis.ranks) row.file = renameFile(row.file);
  std::ofstream(path.toStdString()) << ranks::ranksDocumentJson(analysis, set.warnings, set.errors).dump(2) << "\n";
  return path;
}

}  // namespace

// Run B as the ranks document the CLI or the Dask path wrote of it: the
// same comparison as of its folder; its ranks' traces open where they are,
// and a trace that is not on this machine (the document came from a
// cluster) is named in the status bar instead.
TEST_F(RanksCompareWindowTest, RunBMayBeARanksDocument) {
  const auto same = [](const std::string& f) { return f; };
  const QString document = writeDocument(b_, dir_.path() + QStringLiteral("/after.json"), same);
  RanksCompareWindow* fromDocument = compareAndWait(*ranks_, document);
  ASSERT_NE(fromDocument, nullptr);
  ASSERT_NE(fromDocument->comparison(), nullptr) << fromDocument->lastError().toStdString();
  EXPECT_EQ(fromDocument->comparison()->verdict, compare_->comparison()->verdict);
  QTableWidget* job = fromDocument->jobTable();
  for (int r = 0; r < job->rowCount(); ++r)
    EXPECT_EQ(job->item(r, 2)->text(), compare_->jobTable()->item(r, 2)->text()) << r;
  EXPECT_EQ(fromDocument->chart()->points(1), 8);
  QSignalSpy asked(ranks_.get(), &RanksWindow::compareRanks);
  ASSERT_TRUE(fromDocument->compareRankRow(2));
  ASSERT_EQ(asked.count(), 1);
  EXPECT_EQ(asked.at(0).at(1).toString(), b_ + QStringLiteral("/rank-2.json"));

  const auto elsewhere = [](const std::string& f) { return "/worker-7/scratch/" + std::filesystem::path(f).filename().string(); };
  const QString remote = writeDocument(b_, dir_.path() + QStringLiteral("/remote.json"), elsewhere);
  RanksCompareWindow* fromCluster = compareAndWait(*ranks_, remote);
  ASSERT_NE(fromCluster, nullptr);
  ASSERT_NE(fromCluster->comparison(), nullptr);
  EXPECT_FALSE(fromCluster->compareRankRow(2));
  EXPECT_EQ(asked.count(), 1);
  EXPECT_EQ(fromCluster->statusBar()->currentMessage(),
            QStringLiteral("The trace of rank 2 in run B is not on this machine: /worker-7/scratch/rank-2.json"));

  // Written by `ranks .` inside the run's folder and saved there: the
  // traces are found beside the document, wherever the app runs.
  const auto bare = [](const std::string& f) { return std::filesystem::path(f).filename().string(); };
  const QString beside = writeDocument(b_, b_ + QStringLiteral("/ranks.json"), bare);
  RanksCompareWindow* fromBeside = compareAndWait(*ranks_, beside);
  ASSERT_NE(fromBeside, nullptr);
  ASSERT_NE(fromBeside->comparison(), nullptr);
  ASSERT_TRUE(fromBeside->compareRankRow(2));
  ASSERT_EQ(asked.count(), 2);
  EXPECT_EQ(QFileInfo(asked.at(1).at(1).toString()).canonicalFilePath(),
            QFileInfo(b_ + QStringLiteral("/rank-2.json")).canonicalFilePath());
}

// The Ranks window itself needs the traces' per-step cells: a document
// alone is refused there, naming what it is.
TEST(RanksCompareWindow, TheRanksWindowDoesNotOpenADocumentAlone) {
  ensureApp();
  QTemporaryDir dir;
  const QString run = dir.path() + QStringLiteral("/run");
  bench::writeRankSet(run.toStdString(), spec(false));
  const QString document = writeDocument(run, dir.path() + QStringLiteral("/run.json"), [](const std::string& f) { return f; });
  RanksWindow window;
  QSignalSpy finished(&window, &RanksWindow::loadFinished);
  ASSERT_TRUE(window.open({document}));
  ASSERT_TRUE(waitUntil([&] { return finished.count() > 0; }));
  EXPECT_TRUE(window.lastError().contains(QStringLiteral("a ranks document"))) << window.lastError().toStdString();
}

TEST(RanksCompareWindow, ABrokenRanksDocumentSaysWhere) {
  ensureApp();
  QTemporaryDir dir;
  const QString broken = dir.path() + QStringLiteral("/b.json");
  const std::string text = "{ \"ranks\": [ { \"rank\": 0, } ] }\n";
  std::ofstream(broken.toStdString()) << text;
  const std::size_t at = text.find(", }") + 2;  // the '}' where a key should be
  const QString error = errorComparingWith(dir, broken);
  EXPECT_TRUE(error.contains(broken + QStringLiteral(":1:%1 (byte %2): not valid JSON").arg(at + 1).arg(at)))
      << error.toStdString();
}
