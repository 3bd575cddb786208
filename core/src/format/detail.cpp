#include "format/detail.h"

#include <charconv>

namespace gapscope::format::detail {

std::string dropTrailingZeros(std::string number) {
  if (number.find('.') == std::string::npos) return number;
  while (number.back() == '0') number.pop_back();
  if (number.back() == '.') number.pop_back();
  return number;
}

std::string thousandthsText(std::uint64_t thousandths, bool trim) {
  std::string text;
  appendThousandths(text, thousandths, trim);
  return text;
}

void appendThousandths(std::string& out, std::uint64_t thousandths, bool trim) {
  char whole[24];
  out.append(whole, std::to_chars(whole, whole + sizeof whole, thousandths / 1000).ptr);
  const std::uint64_t rest = thousandths % 1000;
  if (trim && rest == 0) return;
  const char decimals[4] = {'.', static_cast<char>('0' + rest / 100), static_cast<char>('0' + rest / 10 % 10),
                            static_cast<char>('0' + rest % 10)};
  std::size_t length = 4;
  while (trim && decimals[length - 1] == '0') --length;
  out.append(decimals, length);
}

}  // namespace gapscope::format::detail
