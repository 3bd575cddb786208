#include "report/text_escape.h"

#include <cstdint>

namespace gapscope::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at text[i], or 0 when invalid
// (overlong forms, surrogates and code points above U+10FFFF included).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  std::uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string cleanText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t len = utf8SequenceLength(text, i);
    if (len == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    char c = text[i];
    if (len == 1 && (c == '\t' || c == '\n' || c == '\r')) {
      out += ' ';
    } else if (len == 1 && (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)) {
      out += kReplacement;
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string escapeHtml(std::string_view text) {
  std::string clean = cleanText(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escapeMarkdown(std::string_view text) {
  static constexpr std::string_view kSpecial = "\\`*_[]<>|~#!&";
  std::string clean = cleanText(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 4);
  for (char c : clean) {
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string csvQuote(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csvText(std::string_view text) {
  // CSV keeps newlines (quoted) but still gets valid UTF-8 without other controls.
  std::string clean;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t nl = text.find('\n', start);
    std::size_t stop = nl == std::string_view::npos ? text.size() : nl;
    clean += cleanText(text.substr(start, stop - start));
    if (nl == std::string_view::npos) break;
    clean += '\n';
    start = nl + 1;
  }
  if (!clean.empty() && std::string_view("=+-@\t").find(clean.front()) != std::string_view::npos)
    clean.insert(clean.begin(), '\'');
  return csvQuote(clean);
}

}  // namespace gapscope::report
