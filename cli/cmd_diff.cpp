// gapscope-cli diff: two runs compared (before/after, eager vs compiled vs
// CUDA graph): per-step figures side by side, the kernels and operators
// that changed, and a verdict in words. docs/compare.md. Two directories
// of rank traces or ranks documents are two runs of a distributed job
// (diff_rank_sets.h).
#include <limits>
#include <memory>
#include <optional>
#include <ostream>

#include "command.h"
#include "gapscope/compare/compare.h"
#include "gapscope/report/comparison_report.h"
#include "diff_rank_sets.h"
#include "diff_recordings.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using report::Column;
using report::ColumnKind;

enum class DiffFormat { Text, Json, Csv, Markdown };

DiffFormat diffFormat(const Args& args) {
  const std::string f = args.get("format", "text");
  if (f == "text") return DiffFormat::Text;
  if (f == "json") return DiffFormat::Json;
  if (f == "csv") return DiffFormat::Csv;
  if (f == "md" || f == "markdown") return DiffFormat::Markdown;
  throw std::invalid_argument("--format expects text, json, csv or md, got '" + f + "'");
}

// Rows per table in text (and md) unless --limit says otherwise.
constexpr std::size_t kTextRows = 20;

// A cell in the CLI's text style (PyTorch's table units, as the other commands print).
std::string textCell(const Column& column, const report::Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "-";
  if (const auto* s = std::get_if<std::string>(&cell)) return column.abbreviate ? report::kernelLabel(*s, 70) : *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell))
    return column.kind == ColumnKind::Duration ? format::formatDuration(*i, kTableTime) : std::to_string(*i);
  const double v = std::get<double>(cell);
  return column.kind == ColumnKind::Percent ? format::formatPercent(v, kTablePercent) : format::formatNumber(v, 2);
}

void printTable(std::ostream& out, const report::Table& t, std::size_t rows) {
  out << '\n' << t.title << '\n';
  TextTable table;
  for (const Column& c : t.columns)
    table.addColumn(c.header, c.kind == ColumnKind::Text ? TextTable::Align::Left : TextTable::Align::Right,
                    c.kind == ColumnKind::Text ? 70 : 0);
  for (std::size_t r = 0; r < t.rows.size() && r < rows; ++r) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      cells.push_back(i < t.rows[r].size() ? textCell(t.columns[i], t.rows[r][i]) : "-");
    table.addRow(std::move(cells));
  }
  if (t.rows.empty()) {
    out << "(none)\n";
    return;
  }
  table.print(out);
  const std::size_t shown = std::min(rows, t.rows.size());
  if (t.totalRows > shown) out << "(" << shown << " of " << t.totalRows << " rows; --limit N shows more)\n";
}

void printText(std::ostream& out, const report::ComparisonReport& r, std::size_t rows) {
  const compare::Comparison& c = r.comparison;
  for (std::size_t i = 0; i < 2; ++i) {
    const compare::RunFigures& run = c.runs[i];
    out << (i == 0 ? "A: " : "B: ") << run.file << " (" << run.producer;
    for (const auto& d : run.devices) out << ", " << d;
    out << ")";
    if (const std::size_t n = c.recordings[i].size(); n > 1) out << ", the middle of " << n << " recordings";
    out << "\n";
  }
  out << "Verdict: " << c.verdict << '\n';
  for (const auto& w : c.warnings) out << "Warning: " << w << '\n';
  for (const report::Table& t : r.tables) printTable(out, t, rows);
}

int printCsv(std::ostream& out, std::ostream& err, const report::ComparisonReport& r, const std::string& id) {
  for (const auto& [name, content] : report::renderComparisonCsv(r)) {
    if (name == id + ".csv") {
      out << content;
      return 0;
    }
  }
  err << "gapscope-cli diff: --table expects runs, idle_per_step, kernels, kernel_groups, ops or (several "
         "recordings a side) recordings, got '" << id
      << "'\n";
  return 2;
}

// Two runs of a distributed job (directories of rank traces or ranks
// documents) are compared as such; a run beside a trace is refused.
int diffRankRuns(const Args& args, const std::vector<std::string>& paths, RunKind kindA, RunKind kindB,
                 std::ostream& out, std::ostream& err) {
  if (kindA != RunKind::Trace && kindB != RunKind::Trace)
    return diffRankSets(args, args.get("format", "text"), {paths[0], kindA}, {paths[1], kindB}, out, err);
  const bool runA = kindA != RunKind::Trace;
  err << "gapscope-cli diff: run " << (runA ? "A" : "B") << " is "
      << ((runA ? kindA : kindB) == RunKind::RankDirectory ? "a directory of rank traces" : "a ranks document")
      << " and run " << (runA ? "B" : "A")
      << " is a trace: give two traces, or two runs of a distributed job (directories of rank traces or "
         "`ranks --format json` documents)\n";
  return 2;
}

