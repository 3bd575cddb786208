// The Compare dock: the comparison's tables (the two runs per step, idle by
// cause, kernel groups, kernels, operators), each sorted by the size of the
// change, and a chart of both runs' step times with the verdict's test of
// their spread. Clicking (or activating) a row highlights the matching slices in
// both runs' timelines: a kernel's occurrences, every kernel of a group, an
// operator's.
#pragma once

#include <QWidget>

#include <array>
#include <string>
#include <vector>

#include "gapscope/report/comparison_report.h"

class QLabel;
class QTabWidget;
class QTableView;

namespace gapscope::app {

class ReportTableModel;
class StepTimesChart;
class TablePanel;
class TraceSession;

class ComparePanel : public QWidget {
  Q_OBJECT

 public:
  ComparePanel(std::array<TraceSession*, 2> sessions, QWidget* parent = nullptr);

  void setReport(const report::ComparisonReport& report);
  void clear();
  QTabWidget* tabs() const { return tabs_; }
  // By table id: "runs", "idle_per_step", "kernel_groups", "kernels", "ops",
  // "recordings" (its tab shown only with several recordings a side).
  ReportTableModel* model(const std::string& id) const;
  TablePanel* panel(const std::string& id) const;
  StepTimesChart* stepTimesChart() const { return stepChart_; }
  QLabel* spreadLabel() const { return spreadLabel_; }
  // What activating a row does, callable from tests.
  void activateKernel(int row);
  void activateGroup(int row);
  void activateOp(int row);

 signals:
  // A step of run `run` (0: A, 1: B) was clicked in the Step times chart.
  void stepPicked(int run, qint64 step);

 private:
  QWidget* perStepTab();
  QWidget* stepTimesTab();
  TablePanel* addTablePanel(const std::string& id, const QString& title, int filterColumn);
  // Highlights the slices named `names` (GPU or CPU ones) in one run.
  void highlight(int side, const std::vector<std::string>& names, bool gpu, const std::string* shapes,
                 const QString& origin, bool focus);
  void highlightBoth(const std::array<std::vector<std::string>, 2>& names, bool gpu, const std::string* shapes,
                     const QString& origin);

  std::array<TraceSession*, 2> sessions_;
  QTabWidget* tabs_;
  std::array<QTableView*, 2> smallTables_{};  // runs, idle_per_step
  StepTimesChart* stepChart_ = nullptr;
  QLabel* spreadLabel_ = nullptr;  // the step-time test, in words
  std::vector<std::pair<std::string, ReportTableModel*>> models_;
  std::vector<std::pair<std::string, TablePanel*>> panels_;
  report::ComparisonReport report_;
};

}  // namespace gapscope::app
