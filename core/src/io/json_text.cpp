#include "json_text.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace gapscope::io {

std::size_t skipSpaces(std::string_view text, std::size_t pos) {
  while (pos < text.size() && isJsonSpace(text[pos])) ++pos;
  return pos;
}

namespace {

// One past the closing quote of the string whose opening quote is at `pos`,
// or npos when the text ends inside it.
std::size_t stringEnd(std::string_view text, std::size_t pos) {
  const char* p = text.data() + pos + 1;
  const char* end = text.data() + text.size();
  while (p < end) {
    // Strings are mostly plain bytes: jump to the next quote, then check
    // whether backslashes before it escape it.
    const void* q = std::memchr(p, '"', static_cast<std::size_t>(end - p));
    if (!q) return std::string_view::npos;
    const char* quote = static_cast<const char*>(q);
    std::size_t backslashes = 0;
    for (const char* b = quote; b > text.data() + pos + 1 && b[-1] == '\\'; --b) ++backslashes;
    if (backslashes % 2 == 0) return static_cast<std::size_t>(quote - text.data()) + 1;
    p = quote + 1;
  }
  return std::string_view::npos;
}

bool isScalarDelimiter(char c) {
  return isJsonSpace(c) || c == ',' || c == ']' || c == '}' || c == ':';
}

}  // namespace

ValueExtent scanValueEnd(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return {false, text.size()};
  char c = text[pos];
  if (c == '"') {
    std::size_t e = stringEnd(text, pos);
    return e == std::string_view::npos ? ValueExtent{false, text.size()} : ValueExtent{true, e};
  }
  if (c != '{' && c != '[') {
    std::size_t i = pos;
    while (i < text.size() && !isScalarDelimiter(text[i])) ++i;
    // A scalar running into the end of the text may be cut short.
    return {i < text.size(), i};
  }
  std::size_t depth = 0;
  std::size_t i = pos;
  while (i < text.size()) {
    char ch = text[i];
    if (ch == '"') {
      std::size_t e = stringEnd(text, i);
      if (e == std::string_view::npos) return {false, text.size()};
      i = e;
      continue;
    }
    if (ch == '{' || ch == '[') {
      ++depth;
    } else if (ch == '}' || ch == ']') {
      if (--depth == 0) return {true, i + 1};
    }
    ++i;
  }
  return {false, text.size()};
}

std::size_t findEventSeparatorBackward(std::string_view text, std::size_t end) {
  std::size_t i = std::min(end, text.size());
  while (i > 0) {
    const void* found = memrchr(text.data(), '{', i);
    if (!found) return std::string_view::npos;
    std::size_t brace = static_cast<std::size_t>(static_cast<const char*>(found) - text.data());
    i = brace;
    std::size_t j = brace;
    while (j > 0 && isJsonSpace(text[j - 1])) --j;
    if (j == 0 || text[j - 1] != ',') continue;
    std::size_t comma = j - 1;
    std::size_t k = comma;
    while (k > 0 && isJsonSpace(text[k - 1])) --k;
    if (k > 0 && text[k - 1] == '}') return comma;
  }
  return std::string_view::npos;
}

std::string describeFound(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return "found the end of the input";
  unsigned char c = static_cast<unsigned char>(text[pos]);
  char buf[32];
  if (c >= 0x20 && c < 0x7f) {
    std::snprintf(buf, sizeof buf, "found '%c'", c);
  } else {
    std::snprintf(buf, sizeof buf, "found byte 0x%02x", c);
  }
  return buf;
}

namespace {

// Strict JSON (RFC 8259) checker with an explicit stack, so deeply nested
// input cannot overflow the call stack.
class Checker {
 public:
  explicit Checker(std::string_view text) : t_(text) {}

  JsonCheck run(std::size_t pos) {
    p_ = pos;
    std::vector<char> stack;  // '{' or '['
    enum class Want { Value, AfterValue } want = Want::Value;
    while (true) {
      if (want == Want::AfterValue && stack.empty()) return {JsonCheck::Status::Ok, p_, {}};
      p_ = skipSpaces(t_, p_);
      if (want == Want::Value) {
        if (atEnd()) return endOfInput();
        char c = t_[p_];
        if (c == '{') {
          ++p_;
          p_ = skipSpaces(t_, p_);
          if (atEnd()) return endOfInput();
          if (t_[p_] == '}') {
            ++p_;
            want = Want::AfterValue;
            continue;
          }
          stack.push_back('{');
          if (!member()) return result_;
          continue;  // want a value
        }
        if (c == '[') {
          ++p_;
          p_ = skipSpaces(t_, p_);
          if (atEnd()) return endOfInput();
          if (t_[p_] == ']') {
            ++p_;
            want = Want::AfterValue;
            continue;
          }
          stack.push_back('[');
          continue;
        }
        if (!scalar()) return result_;
        want = Want::AfterValue;
        continue;
      }
      // After a value: close containers or separate.
      if (atEnd()) return endOfInput();
      char c = t_[p_];
      if (stack.back() == '{') {
        if (c == ',') {
          ++p_;
          p_ = skipSpaces(t_, p_);
          if (!member()) return result_;
          want = Want::Value;
        } else if (c == '}') {
          ++p_;
          stack.pop_back();
        } else {
          return error("expected ',' or '}' after an object member");
        }
      } else {
        if (c == ',') {
          ++p_;
          want = Want::Value;
        } else if (c == ']') {
          ++p_;
          stack.pop_back();
        } else {
          return error("expected ',' or ']' after an array element");
        }
      }
    }
  }

