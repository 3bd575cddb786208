#include "json_stream.h"

#include <cstring>

#include "json_text.h"

namespace gapscope::io {

namespace {

bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return isAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

void JsonValueStream::reset() {
  mode_ = Mode::Value;
  stringIsKey_ = false;
  hexLeft_ = 0;
  literal_ = nullptr;
  stack_.clear();
}

JsonValueStream::Result JsonValueStream::error(std::string_view piece, std::size_t i, const std::string& what) {
  return {Result::Status::Error, i, what + ", " + describeFound(piece, i)};
}

bool JsonValueStream::valueEnded() {
  mode_ = Mode::AfterValue;
  return stack_.empty();
}

JsonValueStream::Result JsonValueStream::feed(std::string_view piece) {
  const char* t = piece.data();
  const std::size_t n = piece.size();
  std::size_t i = 0;
  auto done = [](std::size_t pos) { return Result{Result::Status::Done, pos, {}}; };
  while (i < n) {
    const char c = t[i];
    switch (mode_) {
      case Mode::FirstInArray:
        if (isJsonSpace(c)) break;
        if (c == ']') {
          stack_.pop_back();
          if (valueEnded()) return done(i + 1);
          break;
        }
        mode_ = Mode::Value;
        continue;  // the same byte starts the first element
      case Mode::Value:
        if (isJsonSpace(c)) break;
        if (c == '{' || c == '[') {
          if (stack_.size() >= kMaxJsonDepth) {
            return error(piece, i, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
          }
          stack_.push_back(c);
          mode_ = c == '{' ? Mode::FirstInObject : Mode::FirstInArray;
        } else if (c == '"') {
          stringIsKey_ = false;
          mode_ = Mode::String;
        } else if (c == '-') {
          mode_ = Mode::NumMinus;
        } else if (c == '0') {
          mode_ = Mode::NumZero;
        } else if (isAsciiDigit(c)) {
          mode_ = Mode::NumInt;
        } else if (c == 't' || c == 'f' || c == 'n') {
          literal_ = c == 't' ? "rue" : c == 'f' ? "alse" : "ull";
          mode_ = Mode::Literal;
        } else {
          return error(piece, i, "expected a value");
        }
        break;
      case Mode::FirstInObject:
      case Mode::Key:
        if (isJsonSpace(c)) break;
        if (c == '}' && mode_ == Mode::FirstInObject) {
          stack_.pop_back();
          if (valueEnded()) return done(i + 1);
          break;
        }
        if (c != '"') return error(piece, i, "expected '\"' to start an object key");
        stringIsKey_ = true;
        mode_ = Mode::String;
        break;
      case Mode::Colon:
        if (isJsonSpace(c)) break;
        if (c != ':') return error(piece, i, "expected ':' after an object key");
        mode_ = Mode::Value;
        break;
      case Mode::AfterValue: {
        if (isJsonSpace(c)) break;
        const bool object = stack_.back() == '{';
        if (c == ',') {
          mode_ = object ? Mode::Key : Mode::Value;
        } else if (c == (object ? '}' : ']')) {
          stack_.pop_back();
          if (valueEnded()) return done(i + 1);
        } else {
          return error(piece, i, object ? "expected ',' or '}' after an object member"
                                        : "expected ',' or ']' after an array element");
        }
        break;
      }
      case Mode::String: {
        // Most bytes of a string are plain: skip them in a tight loop.
        while (i < n) {
          const unsigned char u = static_cast<unsigned char>(t[i]);
          if (u == '"' || u == '\\' || u < 0x20) break;
          ++i;
        }
        if (i == n) return {};
        const unsigned char u = static_cast<unsigned char>(t[i]);
        if (u < 0x20) return error(piece, i, "unescaped control character in a string");
        if (u == '\\') {
          mode_ = Mode::Escape;
        } else if (stringIsKey_) {
          mode_ = Mode::Colon;
        } else if (valueEnded()) {
          return done(i + 1);
        }
        break;
      }
      case Mode::Escape:
        if (c == 'u') {
          hexLeft_ = 4;
          mode_ = Mode::Hex;
        } else if (c != '\0' && std::strchr("\"\\/bfnrt", c)) {
          mode_ = Mode::String;
        } else {
          return error(piece, i, "invalid escape sequence in a string");
        }
        break;
      case Mode::Hex:
        if (!isHex(c)) return error(piece, i, "expected 4 hex digits after \\u");
        if (--hexLeft_ == 0) mode_ = Mode::String;
        break;
      case Mode::NumMinus:
        if (c == '0') mode_ = Mode::NumZero;
        else if (isAsciiDigit(c)) mode_ = Mode::NumInt;
        else return error(piece, i, "expected a digit in a number");
        break;
      case Mode::NumInt:
        if (isAsciiDigit(c)) break;
        [[fallthrough]];
      case Mode::NumZero:
        if (c == '.') {
          mode_ = Mode::NumDot;
        } else if (c == 'e' || c == 'E') {
          mode_ = Mode::NumExp;
        } else {
          if (valueEnded()) return done(i);
          continue;  // the byte after the number is read as what follows a value
        }
        break;
      case Mode::NumDot:
        if (!isAsciiDigit(c)) return error(piece, i, "expected a digit in a number");
        mode_ = Mode::NumFrac;
        break;
      case Mode::NumFrac:
        if (isAsciiDigit(c)) break;
        if (c == 'e' || c == 'E') {
          mode_ = Mode::NumExp;
          break;
        }
        if (valueEnded()) return done(i);
        continue;
      case Mode::NumExp:
        if (c == '+' || c == '-') {
          mode_ = Mode::NumExpSign;
          break;
        }
        [[fallthrough]];
      case Mode::NumExpSign:
        if (!isAsciiDigit(c)) return error(piece, i, "expected a digit in a number");
        mode_ = Mode::NumExpDigits;
        break;
      case Mode::NumExpDigits:
        if (isAsciiDigit(c)) break;
        if (valueEnded()) return done(i);
        continue;
      case Mode::Literal:
        if (c != *literal_) return error(piece, i, "invalid literal (expected true, false or null)");
        if (*++literal_ == '\0' && valueEnded()) return done(i + 1);
        break;
    }
    ++i;
  }
  return {};
}

}  // namespace gapscope::io
