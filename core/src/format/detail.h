// Internal: the pieces the duration and number formats share.
#pragma once

#include <cstdint>
#include <string>

#include "gapscope/model/types.h"

namespace gapscope::format::detail {

inline constexpr TimeNs kMicro = 1000;
inline constexpr TimeNs kMilli = 1000 * kMicro;
inline constexpr TimeNs kSecond = 1000 * kMilli;

struct TimeUnit {
  TimeNs ns;
  const char* symbol;
};
inline constexpr TimeUnit kTimeUnits[] = {{1, "ns"}, {kMicro, "µs"}, {kMilli, "ms"}, {kSecond, "s"}};

// |ns| as unsigned: -INT64_MIN does not fit an int64.
inline std::uint64_t magnitude(TimeNs ns) {
  return ns < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
}

// "2.50" -> "2.5", "3.0" -> "3"; numbers without a '.' stay as they are.
std::string dropTrailingZeros(std::string number);

// "12.345" from a count of thousandths (integers only: no float noise),
// trailing zeros dropped when `trim` ("12.3", "12").
std::string thousandthsText(std::uint64_t thousandths, bool trim);
// The same, appended to `out` (no string of its own: millions of CSV rows).
void appendThousandths(std::string& out, std::uint64_t thousandths, bool trim);

}  // namespace gapscope::format::detail
