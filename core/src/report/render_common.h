// Internal: what the human formats (html, md) share: cell text, bucket
// labels, the cause palette, and the order of sections.
#pragma once

#include <string>

#include "gapscope/report/report.h"

namespace gapscope::report {

// A cell as a human reads it, before format escaping: durations with a unit,
// percentages with one decimal, unknown as "-", abbreviated kernel names.
std::string humanCell(const Column& column, const Cell& cell);
// The full text of a text cell ("" for other kinds); tooltips use it.
std::string fullText(const Cell& cell);
// "1-2 µs", ">= 10 ms", "< 0" for a histogram bucket.
std::string bucketLabel(TimeNs minNs, TimeNs maxNs);
// Fill colour of an idle cause in charts and legends.
const char* causeColor(analysis::GapCause cause);
// A Unicode block sparkline (▁..█) of 0..100 values, resampled to `width` characters.
std::string sparkline(const std::vector<double>& pct, std::size_t width);

// Tables in the order the human formats show them, grouped by heading.
struct Section {
  const char* heading;
  std::vector<const Table*> tables;
};
std::vector<Section> tableSections(const Report& report);

}  // namespace gapscope::report
