// Text of numbers: percentages, microseconds, byte sizes and plain numbers.
#pragma once

#include <cstdint>
#include <string>

#include "gapscope/model/types.h"

namespace gapscope::format {

enum class PercentStyle {
  // Reports: one decimal, "12.3%", and "<0.1%" for values that would read
  // as 0.0% but are not zero.
  Readable,
  // The gap verdict line: one decimal, "0.0%" included.
  Verdict,
  // CLI tables and summaries, as PyTorch prints them: "12.34%".
  TorchTable,
  // App table cells: "12.34 %".
  AppTable,
};

// `pct` is already in percent (12.3 for 12.3%). NaN and infinities print as
// printf writes them ("nan%", "inf%").
std::string formatPercent(double pct, PercentStyle style = PercentStyle::Readable);

// Exact decimal microseconds of integer nanoseconds, trailing zeros dropped:
// 1920 -> "1.92", 1000 -> "1", -5 -> "-0.005". For CSV.
std::string exactUs(TimeNs ns);
// The same, appended to `out` without a string of its own (millions of CSV rows).
void appendExactUs(std::string& out, TimeNs ns);
// Microseconds as a JSON number: ns / 1000.0, whose shortest round-trip
// form (what JSON writers print) is the exact decimal for |ns| < 2^53.
double usNumber(TimeNs ns);

// "512 B", "48.0 KiB", "139.8 GiB", "-2.0 MiB": binary units, one decimal.
std::string formatBytes(std::int64_t bytes);

// Up to `decimals` decimals, trailing zeros dropped; "0" for NaN, the
// infinities and negative zero.
std::string formatNumber(double value, int decimals);
// Exactly `decimals` decimals, as printf's "%.*f" writes them.
std::string formatFixed(double value, int decimals);

}  // namespace gapscope::format
