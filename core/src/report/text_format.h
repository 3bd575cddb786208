// Human formatting of report values: durations with a unit chosen by size,
// percentages, byte sizes. Machine formats (JSON, CSV) never use these: they
// write microseconds as exact numbers.
#pragma once

#include <cstdint>
#include <string>

#include "gapscope/model/types.h"

namespace gapscope::report {

// "850 ns", "12.3 µs", "1.23 ms", "2.35 s": three significant digits.
std::string formatDuration(TimeNs ns);
// Like formatDuration but with trailing zeros dropped, for axis and bucket
// labels: "1 µs", "2.5 µs", "100 µs", "1 ms".
std::string formatDurationCompact(TimeNs ns);
// "12.3%" (one decimal; "<0.1%" for small non-zero values).
std::string formatPct(double pct);
// "512 B", "48.0 KiB", "139.8 GiB" (binary units, one decimal).
std::string formatBytes(std::int64_t bytes);
// Exact microseconds of integer nanoseconds as a number: ns / 1000.0,
// exact in its shortest round-trip form for |ns| < 2^53.
double usNumber(TimeNs ns);
// Exact decimal microseconds, trailing zeros dropped: 1920 -> "1.92".
std::string exactUs(TimeNs ns);
// A double with up to `decimals` decimals, trailing zeros dropped.
std::string formatNumber(double value, int decimals);

}  // namespace gapscope::report
