#include "gapscope/timeline/time_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace gapscope::timeline {

namespace {

constexpr TimeNs kMicro = 1000;
constexpr TimeNs kMilli = 1000 * kMicro;
constexpr TimeNs kSecond = 1000 * kMilli;

struct Unit {
  TimeNs ns;
  const char* symbol;
};
constexpr Unit kUnits[] = {{1, "ns"}, {kMicro, "µs"}, {kMilli, "ms"}, {kSecond, "s"}};

int decimalsForThreeDigits(double v) {
  if (v >= 100) return 0;
  if (v >= 10) return 1;
  return 2;
}

}  // namespace

std::string formatDuration(TimeNs ns) {
  const bool negative = ns < 0;
  // Unsigned magnitude: -INT64_MIN does not fit an int64.
  const double magnitude = negative ? -static_cast<double>(ns) : static_cast<double>(ns);
  std::size_t u = 0;
  while (u + 1 < std::size(kUnits) && magnitude >= static_cast<double>(kUnits[u + 1].ns)) ++u;
  double value = magnitude / static_cast<double>(kUnits[u].ns);
  int decimals = u == 0 ? 0 : decimalsForThreeDigits(value);
  // 999.7 µs would print as "1000 µs": move up a unit instead.
  const double rounded = std::round(value * std::pow(10, decimals)) / std::pow(10, decimals);
  if (rounded >= 1000 && u + 1 < std::size(kUnits)) {
    ++u;
    value = magnitude / static_cast<double>(kUnits[u].ns);
    decimals = decimalsForThreeDigits(value);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%.*f %s", negative ? "-" : "", decimals, value,
                kUnits[u].symbol);
  return buf;
}

TimeNs labelUnitFor(TimeNs maxAbs) {
  const TimeNs m = maxAbs < 0 ? -maxAbs : maxAbs;
  TimeNs unit = 1;
  for (const auto& u : kUnits) {
    if (m >= u.ns) unit = u.ns;
  }
  return unit;
}

const char* unitSymbol(TimeNs unit) {
  for (const auto& u : kUnits) {
    if (u.ns == unit) return u.symbol;
  }
  return "ns";
}

std::string formatTimeLabel(TimeNs t, TimeNs step, TimeNs unit) {
  if (unit <= 0) unit = 1;
  if (step <= 0) step = 1;
  // Decimals: how many tenths of the unit it takes to land on the step grid.
  int decimals = 0;
  TimeNs quantum = unit;
  while (quantum > 1 && step % quantum != 0) {
    quantum /= 10;
    ++decimals;
  }
  const bool negative = t < 0;
  const std::uint64_t magnitude =
      negative ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(t)
               : static_cast<std::uint64_t>(t);
  const std::uint64_t whole = magnitude / static_cast<std::uint64_t>(unit);
  const std::uint64_t rest = magnitude % static_cast<std::uint64_t>(unit);
  std::string out = negative ? "-" : "";
  out += std::to_string(whole);
  if (decimals > 0) {
    std::string digits = std::to_string(rest / static_cast<std::uint64_t>(quantum));
    out += '.';
    out.append(static_cast<std::size_t>(decimals) - std::min<std::size_t>(digits.size(), decimals), '0');
    out += digits;
  }
  out += ' ';
  out += unitSymbol(unit);
  return out;
}

}  // namespace gapscope::timeline
