// The heat map's colour scale: viridis (dark blue to yellow), which reads
// in order in both themes, to colour-blind eyes and in greyscale.
#pragma once

#include <QColor>
#include <QPalette>

namespace gapscope::app {

// `t` in [0, 1] (clamped): 0 the smallest value, 1 the largest.
QColor heatColour(double t);

// A warm-up step's cells: a grey of the theme, off the scale (its start-up
// would squash every other colour, and it is no part of the job's pace).
QColor warmUpColour(const QPalette& palette);

}  // namespace gapscope::app
