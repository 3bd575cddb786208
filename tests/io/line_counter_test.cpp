// LineCounter (line:column of an error, counted as the text streams past)
// against a byte-by-byte walk of the same text.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "line_counter.h"

namespace {

using gapscope::io::ChunkLines;
using gapscope::io::countNewlines;
using gapscope::io::countNewlinesByWords;
using gapscope::io::LineColumn;
using gapscope::io::LineCounter;

LineColumn walk(const std::string& text, std::uint64_t offset) {
  LineColumn at;
  for (std::uint64_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

std::string randomText(std::mt19937& rng, std::size_t size) {
  // Newlines, bytes one bit away from '\n' (0x0b, 0x08, 0x8a) and others.
  static const char kBytes[] = "\n\x0b\x08\x8a{}\":, a\n";
  const std::string alphabet(kBytes, sizeof kBytes - 1);
  std::string text(size, ' ');
  for (char& c : text) c = alphabet[rng() % alphabet.size()];
  return text;
}

TEST(LineCounter, CountsNewlinesLikeAByteWalk) {
  std::mt19937 rng(7);
  for (std::size_t size = 0; size < 200; ++size) {
    const std::string text = randomText(rng, size);
    for (std::size_t from = 0; from <= std::min<std::size_t>(size, 9); ++from) {
      std::uint64_t expected = 0;
      for (std::size_t i = from; i < size; ++i) expected += text[i] == '\n';
      EXPECT_EQ(countNewlines(text.data() + from, size - from), expected) << size << " from " << from;
    }
  }
}

// Past 255 blocks of sixteen bytes the vector counters are summed and
// restarted: text made only of newlines would wrap a counter that was not.
TEST(LineCounter, CountsLongRunsOfNewlinesExactly) {
  std::mt19937 rng(5);
  for (std::size_t size : {4079u, 4080u, 4081u, 4095u, 4096u, 8160u, 8161u, 65536u, 100003u}) {
    const std::string newlines(size, '\n');
    EXPECT_EQ(countNewlines(newlines.data(), size), size) << size;
    const std::string text = randomText(rng, size);
    std::uint64_t expected = 0;
    for (char c : text) expected += c == '\n';
    EXPECT_EQ(countNewlines(text.data(), size), expected) << size;
    EXPECT_EQ(countNewlinesByWords(text.data(), size), expected) << size;
  }
}

// Pieces counted by advance() and, in odd rounds, by skipCounted().
TEST(LineCounter, PlacesOffsetsFedInPiecesLikeAByteWalk) {
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    const std::string text = randomText(rng, 1 + rng() % 3000);
    LineCounter lines;
    std::uint64_t begin = 0;
    while (begin < text.size()) {
      const std::uint64_t piece = std::min<std::uint64_t>(1 + rng() % 300, text.size() - begin);
      const std::string_view view(text.data() + begin, piece);
      const std::uint64_t offset = begin + rng() % piece;
      const LineColumn at = lines.at(view, begin, offset);
      const LineColumn expected = walk(text, offset);
      EXPECT_EQ(at.line, expected.line) << "offset " << offset;
      EXPECT_EQ(at.column, expected.column) << "offset " << offset;
      // Every other piece with its newlines counted ahead (as a parser
      // thread counts a chunk's): the same places either way.
      if (round % 2) lines.skipCounted(view, begin, ChunkLines::count(view));
      else lines.advance(view, begin, begin + piece);
      begin += piece;
    }
  }
}

}  // namespace
