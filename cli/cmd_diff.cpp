// gapscope-cli diff: two runs compared (before/after, eager vs compiled vs
// CUDA graph): per-step figures side by side, the kernels and operators
// that changed, and a verdict in words. docs/compare.md. Two directories
// of rank traces or ranks documents are two runs of a distributed job
// (diff_rank_sets.h); several recordings a side are split at "vs"
// (diff_recordings.h).
#include <filesystem>
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

void printTable(std::ostream& out, const report::Table& t, std::size_t rows) {
  out << '\n' << t.title << '\n';
  if (t.rows.empty()) {
    out << "(none)\n";
    return;
  }
  textTableOf(t, rows).print(out);
  const std::size_t shown = std::min(rows, t.rows.size());
  if (t.totalRows > shown) out << "(" << shown << " of " << t.totalRows << " rows; --limit N shows more)\n";
}

void printText(std::ostream& out, const report::ComparisonReport& r, std::size_t rows) {
  const compare::Comparison& c = r.comparison;
  for (std::size_t i = 0; i < 2; ++i) out << report::runLine(c, i) << '\n';
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

const char* jobRunKindName(RunKind kind) {
  return kind == RunKind::RankDirectory ? "a directory of rank traces" : "a ranks document";
}

// Runs of a distributed job (directories of rank traces or ranks
// documents) on both sides are compared as such; a run of a job beside a
// trace is refused.
std::optional<int> diffJobRuns(const Args& args, const DiffSides& sides, std::ostream& out, std::ostream& err) {
  std::array<std::vector<RankRunPath>, 2> jobRuns;
  std::array<const std::string*, 2> firstOf{};  // the first trace, the first run of a job
  RunKind jobKind = RunKind::RankDirectory;
  for (std::size_t side = 0; side < 2; ++side) {
    for (const std::string& path : side == 0 ? sides.a : sides.b) {
      const RunKind kind = runKind(path);
      if (kind == RunKind::Trace) {
        if (!firstOf[0]) firstOf[0] = &path;
        continue;
      }
      if (!firstOf[1]) {
        firstOf[1] = &path;
        jobKind = kind;
      }
      jobRuns[side].push_back({path, kind});
    }
  }
  if (!firstOf[1]) return std::nullopt;  // traces only
  if (!firstOf[0]) return diffRankSets(args, args.get("format", "text"), jobRuns, out, err);
  // A path that is not there is neither: named as the reader names it.
  for (std::size_t side = 0; side < 2; ++side) {
    for (const std::string& path : side == 0 ? sides.a : sides.b) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) continue;
      err << "gapscope-cli diff: run " << (side == 0 ? "A" : "B") << ": " << path
          << ": cannot open: No such file or directory\n";
      return 1;
    }
  }
  if (!sides.several()) {
    const bool runA = !jobRuns[0].empty();
    err << "gapscope-cli diff: run " << (runA ? "A" : "B") << " is " << jobRunKindName(jobKind) << " and run "
        << (runA ? "B" : "A")
        << " is a trace: give two traces, or two runs of a distributed job (directories of rank traces or "
           "`ranks --format json` documents)\n";
  } else {
    err << "gapscope-cli diff: " << *firstOf[1] << " is a run of a distributed job (" << jobRunKindName(jobKind)
        << ") and " << *firstOf[0]
        << " is a trace: give traces on both sides, or runs of a distributed job on both sides\n";
  }
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

int runDiff(const Args& args, std::ostream& out, std::ostream& err) {
  const std::optional<DiffSides> sides = diffSides(args.positional(), err);
  if (!sides) return 2;
  if (const std::optional<int> status = diffJobRuns(args, *sides, out, err)) return *status;
  const DiffFormat format = diffFormat(args);
  const std::size_t limit = limitOption(args);
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
                     "--table ranks, the default, or steps); several recordings a side, traces or runs of a job "
                     "alike, before and after `vs` (csv: --table recordings too)",
                     {"ops-by-name"}, runDiff);

}  // namespace gapscope::cli
