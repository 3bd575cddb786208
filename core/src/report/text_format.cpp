#include "report/text_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gapscope::report {
namespace {

// Three significant digits of value (> 0) with the unit appended.
std::string threeDigits(double value, const char* unit) {
  char buf[48];
  int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value, unit);
  return buf;
}

}  // namespace

std::string formatDuration(TimeNs ns) {
  if (ns < 0) return "-" + formatDuration(-ns);
  if (ns < 1000) return std::to_string(ns) + " ns";
  double v = static_cast<double>(ns);
  // Rounding can carry a value to the next unit (999.96 us -> "1000 µs"): move up first.
  if (v < 999.5e3) return threeDigits(v / 1e3, "\xC2\xB5s");
  if (v < 999.5e6) return threeDigits(v / 1e6, "ms");
  return threeDigits(v / 1e9, "s");
}

std::string formatDurationCompact(TimeNs ns) {
  std::string text = formatDuration(ns);
  std::size_t space = text.find(' ');
  std::string number = text.substr(0, space);
  if (number.find('.') != std::string::npos) {
    while (number.back() == '0') number.pop_back();
    if (number.back() == '.') number.pop_back();
  }
  return number + text.substr(space);
}

std::string formatPct(double pct) {
  if (pct > 0 && pct < 0.05) return "<0.1%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", pct);
  return buf;
}

std::string formatBytes(std::int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

double usNumber(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string exactUs(TimeNs ns) {
  std::string sign = ns < 0 ? "-" : "";
  std::uint64_t a = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  std::string out = sign + std::to_string(a / 1000);
  std::uint64_t frac = a % 1000;
  if (frac == 0) return out;
  char buf[8];
  std::snprintf(buf, sizeof buf, "%03llu", static_cast<unsigned long long>(frac));
  std::string f = buf;
  while (f.back() == '0') f.pop_back();
  return out + "." + f;
}

std::string formatNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

}  // namespace gapscope::report
