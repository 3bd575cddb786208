// The words and numbers of the call tree views: metric names, a value in
// its unit, a node's four figures.
#pragma once

#include <QString>

#include "gapscope/calltree/call_tree.h"

namespace gapscope::app {

// "CPU time", "Device time", "Launches", "Blamed idle".
QString metricLabel(calltree::Metric metric);
// A duration for the time metrics, a count for launches.
QString metricValueText(calltree::Metric metric, std::int64_t value);
// "12.34 %".
QString percentText(double pct);
// Calls and every metric's total and self, as lines of rich text.
QString nodeFiguresHtml(const calltree::CallNode& node);

}  // namespace gapscope::app
