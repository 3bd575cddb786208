// The app's charts (QCustomPlot) in the window's palette: background, axes,
// grid and legend, so they follow the light and dark themes.
#pragma once

#include <QPalette>

class QCustomPlot;

namespace gapscope::app {

void stylePlot(QCustomPlot* plot, const QPalette& palette);

}  // namespace gapscope::app
