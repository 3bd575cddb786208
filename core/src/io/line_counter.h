// Line and column of a byte offset, counted from the text as it streams
// past: the reader never opens or reads its input a second time to place
// an error (a pipe could not be read again).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace gapscope::io {

struct LineColumn {
  std::uint64_t line = 1;
  std::uint64_t column = 1;  // 1-based, in bytes
};

// Newlines in [p, p + n), eight bytes at a time (a memchr call per line
// cost 5 % of a load of pretty-printed JSON, on the merger's thread).
inline std::uint64_t countNewlinesByWords(const char* p, std::size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  std::uint64_t count = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    const std::uint64_t x = word ^ (kOnes * '\n');  // a newline byte becomes 0
    // The high bit of each byte that is 0, exactly (no borrow between bytes).
    const std::uint64_t zeroBytes = ~(((x & kLow7) + kLow7) | x | kLow7);
    // One bit per byte moved to the byte's low bit; the multiply sums the
    // bytes into the top one (popcount is a libgcc call without -mpopcnt).
    count += ((zeroBytes >> 7) * kOnes) >> 56;
  }
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

#if defined(__SSE2__) && defined(__x86_64__)
// Sixteen bytes at a time where SSE2 is there (every x86-64): each
// comparison adds one to a byte's counter per newline, and the sixteen
// counters are summed before any can pass 255. Still 5 % of the load's
// CPU eight bytes at a time; this is a few times fewer instructions.
inline std::uint64_t countNewlines(const char* p, std::size_t n) {
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i zero = _mm_setzero_si128();
  std::uint64_t count = 0;
  std::size_t i = 0;
  while (i + 16 <= n) {
    const std::size_t blocks = std::min<std::size_t>((n - i) / 16, 255);
    __m128i counters = zero;
    for (std::size_t b = 0; b < blocks; ++b, i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      counters = _mm_sub_epi8(counters, _mm_cmpeq_epi8(bytes, newline));  // a match is -1
    }
    const __m128i sums = _mm_sad_epu8(counters, zero);  // two 64-bit sums of eight bytes
    count += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  return count + countNewlinesByWords(p + i, n - i);
}
#else
inline std::uint64_t countNewlines(const char* p, std::size_t n) { return countNewlinesByWords(p, n); }
#endif

// The newlines of a whole piece of text, counted ahead (on another thread)
// for LineCounter::skipCounted.
struct ChunkLines {
  bool counted = false;
  std::uint64_t newlines = 0;
  std::size_t afterLastNewline = 0;  // index just past the last newline (0: none)

  static ChunkLines count(std::string_view text) {
    ChunkLines c;
    c.counted = true;
    c.newlines = countNewlines(text.data(), text.size());
    if (const void* last = memrchr(text.data(), '\n', text.size()))
      c.afterLastNewline = static_cast<std::size_t>(static_cast<const char*>(last) + 1 - text.data());
    return c;
  }
};

class LineCounter {
 public:
  // Counts the lines of `text` (whose first byte is at stream offset
  // `begin`) from where counting stands up to offset `upTo`. Bytes before
  // the counted point are skipped; the text must reach it.
  void advance(std::string_view text, std::uint64_t begin, std::uint64_t upTo) {
    if (upTo <= counted_ || counted_ < begin) return;
    const std::uint64_t end = std::min<std::uint64_t>(upTo, begin + text.size());
    const char* p = text.data() + (counted_ - begin);
    const std::size_t n = static_cast<std::size_t>(end - counted_);
    if (const void* last = memrchr(p, '\n', n)) {
      line_ += countNewlines(p, n);
      lineStart_ = begin + static_cast<std::uint64_t>(static_cast<const char*>(last) + 1 - text.data());
    }
    counted_ = end;
  }

  // advance(text, begin, begin + text.size()) with the newlines counted
  // ahead; where counting does not stand at `begin`, counts as advance does.
  void skipCounted(std::string_view text, std::uint64_t begin, const ChunkLines& lines) {
    if (counted_ != begin) {
      advance(text, begin, begin + text.size());
      return;
    }
    line_ += lines.newlines;
    if (lines.newlines) lineStart_ = begin + lines.afterLastNewline;
    counted_ = begin + text.size();
  }

  // Line and column of `offset` (at or after the counted point, inside `text`).
  LineColumn at(std::string_view text, std::uint64_t begin, std::uint64_t offset) const {
    LineCounter c = *this;
    c.advance(text, begin, offset);
    return {c.line_, offset >= c.lineStart_ ? offset - c.lineStart_ + 1 : 1};
  }

 private:
  std::uint64_t counted_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t lineStart_ = 0;
};

}  // namespace gapscope::io
