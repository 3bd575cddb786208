// Internal: what the report formats share: bucket labels, the cause
// palette, the order of sections, and one renderer of a table per format.
// (cellText, the text of a cell, is public: report.h.)
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gapscope/format/escape.h"
#include "gapscope/report/report.h"

namespace gapscope::report {

// The full text of a text cell ("" for other kinds); tooltips use it.
std::string fullText(const Cell& cell);
// "1-2 µs", ">= 10 ms", "< 0" for a histogram bucket.
std::string bucketLabel(TimeNs minNs, TimeNs maxNs);
// Fill colour of an idle cause in charts and legends.
const char* causeColor(analysis::GapCause cause);
// A Unicode block sparkline (▁..█) of 0..100 values, resampled to `width` characters.
std::string sparkline(const std::vector<double>& pct, std::size_t width);

// One table in each format, shared by every report that shows tables.
extern const char* const kHtmlStyle;  // the HTML reports' style sheet
// <!DOCTYPE ...> up to <body>, with the style sheet and a CSP that forbids scripts.
void htmlHead(std::string& out, const std::string& title, const std::string& generator);
void htmlTable(std::string& out, const Table& t);
void htmlTableWithHeading(std::string& out, const Table& t);  // <h3>, the note, the table
void markdownTable(std::string& out, const Table& t);
nlohmann::ordered_json tableJson(const Table& t);

// Tables in the order the human formats show them, grouped by heading.
struct Section {
  const char* heading;
  std::vector<const Table*> tables;
};
std::vector<Section> tableSections(const Report& report);

// Text escaped for the HTML and Markdown renderers (report and comparison).
inline std::string h(std::string_view text) { return format::escapeHtml(text); }
inline std::string md(std::string_view text) { return format::escapeMarkdown(text); }

}  // namespace gapscope::report
