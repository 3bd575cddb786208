#include "format/detail.h"

#include <cstdio>

namespace gapscope::format::detail {

std::string dropTrailingZeros(std::string number) {
  if (number.find('.') == std::string::npos) return number;
  while (number.back() == '0') number.pop_back();
  if (number.back() == '.') number.pop_back();
  return number;
}

std::string thousandthsText(std::uint64_t thousandths, bool trim) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(thousandths / 1000),
                static_cast<unsigned long long>(thousandths % 1000));
  return trim ? dropTrailingZeros(buf) : std::string(buf);
}

}  // namespace gapscope::format::detail
