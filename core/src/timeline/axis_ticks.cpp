#include "gapscope/timeline/axis_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "gapscope/format/duration.h"

namespace gapscope::timeline {

namespace {

// Floor division for possibly negative numerators.
TimeNs floorDiv(TimeNs a, TimeNs b) {
  TimeNs q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int minorDivisions(TimeNs step) {
  // Leading digit of a 1-2-5 step decides how it splits evenly.
  while (step >= 10 && step % 10 == 0) step /= 10;
  return step == 2 ? 4 : 5;
}

}  // namespace

TimeNs niceStep(double nsPerPixel, double minSpacingPx) {
  const double wanted = std::max(1.0, nsPerPixel * std::max(1.0, minSpacingPx));
  TimeNs decade = 1;
  // 1e18 is the last decade below int64's limit.
  for (int i = 0; i < 18; ++i) {
    for (TimeNs m : {1, 2, 5}) {
      if (static_cast<double>(decade * m) >= wanted) return decade * m;
    }
    decade *= 10;
  }
  return decade;
}

AxisTicks computeAxisTicks(const TimeScale& scale, TimeNs origin, double minMajorSpacingPx) {
  AxisTicks out;
  out.majorStep = niceStep(scale.nsPerPixel(), minMajorSpacingPx);
  const int divisions = minorDivisions(out.majorStep);
  // A step of 1 or 2 ns cannot split into whole nanoseconds: no minor ticks.
  out.minorStep = out.majorStep % divisions == 0 ? out.majorStep / divisions : out.majorStep;

  const TimeNs first = scale.start() - origin;
  const TimeNs last = scale.end() - origin;
  const TimeNs unit = format::labelUnitFor(std::max(std::llabs(first), std::llabs(last)));
  for (TimeNs k = floorDiv(first, out.minorStep); k * out.minorStep <= last; ++k) {
    const TimeNs rel = k * out.minorStep;
    AxisTick tick;
    tick.time = origin + rel;
    tick.x = scale.toPixel(tick.time);
    tick.major = rel % out.majorStep == 0;
    if (tick.major) tick.label = format::formatTimeLabel(rel, out.majorStep, unit);
    if (tick.x >= -0.5) out.ticks.push_back(std::move(tick));
  }
  return out;
}

}  // namespace gapscope::timeline
