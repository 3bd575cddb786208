#include "calltree/call_tree_text.h"

#include <QCoreApplication>

#include "gapscope/format/number.h"
#include "models/table_format.h"

namespace gapscope::app {

using calltree::Metric;

QString metricLabel(Metric metric) {
  switch (metric) {
    case Metric::Cpu: return QCoreApplication::translate("CallTree", "CPU time");
    case Metric::Device: return QCoreApplication::translate("CallTree", "Device time");
    case Metric::Launches: return QCoreApplication::translate("CallTree", "Launches");
    case Metric::Idle: return QCoreApplication::translate("CallTree", "Blamed idle");
  }
  return {};
}

QString metricValueText(Metric metric, std::int64_t value) {
  return metric == Metric::Launches ? QString::number(value) : durationText(value);
}

QString percentText(double pct) { return utf8(format::formatPercent(pct)); }

QString nodeFiguresHtml(const calltree::CallNode& node) {
  QString text = QCoreApplication::translate("CallTree", "Calls: %1").arg(node.calls);
  for (Metric m : {Metric::Cpu, Metric::Device, Metric::Launches, Metric::Idle}) {
    const calltree::Figure& f = node.figure(m);
    text += QStringLiteral("<br>%1: %2 total, %3 self")
                .arg(metricLabel(m), metricValueText(m, f.total), metricValueText(m, f.self));
  }
  return text;
}

}  // namespace gapscope::app
