// Exact, byte-by-byte helpers over JSON text, for the places where the fast
// parser cannot be used or trusted: the top-level object around
// traceEvents, the speculative chunk cuts, and precise error messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gapscope::io {

inline bool isJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::size_t skipSpaces(std::string_view text, std::size_t pos);

// Where the JSON value starting at `pos` ends (one past its last byte).
// Tracks strings, escapes and bracket depth only; it does not validate
// (checkJsonValue does). `complete` is false when the text ends first.
struct ValueExtent {
  bool complete = false;
  std::size_t end = 0;
};
ValueExtent scanValueEnd(std::string_view text, std::size_t pos);

// A plausible boundary between two top-level events: the index of a ','
// whose previous non-space byte is '}' and next non-space byte is '{'.
// Searched backwards from `end`; npos when there is none. Only a guess:
// the same bytes can sit inside a string or nested args; the reader
// verifies every cut by parsing (see chunk_pipeline.cpp).
std::size_t findEventSeparatorBackward(std::string_view text, std::size_t end);

// Strict validation of one JSON value, for error messages.
struct JsonCheck {
  enum class Status { Ok, Error, EndOfInput };
  Status status = Status::Ok;
  std::size_t pos = 0;    // Ok: one past the value; otherwise: where it failed
  std::string message;    // Error: "expected ..., found ..."
};
JsonCheck checkJsonValue(std::string_view text, std::size_t pos);

// "found 'x'" / "found the end of the input" / "found byte 0x07", for messages.
std::string describeFound(std::string_view text, std::size_t pos);

// Unescapes the body of a JSON string (between its quotes). False on a bad escape.
bool unescapeJsonString(std::string_view body, std::string* out);

}  // namespace gapscope::io
