// The job's step time in each step of two runs compared: one line per run
// (the median rank's step time, StepRow::stepTimeMedianNs), straggling steps
// ringed; warm-up steps are left out, as every figure of the comparison
// leaves them out (a 2 s start-up would flatten the rest).
#pragma once

#include <QWidget>

#include "gapscope/ranks/set_compare.h"

class QCustomPlot;

namespace gapscope::app {

class StepTimesChart : public QWidget {
  Q_OBJECT

 public:
  explicit StepTimesChart(QWidget* parent = nullptr);

  void setComparison(const ranks::RankSetComparison& comparison);
  QCustomPlot* plot() const { return plot_; }
  // Points drawn per run (A, B): the steps after the warm-up.
  int points(int run) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void restyle();

  QCustomPlot* plot_;
};

}  // namespace gapscope::app
