// Reading one stretch of the events array and deciding what it was: the
// fast parse's verdict (interpretFast), and the exact walk for stretches
// the fast parse could not read (see the comment in chunk_pipeline.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "event_parser.h"

namespace gapscope::io {

// Where in the events array a stretch of text starts.
enum class StretchStart {
  FirstInArray,  // right after the '[': an event or the ']'
  AfterComma,    // after a ',': an event
  AfterEvent,    // right after an event: ',' or ']'
};

// What the merger decided about one stretch of text.
struct Segment {
  enum class Kind { CutOk, ArrayEnd, BadCut, Truncated, Malformed };
  Kind kind = Kind::CutOk;
  // ArrayEnd: the ']'; BadCut: start of the carried text (an incomplete
  // event, or the end of the text); Malformed: the fault.
  std::size_t pos = 0;
  StretchStart carryStart = StretchStart::AfterComma;  // BadCut: where the carried text starts
  std::string message;
  std::size_t lastCompleteEnd = 0;  // Truncated: end of the last whole event in this text (0: none)
  std::vector<std::unique_ptr<ChunkOutput>> outputs;
};

// How many bytes of a chunk buffer to parse: up to the cut's ',' (which
// becomes ']'), or for the last chunk up to its last ']' -- simdjson's
// on-demand root array must end the document (3.0.1 checks the last
// structural), and the text after the events array is read separately.
std::size_t lengthToParse(const char* data, std::size_t textLen, std::size_t commaAt);

// A successful fast parse: the cut was right (the array closed at our ']'),
// or the events array itself ended inside the stretch.
Segment interpretFast(const FastParse& fast, std::size_t commaAt);

class SegmentReader {
 public:
  using NewOutput = std::function<std::unique_ptr<ChunkOutput>()>;
  explicit SegmentReader(NewOutput newOutput) : newOutput_(std::move(newOutput)) {}

  // Fast parse of text that is not in a chunk buffer, then the exact walk
  // if needed. `commaAt`: the cut's ',' (npos: the text was not cut).
  Segment parseText(std::string_view text, std::uint64_t begin, std::size_t commaAt, bool last, StretchStart start);
  // Exact walk over the elements: finds real JSON errors, truncation, and
  // wrong cuts. Text that is not the last and does not end after a ','
  // (a chunk with no cut) ends in a BadCut that carries what follows.
  Segment walkExactly(std::string_view text, std::uint64_t begin, bool last, StretchStart start);
  std::uint64_t walks() const { return walks_; }

 private:
  struct Span {
    std::size_t b, e;
  };
  void parseElements(std::string_view text, std::uint64_t begin, const std::vector<Span>& elements, Segment& seg);

  NewOutput newOutput_;
  EventParser parser_;
  std::uint64_t walks_ = 0;
};

}  // namespace gapscope::io
