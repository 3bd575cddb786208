// Two runs of a distributed job compared (Ranks window > Compare with
// Another Run…): the verdict (did the job get faster, did the straggler go),
// the job's figures side by side, and the ranks and steps of both runs
// paired by number (ranks/set_compare.h), and the job's step time in each
// step of both runs. Run A is the set the Ranks window
// shows; run B is read here, off the GUI thread. A double-click on a rank
// asks for the compare window on that rank's traces in A and B; on a step,
// on the traces of the rank slowest in it, aligned at the step.
#pragma once

#include <QMainWindow>
#include <QList>
#include <QPair>
#include <QStringList>

#include <array>
#include <memory>
#include <vector>

#include "gapscope/ranks/set_compare.h"
#include "ranks/loaded_ranks.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableWidget;
class QTabWidget;

namespace gapscope::app {

class RankCompareModel;
class RankSetLoader;
class StepTimesChart;
class TablePanel;
struct RanksOutcome;

class RanksCompareWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit RanksCompareWindow(QWidget* parent = nullptr);
  ~RanksCompareWindow() override;

  // Compares `a` (read already; `nameA` says where from) with the run that
  // `argumentsB` names, read here; false while a run is being read.
  bool open(std::shared_ptr<const LoadedRanks> a, const QString& nameA, const QStringList& argumentsB);
  void cancel();
  bool busy() const;
  // Both runs read already.
  void showComparison(std::shared_ptr<const LoadedRanks> a, std::shared_ptr<const LoadedRanks> b,
                      const QString& nameA, const QString& nameB);
  // Several recordings a side (docs/compare.md, "Several recordings of each
  // side"): reads each of `runs` (each a folder of rank traces or a ranks
  // document, as Compare with Another Run takes) as a further run of side
  // `side` (0: A, 1: B), one after the other, then shows each side's typical
  // run and tells the change against the runs' spread. False while a run
  // is being read or before both runs are shown.
  bool addRuns(int side, const QList<QStringList>& runs);
  // Each side's runs so far, as the comparison lists them; empty while each
  // side is one run.
  const std::array<std::vector<compare::Recording>, 2>& recordings() const;

  const ranks::RankSetComparison* comparison() const { return comparison_.get(); }
  QTableWidget* jobTable() const { return job_; }
  TablePanel* rankTable() const { return rankTable_; }
  TablePanel* stepTable() const { return stepTable_; }
  QTabWidget* tabs() const { return tabs_; }
  StepTimesChart* chart() const { return chart_; }
  QString lastError() const { return lastError_; }

  // Asks for the compare window on rank `row`'s traces (rank table rows),
  // or on the traces of the rank slowest in step `row` (step table rows);
  // false when a run lacks that rank.
  bool compareRankRow(int row);
  bool compareStepRow(int row);
  // The chart's step `step` of run `run` (0: A, 1: B): the timelines of
  // the rank slowest in it in that run, in A and B, aligned at the step.
  bool compareStep(int run, qint64 step);

 signals:
  // The comparison is shown, or run B could not be read (lastError()), or was cancelled.
  void loadFinished();
  // `step`: the step to align the two timelines at, or RanksWindow::kNoStep.
  void compareRanks(const QString& fileA, const QString& fileB, qint64 step);

 private:
  QWidget* buildJobTable();
  void onLoaded(const RanksOutcome& outcome);
  void readNextRun();
  void compareRuns();
  void chooseRuns(int side, bool documents);
  void fillJobTable();
  bool compareFiles(std::int64_t rank, qint64 step);

  RankSetLoader* loader_;
  std::shared_ptr<const LoadedRanks> a_;
  std::shared_ptr<const LoadedRanks> b_;
  std::shared_ptr<const ranks::RankSetComparison> comparison_;
  QString nameA_;
  QString nameB_;
  // Every run of each side (the first: the one opened first) and its name.
  std::array<std::vector<std::shared_ptr<const LoadedRanks>>, 2> runs_{};
  std::array<QStringList, 2> runNames_;
  // Runs still to read: (side, arguments); the one being read is first.
  QList<QPair<int, QStringList>> toRead_;
  // Runs added but not counted (not read, or given again): shown as notes.
  QStringList runErrors_;
  QLabel* runsLabel_ = nullptr;
  QLabel* verdict_ = nullptr;
  QLabel* notes_ = nullptr;
  QTableWidget* job_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  StepTimesChart* chart_ = nullptr;
  QSplitter* split_ = nullptr;  // the chart over the tables
  RankCompareModel* rankModel_ = nullptr;
  RankCompareModel* stepModel_ = nullptr;
  TablePanel* rankTable_ = nullptr;
  TablePanel* stepTable_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QString lastError_;
};

}  // namespace gapscope::app
