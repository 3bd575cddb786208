#include "html_check.h"

#include <cctype>
#include <vector>

namespace gapscope::testing {
namespace {

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '_'; }

std::string at(std::size_t offset, const std::string& what) { return what + " at byte " + std::to_string(offset); }

// Checks the character references in text or an attribute value.
std::string checkText(std::string_view text, std::size_t base) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<') return at(base + i, "stray '<'");
    if (text[i] != '&') continue;
    std::size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 8) return at(base + i, "'&' without a reference");
    std::string_view ref = text.substr(i + 1, semi - i - 1);
    bool numeric = ref.size() > 1 && ref[0] == '#';
    for (std::size_t k = 1; numeric && k < ref.size(); ++k) numeric = std::isdigit(static_cast<unsigned char>(ref[k])) != 0;
    if (!numeric && ref != "amp" && ref != "lt" && ref != "gt" && ref != "quot" && ref != "apos")
      return at(base + i, "unknown reference &" + std::string(ref) + ";");
  }
  return "";
}

}  // namespace

std::string checkWellFormedHtml(std::string_view html) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  while (i < html.size()) {
    std::size_t lt = html.find('<', i);
    std::string_view text = html.substr(i, lt == std::string_view::npos ? std::string_view::npos : lt - i);
    if (open.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos)
      return at(i, "text outside the root element");
    if (auto e = checkText(text, i); !e.empty()) return e;
    if (lt == std::string_view::npos) break;
    i = lt;
    if (html.substr(i, 4) == "<!--") {
      std::size_t end = html.find("-->", i + 4);
      if (end == std::string_view::npos) return at(i, "unclosed comment");
      i = end + 3;
      continue;
    }
    if (html.substr(i, 9) == "<!DOCTYPE") {
      if (roots || !open.empty()) return at(i, "DOCTYPE after the root");
      std::size_t end = html.find('>', i);
      if (end == std::string_view::npos) return at(i, "unclosed DOCTYPE");
      i = end + 1;
      continue;
    }
    bool closing = html.substr(i, 2) == "</";
    std::size_t p = i + (closing ? 2 : 1);
    std::size_t nameStart = p;
    while (p < html.size() && isNameChar(html[p])) ++p;
    std::string name(html.substr(nameStart, p - nameStart));
    if (name.empty()) return at(i, "'<' not starting a tag");
    if (closing) {
      while (p < html.size() && std::isspace(static_cast<unsigned char>(html[p]))) ++p;
      if (p >= html.size() || html[p] != '>') return at(i, "malformed end tag </" + name);
      if (open.empty() || open.back() != name)
        return at(i, "</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">"));
      open.pop_back();
      i = p + 1;
      continue;
    }
    // Attributes: name="value" pairs, then '>' or '/>'.
    bool selfClosing = false;
    for (;;) {
      while (p < html.size() && std::isspace(static_cast<unsigned char>(html[p]))) ++p;
      if (p >= html.size()) return at(i, "unclosed tag <" + name);
      if (html[p] == '>') break;
      if (html.substr(p, 2) == "/>") {
        selfClosing = true;
        ++p;
        break;
      }
      std::size_t attrStart = p;
      while (p < html.size() && isNameChar(html[p])) ++p;
      if (p == attrStart) return at(p, "bad character in tag <" + name);
      if (p >= html.size() || html[p] != '=' || p + 1 >= html.size() || html[p + 1] != '"')
        return at(attrStart, "attribute without a quoted value in <" + name);
      std::size_t valueEnd = html.find('"', p + 2);
      if (valueEnd == std::string_view::npos) return at(p, "unclosed attribute value");
      if (auto e = checkText(html.substr(p + 2, valueEnd - p - 2), p + 2); !e.empty()) return e;
      p = valueEnd + 1;
    }
    i = p + 1;
    if (open.empty()) ++roots;
    if (roots > 1) return at(nameStart, "a second root element <" + name + ">");
    if (selfClosing) continue;
    if (name == "style") {  // raw text up to </style>
      std::size_t end = html.find("</style>", i);
      if (end == std::string_view::npos) return at(i, "unclosed <style>");
      if (html.substr(i, end - i).find('<') != std::string_view::npos) return at(i, "'<' inside <style>");
      i = end + 8;
      continue;
    }
    open.push_back(name);
  }
  if (!open.empty()) return "unclosed <" + open.back() + "> at the end";
  if (roots != 1) return "no root element";
  return "";
}

}  // namespace gapscope::testing
