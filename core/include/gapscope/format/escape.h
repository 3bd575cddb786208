// Escaping of untrusted text (names and args from a trace file) for each
// output format. Every string that came from a trace goes through one of
// these before it reaches a report.
#pragma once

#include <string>
#include <string_view>

namespace gapscope::format {

// Valid UTF-8 with invalid bytes and C0/DEL control characters replaced
// (tab, CR and LF become spaces, the rest U+FFFD): what every text format
// needs before its own escaping.
std::string cleanText(std::string_view text);

// HTML text and attribute values: cleanText, then & < > " ' as character
// references.
std::string escapeHtml(std::string_view text);

// Markdown (GitHub flavour) inline text, also inside table cells: cleanText,
// then CommonMark backslash escapes for the punctuation that starts markup
// (\ ` * _ [ ] < > | ~ # ! &), so no name can open a link, an HTML tag, a
// code span or a new table cell.
std::string escapeMarkdown(std::string_view text);

// One CSV field (RFC 4180), as is: quoted when it holds a comma, quote, CR
// or LF, quotes doubled.
std::string csvQuote(std::string_view text);
// The same appended to `out` (no temporary string: outputs of millions of rows).
void appendCsvQuoted(std::string& out, std::string_view text);
// One CSV text field from a trace: cleanText that keeps newlines, a leading
// apostrophe when a spreadsheet would read it as a formula (starts with
// = + - or @, OWASP's CSV injection advice; the other one, a tab, is a
// space by then), then csvQuote. Numbers never go through this.
std::string csvText(std::string_view text);

}  // namespace gapscope::format