 private:
  bool atEnd() const { return p_ >= t_.size(); }
  JsonCheck endOfInput() { return {JsonCheck::Status::EndOfInput, t_.size(), "unexpected end of input"}; }
  JsonCheck error(const std::string& what) {
    return {JsonCheck::Status::Error, p_, what + ", " + describeFound(t_, p_)};
  }
  bool fail(JsonCheck r) {
    result_ = std::move(r);
    return false;
  }

  // A key, its ':' and the spaces before the value.
  bool member() {
    if (atEnd()) return fail(endOfInput());
    if (t_[p_] != '"') return fail(error("expected '\"' to start an object key"));
    if (!string()) return false;
    p_ = skipSpaces(t_, p_);
    if (atEnd()) return fail(endOfInput());
    if (t_[p_] != ':') return fail(error("expected ':' after an object key"));
    ++p_;
    return true;
  }

  bool scalar() {
    char c = t_[p_];
    if (c == '"') return string();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    return fail(error("expected a value"));
  }

  bool literal(std::string_view word) {
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (p_ + i >= t_.size()) return fail(endOfInput());
      if (t_[p_ + i] != word[i]) {
        p_ += i;
        return fail(error("invalid literal (expected true, false or null)"));
      }
    }
    p_ += word.size();
    return true;
  }

  bool digits() {
    std::size_t start = p_;
    while (!atEnd() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
    if (p_ > start) return true;
    return atEnd() ? fail(endOfInput()) : fail(error("expected a digit in a number"));
  }

  bool number() {
    if (t_[p_] == '-') ++p_;
    if (atEnd()) return fail(endOfInput());
    if (t_[p_] == '0') {
      ++p_;
    } else if (!digits()) {
      return false;
    }
    if (!atEnd() && t_[p_] == '.') {
      ++p_;
      if (!digits()) return false;
    }
    if (!atEnd() && (t_[p_] == 'e' || t_[p_] == 'E')) {
      ++p_;
      if (!atEnd() && (t_[p_] == '+' || t_[p_] == '-')) ++p_;
      if (!digits()) return false;
    }
    // A number running into the end of the input may have been cut.
    if (atEnd()) return fail(endOfInput());
    return true;
  }

  bool string() {
    ++p_;  // opening quote
    while (true) {
      if (atEnd()) return fail(endOfInput());
      unsigned char c = static_cast<unsigned char>(t_[p_]);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20) return fail(error("unescaped control character in a string"));
      if (c != '\\') {
        ++p_;
        continue;
      }
      ++p_;
      if (atEnd()) return fail(endOfInput());
      char e = t_[p_];
      if (e == 'u') {
        for (int i = 1; i <= 4; ++i) {
          if (p_ + i >= t_.size()) return fail(endOfInput());
          char h = t_[p_ + i];
          bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
          if (!hex) {
            p_ += i;
            return fail(error("expected 4 hex digits after \\u"));
          }
        }
        p_ += 5;
      } else if (std::strchr("\"\\/bfnrt", e) && e != '\0') {
        ++p_;
      } else {
        return fail(error("invalid escape sequence in a string"));
      }
    }
  }

  std::string_view t_;
  std::size_t p_ = 0;
  JsonCheck result_;
};

void appendUtf8(std::string* out, unsigned cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool hex4(std::string_view s, std::size_t i, unsigned* v) {
  if (i + 4 > s.size()) return false;
  *v = 0;
  for (std::size_t k = i; k < i + 4; ++k) {
    char h = s[k];
    unsigned d;
    if (h >= '0' && h <= '9') d = static_cast<unsigned>(h - '0');
    else if (h >= 'a' && h <= 'f') d = static_cast<unsigned>(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F') d = static_cast<unsigned>(h - 'A' + 10);
    else return false;
    *v = *v << 4 | d;
  }
  return true;
}

}  // namespace

JsonCheck checkJsonValue(std::string_view text, std::size_t pos) { return Checker(text).run(pos); }

bool unescapeJsonString(std::string_view body, std::string* out) {
  out->clear();
  out->reserve(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= body.size()) return false;
    switch (body[i]) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case '/': out->push_back('/'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        unsigned cp;
        if (!hex4(body, i + 1, &cp)) return false;
        i += 4;
        // A surrogate pair spells one code point above U+FFFF.
        if (cp >= 0xD800 && cp < 0xDC00 && i + 2 < body.size() && body[i + 1] == '\\' &&
            body[i + 2] == 'u') {
          unsigned low;
          if (hex4(body, i + 3, &low) && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          }
        }
        appendUtf8(out, cp);
        break;
      }
      default: return false;
    }
  }
  return true;
}

}  // namespace gapscope::io
