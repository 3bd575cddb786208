// Line and column of a byte offset, counted from the text as it streams
// past: the reader never opens or reads its input a second time to place
// an error (a pipe could not be read again).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace gapscope::io {

struct LineColumn {
  std::uint64_t line = 1;
  std::uint64_t column = 1;  // 1-based, in bytes
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
    const char* stop = text.data() + (end - begin);
    while (const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(stop - p))) {
      ++line_;
      p = static_cast<const char*>(nl) + 1;
      lineStart_ = begin + static_cast<std::uint64_t>(p - text.data());
    }
    counted_ = end;
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
