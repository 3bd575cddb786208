#include "panels/step_times_chart.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "panels/plot_style.h"

namespace gapscope::app {

namespace {

// Run A in the theme's mid blue, B in orange: told apart without colour
// names, and by their legend.
const QColor kRunColours[2] = {QColor(0x3B, 0x82, 0xC4), QColor(0xE0, 0x7B, 0x26)};

}  // namespace

QColor StepTimesChart::runColour(int run) { return kRunColours[run == 0 ? 0 : 1]; }

QString StepTimesChart::runKey() {
  return QStringLiteral("<span style=\"color:%1\">━ A</span>&nbsp;&nbsp;<span style=\"color:%2\">━ B</span>")
      .arg(runColour(0).name(), runColour(1).name());
}

StepTimesChart::StepTimesChart(const QString& ringName, Frame frame, QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot(this)) {
  setObjectName(QStringLiteral("stepTimesChart"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setMinimumHeight(160);
  const bool full = frame == Frame::Full;
  if (full) plot_->xAxis->setLabel(tr("step"));
  // Steps are whole numbers: ticks on them, never at 2.5.
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->xAxis->setTicker(ticker);
  plot_->yAxis->setLabel(full ? tr("step time (ms)") : tr("ms"));
  plot_->legend->setVisible(full);
  if (full) {
    // One row above the plot, never over a line.
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(0);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->legend->setMargins(QMargins(6, 2, 6, 2));
  }
  for (int run = 0; run < 2; ++run) {
    QCPGraph* line = plot_->addGraph();
    line->setName(run == 0 ? tr("A") : tr("B"));
    line->setPen(QPen(kRunColours[run], 2));
    line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    QCPGraph* rings = plot_->addGraph();
    rings->setName((run == 0 ? tr("A: %1") : tr("B: %1")).arg(ringName));
    rings->setLineStyle(QCPGraph::lsNone);
    rings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kRunColours[run], 2), Qt::NoBrush, 13));
  }
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, &StepTimesChart::hover);
  connect(plot_, &QCustomPlot::mousePress, this, &StepTimesChart::press);
  restyle();
}

std::optional<StepTimesChart::Point> StepTimesChart::pointAt(const QPointF& pos) const {
  constexpr double kReach = 8.0;  // pixels
  std::optional<Point> nearest;
  double best = kReach * kReach;
  for (int run = 0; run < 2; ++run) {
    const QCPGraph* line = plot_->graph(2 * run);
    for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it) {
      const QPointF at(line->keyAxis()->coordToPixel(it->key), line->valueAxis()->coordToPixel(it->value));
      const QPointF d = at - pos;
      const double distance = d.x() * d.x() + d.y() * d.y();
      if (distance > best) continue;
      best = distance;
      nearest = Point{run, static_cast<qint64>(std::llround(it->key)), it->value};
    }
  }
  return nearest;
}

// A point under the mouse names its run, step and time, and takes a click.
void StepTimesChart::hover(QMouseEvent* event) {
  const std::optional<Point> p = pointAt(event->position());
  plot_->setCursor(p ? Qt::PointingHandCursor : Qt::ArrowCursor);
  if (!p) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(),
                     tr("%1, step %2: %3 ms — click to look at it")
                         .arg(p->run == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                         .arg(p->step)
                         .arg(p->ms, 0, 'f', 3),
                     plot_);
}

void StepTimesChart::press(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if (const std::optional<Point> p = pointAt(event->position())) emit stepClicked(p->run, p->step);
}

void StepTimesChart::setSeries(const std::array<StepSeries, 2>& runs) {
  double top = 0;
  double first = 0;
  double last = 0;
  bool any = false;
  for (int run = 0; run < 2; ++run) {
    const StepSeries& series = runs[static_cast<std::size_t>(run)];
    for (qsizetype k = 0; k < series.steps.size(); ++k) {
      top = std::max(top, series.ms[k]);
      first = any ? std::min(first, series.steps[k]) : series.steps[k];
      last = any ? std::max(last, series.steps[k]) : series.steps[k];
      any = true;
    }
    plot_->graph(2 * run)->setData(series.steps, series.ms, true);
    plot_->graph(2 * run + 1)->setData(series.ringSteps, series.ringMs, true);
    // A ring in the legend only where there is one to explain.
    if (series.ringSteps.isEmpty()) plot_->graph(2 * run + 1)->removeFromLegend();
    else plot_->graph(2 * run + 1)->addToLegend();
  }
  plot_->xAxis->setRange(first - 0.5, last + 0.5);
  plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
  plot_->replot();
}

int StepTimesChart::points(int run) const { return plot_->graph(2 * run)->dataCount(); }

void StepTimesChart::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) restyle();
}

void StepTimesChart::restyle() {
  stylePlot(plot_, palette());
  plot_->replot();
}

}  // namespace gapscope::app
