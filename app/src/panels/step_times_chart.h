// Two runs' step times, one line per run (A blue, B orange) over the step
// numbers, some points ringed: the ranks comparison's job step time with
// its straggling steps, or two traces' step times. Warm-up steps are left
// out by the callers, as every figure of a comparison leaves them out (a
// 2 s start-up would flatten the rest). The series are built next to what
// they show: ranksStepSeries (ranks/), traceStepSeries (compare/).
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include <array>
#include <optional>

class QCustomPlot;

namespace gapscope::app {

struct StepSeries {
  QVector<double> steps;  // step numbers
  QVector<double> ms;     // the step's time
  QVector<double> ringSteps;
  QVector<double> ringMs;
};

class StepTimesChart : public QWidget {
  Q_OBJECT

 public:
  // Compact: no legend row and no axis title under the steps, for a short
  // dock whose caption names the runs in their colours (runKey).
  enum class Frame { Full, Compact };
  // `ringName`: what a ring means, after the run's letter ("straggling").
  explicit StepTimesChart(const QString& ringName, Frame frame = Frame::Full, QWidget* parent = nullptr);

  static QColor runColour(int run);
  // "━ A  ━ B" in the runs' colours, as rich text.
  static QString runKey();

  void setSeries(const std::array<StepSeries, 2>& runs);
  QCustomPlot* plot() const { return plot_; }
  // Points drawn per run (A, B).
  int points(int run) const;

  // The step drawn within a few pixels of `pos` (in the plot's
  // coordinates), the nearest; none where no point is that close.
  struct Point {
    int run = 0;
    qint64 step = 0;
    double ms = 0;
  };
  std::optional<Point> pointAt(const QPointF& pos) const;

 signals:
  // A point was clicked: its run (0: A, 1: B) and step number.
  void stepClicked(int run, qint64 step);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void restyle();
  void hover(QMouseEvent* event);
  void press(QMouseEvent* event);

  QCustomPlot* plot_;
};

}  // namespace gapscope::app
