// Escaping of untrusted text (names and args from a trace file) for each
// output format. Every string that came from a trace goes through one of
// these before it reaches a report.
#pragma once

#include <string>
#include <string_view>

namespace gapscope::report {

// Valid UTF-8 with invalid bytes and C0/DEL control characters replaced
// (tab, CR and LF become spaces, the rest U+FFFD): what every text format
// needs before its own escaping.
std::string cleanText(std::string_view text);

// HTML text and attribute values: & < > " ' as character references.
std::string escapeHtml(std::string_view text);

// Markdown (GitHub flavour) inline text, also inside table cells: CommonMark
// backslash escapes for the punctuation that starts markup (\ ` * _ [ ] < >
// | ~ # ! &), so no name can open a link, an HTML tag, a code span or a new
// table cell.
std::string escapeMarkdown(std::string_view text);

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF,
// quotes doubled. Text fields that a spreadsheet would read as a formula
// (starting with = + - @ or a tab) get a leading apostrophe (OWASP's CSV
// injection advice); numbers are never prefixed.
std::string csvText(std::string_view text);
std::string csvQuote(std::string_view text);

}  // namespace gapscope::report
