// gapscope-cli report: a shareable hotspot report (html, md, json or csv).
#include <filesystem>
#include <memory>
#include <ostream>

#include "command.h"
#include "gapscope/compare/compare.h"
#include "gapscope/report/comparison_report.h"
#include "gapscope/report/report.h"
#include "load_trace.h"

namespace gapscope::cli {
namespace {

struct ReportArgs {
  std::string trace;
  std::string output;  // "" or "-": standard output
  report::ReportFormat format = report::ReportFormat::Html;
};

// --format wins; otherwise the output's extension; html by default.
std::optional<report::ReportFormat> chooseFormat(const Args& args, const std::string& output) {
  if (args.has("format")) {
    auto f = report::parseReportFormat(args.get("format"));
    if (!f) throw std::invalid_argument("--format expects html, md, json or csv, got '" + args.get("format") + "'");
    return f;
  }
  std::string ext = std::filesystem::path(output).extension().string();
  if (!ext.empty()) {
    if (auto f = report::parseReportFormat(ext.substr(1))) return f;
  }
  return report::ReportFormat::Html;
}

std::size_t countOption(const Args& args, const std::string& key, std::size_t fallback) {
  long long v = args.getInt(key, static_cast<long long>(fallback));
  if (v < 0) throw std::invalid_argument("--" + key + " expects a non-negative integer");
  return static_cast<std::size_t>(v);
}

// `report A --compare B`: the comparison report of the two runs.
int writeComparison(const Args& args, const ReportArgs& ra, const analysis::AnalysisOptions& analysisOptions,
                    std::ostream& out, std::ostream& err) {
  auto traces = loadTracePair(ra.trace, args.get("compare"), "report", err);
  if (!traces) return 1;
  const analysis::TraceAnalysis a(std::make_shared<const Trace>(std::move((*traces)[0])), analysisOptions);
  const analysis::TraceAnalysis b(std::make_shared<const Trace>(std::move((*traces)[1])), analysisOptions);
  report::ComparisonReportOptions options;
  options.humanRows = countOption(args, "top", options.humanRows);
  if (args.has("title")) options.title = args.get("title");
  const report::ComparisonReport r = report::buildComparisonReport(compare::compareTraces(a, b), options);
  if (ra.output.empty() || ra.output == "-") {
    switch (ra.format) {
      case report::ReportFormat::Html: out << report::renderComparisonHtml(r); break;
      case report::ReportFormat::Markdown: out << report::renderComparisonMarkdown(r); break;
      default: out << report::renderComparisonJson(r.comparison); break;
    }
    return 0;
  }
  const std::string error = report::writeComparisonReport(r, ra.format, ra.output);
  if (!error.empty()) {
    err << "gapscope-cli report: " << error << '\n';
    return 1;
  }
  out << "wrote " << ra.output << " (" << report::reportFormatName(ra.format) << "): " << r.comparison.verdict << '\n';
  return 0;
}

int runReport(const Args& args, std::ostream& out, std::ostream& err) {
  const std::string output = args.get("output");
  const auto& words = args.positional();
  if (words.size() != 1) {
    err << "gapscope-cli report: expected one TRACE argument, got " << words.size()
        << " (see gapscope-cli report --help)\n";
    return 2;
  }
  ReportArgs ra{words[0], output, *chooseFormat(args, output)};
  bool toStdout = ra.output.empty() || ra.output == "-";
  if (toStdout && ra.format == report::ReportFormat::Csv) {
    err << "gapscope-cli report: csv writes a folder; give one with -o PATH\n";
    return 2;
  }

  report::ReportOptions options;
  options.topOps = countOption(args, "top", options.topOps);
  options.topKernels = options.topOps;
  if (args.has("title")) options.title = args.get("title");
  analysis::AnalysisOptions analysisOptions;
  analysisOptions.gaps.minGapNs = static_cast<TimeNs>(args.getDouble("min-gap-us", 1.0) * 1000.0);

  if (args.has("compare")) return writeComparison(args, ra, analysisOptions, out, err);
  auto trace = loadTraceForCommand(ra.trace, "report", err);
  if (!trace) return 1;
  const analysis::TraceAnalysis analysis(std::make_shared<const Trace>(std::move(*trace)), analysisOptions);
  report::Report r = report::buildReport(analysis, options);

  if (toStdout) {
    switch (ra.format) {
      case report::ReportFormat::Html: out << report::renderHtml(r); break;
      case report::ReportFormat::Markdown: out << report::renderMarkdown(r); break;
      default: out << report::renderJson(r); break;
    }
    return 0;
  }
  std::string error = report::writeReport(r, ra.format, ra.output);
  if (!error.empty()) {
    err << "gapscope-cli report: " << error << '\n';
    return 1;
  }
  std::size_t triggered = 0;
  for (const auto& f : r.findings) triggered += !f.passed;
  out << "wrote " << ra.output << " (" << report::reportFormatName(ra.format) << "): " << triggered << " of "
      << r.findings.size() << " rules found something\n";
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("report",
                     "report TRACE [--compare B] [--format html|md|json|csv] [-o PATH] [--top N] [--min-gap-us US] [--title T]",
                     "hotspot report: verdict, findings with advice, top ops/kernels, worst gaps; "
                     "with --compare B the comparison of TRACE (A) and B instead (per-step bars, delta tables, "
                     "verdict); html/md/json to -o PATH or stdout, csv to a folder",
                     {}, runReport);

}  // namespace gapscope::cli
