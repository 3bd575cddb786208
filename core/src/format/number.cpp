#include "gapscope/format/number.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "format/detail.h"

namespace gapscope::format {

std::string formatFixed(double value, int decimals) {
  const int size = std::snprintf(nullptr, 0, "%.*f", decimals, value);
  std::string out(static_cast<std::size_t>(size), '\0');
  std::snprintf(out.data(), out.size() + 1, "%.*f", decimals, value);
  return out;
}

std::string formatNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "0";
  std::string s = detail::dropTrailingZeros(formatFixed(value, decimals));
  return s == "-0" ? "0" : s;
}

std::string formatPercent(double pct, PercentStyle style) {
  switch (style) {
    case PercentStyle::Readable:
      if (pct > 0 && pct < 0.05) return "<0.1%";
      return formatFixed(pct, 1) + "%";
    case PercentStyle::Verdict: return formatFixed(pct, 1) + "%";
    case PercentStyle::TorchTable: return formatFixed(pct, 2) + "%";
    case PercentStyle::AppTable: return formatFixed(pct, 2) + " %";
  }
  return formatFixed(pct, 1) + "%";
}

std::string exactUs(TimeNs ns) {
  std::string text;
  appendExactUs(text, ns);
  return text;
}

void appendExactUs(std::string& out, TimeNs ns) {
  if (ns < 0) out += '-';
  detail::appendThousandths(out, detail::magnitude(ns), true);
}

double usNumber(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string formatBytes(std::int64_t bytes) {
  // Negative sizes (a net change of memory) read like positive ones.
  if (bytes < 0 && bytes > std::numeric_limits<std::int64_t>::min()) return "-" + formatBytes(-bytes);
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  return formatFixed(v, 1) + " " + kUnits[unit];
}

}  // namespace gapscope::format
