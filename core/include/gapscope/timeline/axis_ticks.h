// Ticks of the time axis: a 1-2-5 step chosen so labelled ticks are at
// least a given number of pixels apart, from 1 ns to hours.
#pragma once

#include <string>
#include <vector>

#include "gapscope/model/types.h"
#include "gapscope/timeline/time_scale.h"

namespace gapscope::timeline {

struct AxisTick {
  TimeNs time = 0;    // absolute trace time
  double x = 0;       // pixel in the scale
  bool major = true;  // majors carry a label
  std::string label;  // time since `origin`, empty for minor ticks
};

struct AxisTicks {
  TimeNs majorStep = 1;
  TimeNs minorStep = 1;
  std::vector<AxisTick> ticks;  // sorted by time
};

// The smallest 1-2-5 x 10^k step (in ns, at least 1) whose width is at
// least `minSpacingPx` pixels at `nsPerPixel`.
TimeNs niceStep(double nsPerPixel, double minSpacingPx);

// Major ticks are `niceStep(.., minMajorSpacingPx)` apart, with minor
// ticks between them (5 per major for 1 and 5 steps, 4 for 2 steps), all
// aligned on multiples of the step counted from `origin`; labels show the
// time since `origin` (the trace start).
AxisTicks computeAxisTicks(const TimeScale& scale, TimeNs origin, double minMajorSpacingPx);

}  // namespace gapscope::timeline
