// Strict JSON (RFC 8259) checking of one value fed piece by piece, for text
// that must not be held whole or scanned twice: the top level around
// traceEvents (a member can be gigabytes) and an event bigger than the
// reader's window. Every byte is looked at once whatever the pieces, so a
// value of any size is checked in linear time, and in memory bounded by its
// nesting (at most kMaxJsonDepth levels).
//
// It accepts exactly what checkJsonValue (json_text.h) accepts and reports
// the same messages; json_stream_test.cpp checks both on the same inputs,
// split at every position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope::io {

inline constexpr std::size_t kMaxJsonDepth = std::size_t{1} << 20;

class JsonValueStream {
 public:
  struct Result {
    enum class Status { NeedMore, Done, Error };
    Status status = Status::NeedMore;
    // Done: index in the piece one past the value (a number ends at the
    // byte after it, which is not consumed). Error: index of the fault.
    std::size_t pos = 0;
    std::string message;  // Error: "expected ..., found ..."
  };

  // Feeds the next piece of text, which continues the value (or starts it:
  // leading white space is skipped). After Done or Error, call reset()
  // before feeding another value.
  Result feed(std::string_view piece);
  void reset();

 private:
  enum class Mode : std::uint8_t {
    Value,            // a value is expected
    FirstInArray,     // just after '[': a value or ']'
    FirstInObject,    // just after '{': a key or '}'
    Key,              // after ',' in an object: a key
    Colon,            // after a key
    AfterValue,       // after a value inside a container: ',' or the close
    String,           // inside a string (key or value)
    Escape,           // after a backslash
    Hex,              // inside \uXXXX
    NumMinus,         // after '-'
    NumZero,          // after a leading 0
    NumInt,           // integer digits
    NumDot,           // after '.'
    NumFrac,          // fraction digits
    NumExp,           // after 'e'
    NumExpSign,       // after 'e+' or 'e-'
    NumExpDigits,     // exponent digits
    Literal,          // inside true / false / null
  };

  // A value just ended at piece index `next`: Done when it was the whole value.
  bool valueEnded();
  Result error(std::string_view piece, std::size_t i, const std::string& what);

  Mode mode_ = Mode::Value;
  bool stringIsKey_ = false;
  int hexLeft_ = 0;
  const char* literal_ = nullptr;  // the rest of the literal still expected
  std::vector<char> stack_;        // '{' or '['
};

}  // namespace gapscope::io
