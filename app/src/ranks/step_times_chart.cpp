#include "ranks/step_times_chart.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include "panels/plot_style.h"

namespace gapscope::app {

namespace {

// Run A in the theme's mid blue, B in orange: told apart without colour
// names, and by their legend.
const QColor kRunColours[2] = {QColor(0x3B, 0x82, 0xC4), QColor(0xE0, 0x7B, 0x26)};

}  // namespace

StepTimesChart::StepTimesChart(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  setObjectName(QStringLiteral("stepTimesChart"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setMinimumHeight(160);
  plot_->xAxis->setLabel(tr("step"));
  // Steps are whole numbers: ticks on them, never at 2.5.
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->xAxis->setTicker(ticker);
  plot_->yAxis->setLabel(tr("step time (ms)"));
  plot_->legend->setVisible(true);
  // One row above the plot, never over a line.
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setWrap(0);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  plot_->legend->setMargins(QMargins(6, 2, 6, 2));
  for (int run = 0; run < 2; ++run) {
    QCPGraph* line = plot_->addGraph();
    line->setName(run == 0 ? tr("A") : tr("B"));
    line->setPen(QPen(kRunColours[run], 2));
    line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    QCPGraph* rings = plot_->addGraph();
    rings->setName(run == 0 ? tr("A: straggling") : tr("B: straggling"));
    rings->setLineStyle(QCPGraph::lsNone);
    rings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kRunColours[run], 2), Qt::NoBrush, 13));
  }
  setToolTip(tr("The median rank's step time in each step after the warm-up; rings: straggling steps"));
  restyle();
}

void StepTimesChart::setComparison(const ranks::RankSetComparison& comparison) {
  double top = 0;
  double first = 0;
  double last = 0;
  bool any = false;
  for (int run = 0; run < 2; ++run) {
    QVector<double> steps, times, ringSteps, ringTimes;
    for (const auto& change : comparison.steps) {
      const auto& row = run == 0 ? change.a : change.b;
      if (!row || row->warmUp) continue;
      const double ms = static_cast<double>(row->stepTimeMedianNs) / 1e6;
      steps << static_cast<double>(change.step);
      times << ms;
      if (row->straggling) {
        ringSteps << static_cast<double>(change.step);
        ringTimes << ms;
      }
      top = std::max(top, ms);
      first = any ? std::min(first, steps.back()) : steps.back();
      last = any ? std::max(last, steps.back()) : steps.back();
      any = true;
    }
    plot_->graph(2 * run)->setData(steps, times, true);
    plot_->graph(2 * run + 1)->setData(ringSteps, ringTimes, true);
    // A ring in the legend only where there is one to explain.
    if (ringSteps.isEmpty()) plot_->graph(2 * run + 1)->removeFromLegend();
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
