#include "gapscope/format/duration.h"

#include <string_view>

#include "format/detail.h"
#include "gapscope/format/number.h"

namespace gapscope::format {
namespace {

using detail::kMicro;
using detail::kMilli;
using detail::kSecond;

// A duration's number and unit, before the sign.
struct Amount {
  std::string number;
  std::string_view unit;
};

Amount threeDigits(std::uint64_t mag) {
  if (mag < kMicro) return {std::to_string(mag), "ns"};
  const double v = static_cast<double>(mag);
  // Rounding can carry a value into the next unit (999.96 µs would print
  // "1000 µs"): such values move up a unit first.
  const detail::TimeUnit& unit = detail::kTimeUnits[v < 999.5e3 ? 1 : v < 999.5e6 ? 2 : 3];
  const double value = v / static_cast<double>(unit.ns);
  return {formatFixed(value, value >= 100 ? 0 : value >= 10 ? 1 : 2), unit.symbol};
}

// Thousandths of the largest unit from µs up that fits (µs below 1 µs too),
// rounded half up. `micro`: "µs" in prose, "us" where PyTorch's tables are copied.
Amount threeDecimals(std::uint64_t mag, bool trim, std::string_view micro) {
  const std::uint64_t unit = mag < kMilli ? kMicro : mag < kSecond ? kMilli : kSecond;
  const std::uint64_t perThousandth = unit / 1000;
  const std::uint64_t thousandths = (mag + perThousandth / 2) / perThousandth;
  return {detail::thousandthsText(thousandths, trim), unit == kMicro ? micro : unit == kMilli ? "ms" : "s"};
}

Amount amount(std::uint64_t mag, DurationStyle style) {
  switch (style) {
    case DurationStyle::Readable: return threeDigits(mag);
    case DurationStyle::AxisLabel: {
      Amount a = threeDigits(mag);
      return {detail::dropTrailingZeros(a.number), a.unit};
    }
    case DurationStyle::Verdict:
      if (mag < kMicro) return {std::to_string(mag), "ns"};
      return threeDecimals(mag, true, "µs");
    case DurationStyle::TorchTable: return threeDecimals(mag, false, "us");
  }
  return threeDigits(mag);
}

}  // namespace

std::string formatDuration(TimeNs ns, DurationStyle style) {
  const Amount a = amount(detail::magnitude(ns), style);
  std::string out = ns < 0 ? "-" : "";
  out += a.number;
  if (style != DurationStyle::TorchTable) out += ' ';  // PyTorch writes "12.345us"
  out += a.unit;
  return out;
}

}  // namespace gapscope::format
