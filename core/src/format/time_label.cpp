// Time-axis labels: one unit per axis, integer arithmetic only.
#include <algorithm>

#include "format/detail.h"
#include "gapscope/format/duration.h"

namespace gapscope::format {
namespace {

const char* unitSymbol(TimeNs unit) {
  for (const auto& u : detail::kTimeUnits) {
    if (u.ns == unit) return u.symbol;
  }
  return "ns";
}

}  // namespace

TimeNs labelUnitFor(TimeNs maxAbs) {
  const std::uint64_t m = detail::magnitude(maxAbs);
  TimeNs unit = 1;
  for (const auto& u : detail::kTimeUnits) {
    if (m >= static_cast<std::uint64_t>(u.ns)) unit = u.ns;
  }
  return unit;
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
  const std::uint64_t magnitude = detail::magnitude(t);
  const std::uint64_t whole = magnitude / static_cast<std::uint64_t>(unit);
  const std::uint64_t rest = magnitude % static_cast<std::uint64_t>(unit);
  std::string out = t < 0 ? "-" : "";
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

}  // namespace gapscope::format
