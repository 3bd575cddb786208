#include "decimal_time.h"

#include <bit>
#include <cstring>
#include <limits>

namespace gapscope::io {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The pieces of "[-]int[.frac][e[+-]exp]".
struct NumberParts {
  bool negative = false;
  std::string_view intDigits;
  std::string_view fracDigits;
  std::int64_t exponent = 0;
};

bool splitNumber(std::string_view s, NumberParts* p) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    p->negative = true;
    ++i;
  }
  std::size_t start = i;
  while (i < s.size() && isDigit(s[i])) ++i;
  p->intDigits = s.substr(start, i - start);
  if (p->intDigits.empty()) return false;
  if (i < s.size() && s[i] == '.') {
    start = ++i;
    while (i < s.size() && isDigit(s[i])) ++i;
    p->fracDigits = s.substr(start, i - start);
    if (p->fracDigits.empty()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool expNegative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) expNegative = s[i++] == '-';
    start = i;
    std::int64_t e = 0;
    while (i < s.size() && isDigit(s[i])) {
      // Clamp: anything past 10^6 is out of range either way.
      if (e < 1000000) e = e * 10 + (s[i] - '0');
      ++i;
    }
    if (i == start) return false;
    p->exponent = expNegative ? -e : e;
  }
  return i == s.size();
}

// Digit k (0-based) of intDigits followed by fracDigits.
char digitAt(const NumberParts& p, std::size_t k) {
  return k < p.intDigits.size() ? p.intDigits[k] : p.fracDigits[k - p.intDigits.size()];
}

static_assert(std::endian::native == std::endian::little, "the digit words below are read little-endian");

// Whether the 8 bytes of `word` (as loaded, little-endian) are all digits.
bool eightDigits(std::uint64_t word) {
  return ((word & 0xF0F0F0F0F0F0F0F0ull) | (((word + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
         0x3333333333333333ull;
}

// The value of eight digits loaded as one word: pairs, then fours, then
// all eight, each step a multiply instead of eight dependent ones.
std::uint64_t valueOfEightDigits(std::uint64_t word) {
  word = (word & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
  word = (word & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
  return (word & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
}

// Kineto's "4472705146261.405": at most 15 integer digits and 3
// decimals, nothing else. Exact without any rounding; everything else
// takes the general path. A timestamp's first eight digits are read as one
// word (reading only inside `text`).
bool fastMicros(std::string_view text, TimeNs* out) {
  const char* p = text.data();
  const char* end = p + text.size();
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  const char* digitsStart = p;
  std::uint64_t v = 0;
  if (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    if (eightDigits(word)) {
      v = valueOfEightDigits(word);
      p += 8;
    }
  }
  while (p < end && isDigit(*p)) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  const auto intDigits = p - digitsStart;
  if (intDigits == 0 || intDigits > 15) return false;
  int decimals = 0;
  if (p < end && *p == '.') {
    ++p;
    while (p < end && isDigit(*p) && decimals < 3) {
      v = v * 10 + static_cast<unsigned>(*p++ - '0');
      ++decimals;
    }
    if (decimals == 0) return false;
  }
  if (p != end) return false;
  static constexpr std::uint64_t kScale[] = {1000, 100, 10, 1};
  v *= kScale[decimals];
  *out = negative ? -static_cast<TimeNs>(v) : static_cast<TimeNs>(v);
  return true;
}

}  // namespace

bool parseMicrosAsNanos(std::string_view text, TimeNs* out) {
  if (fastMicros(text, out)) return true;
  NumberParts p;
  if (!splitNumber(trim(text), &p)) return false;
  const std::size_t total = p.intDigits.size() + p.fracDigits.size();
  // value_ns = digits * 10^shift
  const std::int64_t shift = p.exponent + 3 - static_cast<std::int64_t>(p.fracDigits.size());
  // Leading zeros carry no value; skipping them keeps the digit count honest.
  std::size_t first = 0;
  while (first < total && digitAt(p, first) == '0') ++first;
  std::int64_t keep = static_cast<std::int64_t>(total);  // digits at or above the ns position
  if (shift < 0) keep += shift;
  constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t acc = 0;
  for (std::int64_t k = static_cast<std::int64_t>(first); k < keep; ++k) {
    unsigned d = static_cast<unsigned>(digitAt(p, static_cast<std::size_t>(k)) - '0');
    if (acc > (kMax - d) / 10) return false;
    acc = acc * 10 + d;
  }
  if (shift > 0 && acc != 0) {
    for (std::int64_t k = 0; k < shift; ++k) {
      if (acc > kMax / 10) return false;
      acc *= 10;
    }
  } else if (shift < 0 && keep >= 0 && static_cast<std::size_t>(keep) < total) {
    // Round half away from zero: the first dropped digit decides.
    if (digitAt(p, static_cast<std::size_t>(keep)) >= '5') {
      if (acc == kMax) return false;
      ++acc;
    }
  }
  *out = p.negative ? -static_cast<TimeNs>(acc) : static_cast<TimeNs>(acc);
  return true;
}

bool parseInt64(std::string_view text, std::int64_t* out) {
  // pids and tids: a few plain digits.
  if (!text.empty() && text.size() <= 18) {
    std::size_t i = text[0] == '-' ? 1 : 0;
    std::int64_t v = 0;
    std::size_t start = i;
    while (i < text.size() && isDigit(text[i])) v = v * 10 + (text[i++] - '0');
    if (i == text.size() && i > start) {
      *out = text[0] == '-' ? -v : v;
      return true;
    }
  }
  NumberParts p;
  if (!splitNumber(trim(text), &p) || !p.fracDigits.empty() || p.exponent != 0) return false;
  // Accumulate as a negative number so INT64_MIN fits.
  std::int64_t acc = 0;
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  for (char c : p.intDigits) {
    int d = c - '0';
    if (acc < (kMin + d) / 10) return false;
    acc = acc * 10 - d;
  }
  if (!p.negative) {
    if (acc == kMin) return false;
    acc = -acc;
  }
  *out = acc;
  return true;
}

bool parseUnsignedId(std::string_view text, std::uint64_t* out) {
  text = trim(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint64_t v = 0;
    for (char c : text.substr(2)) {
      unsigned d;
      if (isDigit(c)) d = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
      else return false;
      if (v >> 60) return false;
      v = v << 4 | d;
    }
    *out = v;
    return true;
  }
  std::int64_t signedValue = 0;
  if (!text.empty() && text[0] == '-') {
    if (!parseInt64(text, &signedValue)) return false;
    *out = static_cast<std::uint64_t>(signedValue);
    return true;
  }
  if (text.empty()) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    if (!isDigit(c)) return false;
    unsigned d = static_cast<unsigned>(c - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

}  // namespace gapscope::io
