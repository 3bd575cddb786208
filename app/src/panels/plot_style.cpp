#include "panels/plot_style.h"

#include <qcustomplot.h>

namespace gapscope::app {

void stylePlot(QCustomPlot* plot, const QPalette& p) {
  const QColor text = p.color(QPalette::WindowText);
  plot->setBackground(p.color(QPalette::Base));
  for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(p.color(QPalette::Mid), 0, Qt::DotLine));
  }
  plot->legend->setBrush(p.color(QPalette::Base));
  plot->legend->setTextColor(text);
  plot->legend->setBorderPen(QPen(p.color(QPalette::Mid)));
}

}  // namespace gapscope::app