// One recording a side: both read at once and compared.
std::optional<compare::Comparison> compareOneEach(const DiffSides& sides, const analysis::AnalysisOptions& options,
                                                  const compare::CompareOptions& compareOptions, std::ostream& err) {
  auto traces = loadTracePair(sides.a[0], sides.b[0], "diff", err);
  if (!traces) return std::nullopt;
  const analysis::TraceAnalysis a(std::make_shared<const Trace>(std::move((*traces)[0])), options);
  const analysis::TraceAnalysis b(std::make_shared<const Trace>(std::move((*traces)[1])), options);
  return compare::compareTraces(a, b, compareOptions);
}

// Several recordings a side are traces: runs of a distributed job are
// compared one directory or document a side.
bool refuseJobRuns(const DiffSides& sides, std::ostream& err) {
  for (const auto* side : {&sides.a, &sides.b})
    for (const std::string& path : *side)
      if (runKind(path) != RunKind::Trace) {
        err << "gapscope-cli diff: " << path << " is a run of a distributed job ("
            << (runKind(path) == RunKind::RankDirectory ? "a directory of rank traces" : "a ranks document")
            << "): several recordings a side are traces of one process; compare runs of a job one a side, "
               "diff RUN_A RUN_B\n";
        return false;
      }
  return true;
}

int runDiff(const Args& args, std::ostream& out, std::ostream& err) {
  if (const auto& paths = args.positional(); paths.size() == 2) {
    const RunKind kindA = runKind(paths[0]);
    const RunKind kindB = runKind(paths[1]);
    if (kindA != RunKind::Trace || kindB != RunKind::Trace) return diffRankRuns(args, paths, kindA, kindB, out, err);
  }
  const DiffFormat format = diffFormat(args);
  const std::size_t limit = limitOption(args);
  const std::optional<DiffSides> sides = diffSides(args.positional(), err);
  if (!sides) return 2;
  if (sides->several() && !refuseJobRuns(*sides, err)) return 2;
  analysis::AnalysisOptions options;
  options.gaps.minGapNs = static_cast<TimeNs>(args.getDouble("min-gap-us", 1.0) * 1000.0);
  if (options.gaps.minGapNs < 0) throw std::invalid_argument("--min-gap-us expects a non-negative number");
  compare::CompareOptions compareOptions;
  compareOptions.opsByShapes = !args.has("ops-by-name");

  std::optional<compare::Comparison> compared = sides->several()
                                                    ? compareRecordedSides(*sides, options, compareOptions, err)
                                                    : compareOneEach(*sides, options, compareOptions, err);
  if (!compared) return 1;
  compare::Comparison& c = *compared;
  if (format == DiffFormat::Json) {
    out << report::renderComparisonJson(c, limit);
    return 0;
  }
  report::ComparisonReportOptions reportOptions;
  const std::size_t rows = args.has("limit") ? limit : kTextRows;
  reportOptions.humanRows = rows;
  if (format == DiffFormat::Csv) reportOptions.rowLimit = limit;
  const report::ComparisonReport r = report::buildComparisonReport(std::move(c), reportOptions);
  switch (format) {
    case DiffFormat::Text: printText(out, r, rows); break;
    case DiffFormat::Markdown: out << report::renderComparisonMarkdown(r); break;
    case DiffFormat::Csv: return printCsv(out, err, r, args.get("table", "kernels"));
    case DiffFormat::Json: break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("diff",
                     "diff A B [--format text|json|csv|md] [--limit N] [--table T] [--min-gap-us US] [--ops-by-name] "
                     "| diff A1 A2 ... vs B1 B2 ... [the same options] "
                     "| diff RUN_A RUN_B [--format text|json|csv|md] [--limit N] [--table ranks|steps] "
                     "[--memory-budget SIZE] [--threads N]",
                     "compare two runs (A before, B after): per-step time, GPU busy, kernels and launches per "
                     "step, idle by cause, the kernels and operators that changed, and a verdict; csv writes "
                     "one table (--table runs|idle_per_step|kernels|kernel_groups|ops|recordings, default "
                     "kernels); each side recorded several times (the files before `vs` and after it): the "
                     "middle recording of each compared in full, the recordings' median step times tested "
                     "against the run-to-run spread; two "
                     "runs of a distributed job (RUN: a directory of rank traces or a `ranks --format json` "
                     "document): the job's step time, the stragglers, each rank and step side by side (csv: "
                     "--table ranks, the default, or steps)",
                     {"ops-by-name"}, runDiff);

}  // namespace gapscope::cli
