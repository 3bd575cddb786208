// Colours of the timeline for the light and the dark palette: one colour per
// slice colour class (timeline/layout.h), per gap cause, and the chrome
// (background, lanes, text, selection).
#pragma once

#include <QColor>

#include <array>

#include "gapscope/analysis/gaps.h"
#include "gapscope/timeline/layout.h"

namespace gapscope::app {

struct TimelinePalette {
  std::array<QColor, timeline::kColourClasses> slice;
  std::array<QColor, analysis::kGapCauseCount> gap;  // indexed by GapCause
  QColor background;
  QColor laneAlternate;  // every other lane, for the eye
  QColor header;         // group header strip
  QColor headerText;
  QColor laneText;
  QColor separator;
  QColor axisBackground;
  QColor axisText;
  QColor tick;
  QColor selection;      // outline of the selected slice and its partner
  QColor highlight;      // outline of search results / table occurrences
  QColor flow;           // launch -> kernel arrow
  QColor measure;        // the measured range on the axis
  QColor counter;
  QColor memoryAllocated;
  QColor memoryReserved;
  QColor memoryPeak;

  static TimelinePalette forDark(bool dark);
  // Text colour readable on `fill`.
  static QColor textOn(const QColor& fill);
};

}  // namespace gapscope::app
