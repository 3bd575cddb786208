// The heat map's colour scale: viridis (dark blue to yellow), which reads
// in order in both themes, to colour-blind eyes and in greyscale.
#pragma once

#include <QColor>

namespace gapscope::app {

// `t` in [0, 1] (clamped): 0 the smallest value, 1 the largest.
QColor heatColour(double t);

}  // namespace gapscope::app
