// The comparison of two runs as a shareable document: the verdict, the
// per-step figures of both runs side by side (with a bar chart in HTML),
// and the delta tables (kernels, kernel groups, operators), in the same
// formats as the hotspot report: html (self-contained), md, json, csv.
//
// The tables are built once here and every format shows the same columns;
// json is the comparison itself, with the field names of docs/compare.md
// (`gapscope-cli diff --format json` writes the same document).
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gapscope/compare/compare.h"
#include "gapscope/report/report.h"

namespace gapscope::report {

struct ComparisonReportOptions {
  // Rows per delta table in html, md and text; json and csv keep every row
  // unless rowLimit is set lower.
  std::size_t humanRows = 30;
  std::size_t rowLimit = std::numeric_limits<std::size_t>::max();
  std::string title;  // empty: "gapscope comparison: <A> vs <B>"
};

struct ComparisonReport {
  std::string title;
  std::string generator;  // "gapscope 0.1.0"
  compare::Comparison comparison;
  // ids: "recordings" (several recordings a side only: one row per
  // recording), "runs" (one row per run), "idle_per_step" (one row per
  // cause), "kernels", "kernel_groups", "ops"; rows cut to rowLimit.
  std::vector<Table> tables;
  std::size_t humanRows = 30;

  const Table* table(std::string_view id) const;
};

// Several recordings a side: a row per recording (run, file as given,
// steps, median step time, typical), the run-to-run test in its note; the
// same table for traces and for runs of a job.
Table recordingsTable(const std::array<std::vector<compare::Recording>, 2>& recordings,
                      const compare::StepSpreadTest& runToRun);

ComparisonReport buildComparisonReport(compare::Comparison comparison, const ComparisonReportOptions& options = {});

// The documented JSON (docs/compare.md); `rowLimit` cuts the kernels,
// kernel_groups and ops arrays (their totals stay in "rows").
std::string renderComparisonJson(const compare::Comparison& comparison,
                                 std::size_t rowLimit = std::numeric_limits<std::size_t>::max());
// "A: before.json (PyTorch profiler (Kineto), NVIDIA H100 80GB HBM3)",
// ", the middle of 4 recordings" after it with several recordings a side.
std::string runLine(const compare::Comparison& comparison, std::size_t side);

std::string renderComparisonHtml(const ComparisonReport& report);
std::string renderComparisonMarkdown(const ComparisonReport& report);
// One CSV document per table: ("kernels.csv", ...).
std::vector<std::pair<std::string, std::string>> renderComparisonCsv(const ComparisonReport& report);

// Writes atomically, as writeReport() does (csv: `path` is a folder).
// Returns "" on success, else what failed.
std::string writeComparisonReport(const ComparisonReport& report, ReportFormat format, const std::string& path);

}  // namespace gapscope::report
