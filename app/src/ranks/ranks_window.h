// The Ranks window (File > Open Ranks Directory / Open Rank Files): a set of
// per-rank traces of one distributed run. On top the verdict of the
// straggler analysis (which rank is slow, in which step, why) and its
// notes; a banner names the files that could not be read. Below, the
// rank x step heat map coloured by a chosen metric, and the rank table.
// A click on a cell asks for that rank's timeline at that step
// (openRankAtStep); two ranks picked in the table ask for the compare
// window on their files (compareRanks), as does a cell's context menu for
// its rank and the step's median rank. The main window does both. "Compare
// with Another Run…" opens the same job's run before or after a change
// beside this one (RanksCompareWindow).
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <cstdint>
#include <memory>

#include "ranks/rank_grid.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;

namespace gapscope::app {

class HeatLegend;
class RankHeatMap;
class RanksCompareWindow;
class RankSetLoader;
class RankTableModel;
class TablePanel;
struct RanksOutcome;

class RanksWindow : public QMainWindow {
  Q_OBJECT

 public:
  // For openRankAtStep: open the rank's trace without picking a step.
  static constexpr std::int64_t kNoStep = -1;

  explicit RanksWindow(QWidget* parent = nullptr);
  ~RanksWindow() override;

  // Reads the rank set named by `arguments` (a directory, several files,
  // glob patterns) off the GUI thread; false while a set is being read.
  bool open(const QStringList& arguments);
  void cancel();
  bool busy() const;
  // Shows a rank set that is read and analysed already.
  void showRanks(std::shared_ptr<const LoadedRanks> ranks);

  const LoadedRanks* ranks() const { return ranks_.get(); }
  RankHeatMap* heatMap() const { return heatMap_; }
  HeatLegend* legend() const { return legend_; }
  RankTableModel* tableModel() const { return model_; }
  TablePanel* table() const { return table_; }
  void setMetric(RankMetric metric);
  QString lastError() const { return lastError_; }

  // Asks for the compare window on the two ranks selected in the table;
  // false unless exactly two are selected.
  bool compareSelected();
  // Asks for the compare window on the rank of cell (row, column) and the
  // median rank of that step (by own time; the next one when it is the
  // median itself), aligned at the step. False for an empty cell.
  bool compareWithMedian(int row, int column);
  // Opens a window comparing this set (run A) with the run `argumentsB`
  // names (run B: a directory, files or patterns), read there; nullptr
  // until this set is shown.
  RanksCompareWindow* compareWithRun(const QStringList& argumentsB);

 signals:
  // The set is shown, or could not be read (lastError()), or was cancelled.
  void loadFinished();
  void openRankAtStep(const QString& file, qint64 step);
  // `step`: the step to align the two timelines at, or kNoStep.
  void compareRanks(const QString& fileA, const QString& fileB, qint64 step);

 private:
  QWidget* buildBanner();
  QWidget* buildMetricBar();
  QWidget* buildTable();
  void onProgress(qulonglong done, qulonglong total);
  void onLoaded(const RanksOutcome& outcome);
  void showProblems(const LoadedRanks& ranks);
  void updateLegend();
  void fitMapHeight();
  QList<int> selectedRows() const;
  void showTableMenu(const QPoint& pos);
  void showCellMenu(const QPoint& pos);
  int medianRow(int row, int column) const;
  QString dialogStart() const;  // where the pickers of another run open
  void chooseRunFolderToCompare();
  void chooseRunDocumentToCompare();

  RankSetLoader* loader_;
  std::shared_ptr<const LoadedRanks> ranks_;
  QLabel* bannerText_ = nullptr;  // files that could not be read
  QLabel* verdict_ = nullptr;  // wraps: never cut
  QLabel* scope_ = nullptr;    // what the rank table's medians and sums are over
  QLabel* notes_ = nullptr;
  QComboBox* metricChoice_ = nullptr;
  QSplitter* split_ = nullptr;
  RankHeatMap* heatMap_ = nullptr;
  HeatLegend* legend_ = nullptr;
  RankTableModel* model_ = nullptr;
  TablePanel* table_ = nullptr;
  QPushButton* compareButton_ = nullptr;
  QPushButton* compareRunButton_ = nullptr;  // with another run of the job
  QStringList arguments_;                   // what this set was opened from
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QString lastError_;
};

}  // namespace gapscope::app
