#include "gapscope/format/escape.h"

namespace gapscope::format {

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

namespace {

// find_first_of with a four-character set calls memchr once per character
// of the text; kernel names run to hundreds of characters, millions of times.
bool needsCsvQuotes(std::string_view text) {
  for (char c : text) {
    if (c == ',' || c == '"' || c == '\r' || c == '\n') return true;
  }
  return false;
}

}  // namespace

void appendCsvQuoted(std::string& out, std::string_view text) {
  if (!needsCsvQuotes(text)) {
    out.append(text.data(), text.size());
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string csvQuote(std::string_view text) {
  std::string out;
  appendCsvQuoted(out, text);
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
  if (!clean.empty() && std::string_view("=+-@").find(clean.front()) != std::string_view::npos)
    clean.insert(clean.begin(), '\'');
  return csvQuote(clean);
}

}  // namespace gapscope::format
