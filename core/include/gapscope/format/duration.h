// Text of durations (int64 nanoseconds). Every place that shows a duration
// picks one of these styles; each keeps the exact output of the place it
// was made for, so changing a style changes that output on purpose.
#pragma once

#include <string>

#include "gapscope/model/types.h"

namespace gapscope::format {

enum class DurationStyle {
  // Reports, app tables, tooltips: three significant digits in the largest
  // fitting unit, "850 ns", "12.3 µs", "1.50 ms", "2.35 s" (999.96 µs is
  // "1.00 ms", never "1000 µs").
  Readable,
  // Chart axes and histogram buckets: Readable without trailing zeros,
  // "1 µs", "2.5 µs", "100 µs".
  AxisLabel,
  // The gap verdict and gap explanations: exact to three decimals (rounded
  // half up), zeros dropped: "850 ns", "12.345 µs", "1.5 ms" (the µs of
  // every other view; "us" before 27 November, ninth session).
  Verdict,
  // CLI text tables, as PyTorch's key_averages() table prints them:
  // "0.850us", "12.345us", "1.234ms", "2.000s" (rounded half up).
  TorchTable,
};

// Negative durations keep their sign; INT64_MIN included.
std::string formatDuration(TimeNs ns, DurationStyle style = DurationStyle::Readable);

// Time-axis labels, where one axis shares one unit. labelUnitFor: the unit
// (1, 1e3, 1e6 or 1e9 ns) for times up to |maxAbs|, the largest one not
// above it (ns under 1 µs). formatTimeLabel: a point in time `t` on an
// axis whose ticks are `step` apart, in that unit with just enough decimals
// to tell ticks apart: "1.25 ms" for a 50 µs step, "1.250001 ms" for 1 ns.
TimeNs labelUnitFor(TimeNs maxAbs);
std::string formatTimeLabel(TimeNs t, TimeNs step, TimeNs unit);

}  // namespace gapscope::format
