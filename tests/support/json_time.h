// A Chrome-trace time (us, 3 decimals, read by nlohmann as a double) as
// exact integer nanoseconds, for counts made in tests from the JSON itself.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace gapscope::testing {

// The double holds the written value to within half a nanosecond (its ulp
// near 5e12 us is about 1 ns), and subtracting the whole microseconds first
// is exact, so rounding the rest gives the written nanoseconds.
inline std::int64_t exactNs(const nlohmann::json& us) {
  const double v = us.get<double>();
  const double whole = std::floor(v);
  return static_cast<std::int64_t>(whole) * 1000 + static_cast<std::int64_t>(std::llround((v - whole) * 1000));
}

// Nanoseconds as the CSV tables write microseconds: exact, no trailing zeros.
inline std::string microsecondsText(std::int64_t ns) {
  std::string s = std::to_string(ns / 1000) + "." + std::to_string(1000 + ns % 1000).substr(1);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace gapscope::testing
