// Human text for durations and for time-axis labels, from nanoseconds to
// seconds. Shared by the timeline axis, tooltips and tables.
#pragma once

#include <string>

#include "gapscope/model/types.h"

namespace gapscope::timeline {

// Three significant digits in the largest fitting unit: "850 ns",
// "12.3 µs", "1.50 ms", "2.35 s". Negative durations keep their sign.
std::string formatDuration(TimeNs ns);

// The unit (1, 1e3, 1e6 or 1e9 ns) for labelling times up to |maxAbs|:
// the largest one not above it (ns for anything under 1 µs).
TimeNs labelUnitFor(TimeNs maxAbs);

// A point in time `t` (relative to the trace start) on an axis whose ticks
// are `step` apart, in `unit` (from labelUnitFor, so one axis uses one
// unit) with just enough decimals to tell ticks apart: "1.25 ms" for a
// 50 µs step, "1.250001 ms" for a 1 ns step. Exact: integer arithmetic.
std::string formatTimeLabel(TimeNs t, TimeNs step, TimeNs unit);

// The symbol of a unit from labelUnitFor: "ns", "µs", "ms" or "s".
const char* unitSymbol(TimeNs unit);

}  // namespace gapscope::timeline
