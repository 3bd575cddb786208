// The CSV report: one file per table (header row = the JSON field names),
// plus summary.csv, findings.csv, one finding_<rule>.csv per triggered rule
// and the chart data. Durations are exact decimal microseconds.
#include <limits>

#include "gapscope/format/escape.h"
#include "gapscope/format/number.h"
#include "gapscope/report/report.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {

std::string csvCell(const Column& column, const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "";
  if (const auto* s = std::get_if<std::string>(&cell)) return format::csvText(*s);
  if (const auto* i = std::get_if<std::int64_t>(&cell))
    return column.kind == ColumnKind::Duration ? format::exactUs(*i) : std::to_string(*i);
  return format::formatNumber(std::get<double>(cell), column.kind == ColumnKind::Percent ? 2 : 6);
}

void appendRow(std::string& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
  out += "\r\n";  // RFC 4180 line ends
}

}  // namespace

std::string tableCsv(const Table& t) {
  std::string out;
  std::vector<std::string> header;
  for (const Column& c : t.columns) header.push_back(c.id);
  appendRow(out, header);
  for (const auto& row : t.rows) {
    std::vector<std::string> fields;
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      fields.push_back(i < row.size() ? csvCell(t.columns[i], row[i]) : "");
    appendRow(out, fields);
  }
  return out;
}

namespace {

std::string summaryCsv(const Report& r) {
  std::string out;
  appendRow(out, {"key", "value"});
  auto kv = [&](const char* key, const std::string& value) { appendRow(out, {key, format::csvText(value)}); };
  kv("title", r.title);
  kv("generator", r.generator);
  kv("source", r.trace.source);
  kv("source_bytes", std::to_string(r.trace.sourceBytes));
  kv("start_us", format::exactUs(r.trace.start));
  kv("span_us", format::exactUs(r.trace.span()));
  kv("steps", std::to_string(r.trace.steps));
  kv("events", std::to_string(r.trace.events));
  kv("kernels", std::to_string(r.trace.kernels));
  kv("memcpys", std::to_string(r.trace.memcpys));
  kv("memsets", std::to_string(r.trace.memsets));
  kv("has_gpu_activity", r.hasGpuActivity ? "true" : "false");
  kv("verdict_kind", r.verdict.kind);
  kv("verdict", r.verdict.line);
  kv("utilization_pct", format::formatNumber(r.verdict.utilizationPct, 2));
  kv("utilization_over_steps", r.verdict.overSteps ? "true" : "false");
  kv("estimated_saving_us", format::exactUs(r.verdict.estimatedSavingNs));
  kv("launches", std::to_string(r.launches.count));
  kv("launches_unmatched", std::to_string(r.launches.unmatched));
  kv("short_kernels", std::to_string(r.launches.shortKernels));
  kv("launch_outliers", std::to_string(r.launches.outliers));
  return out;
}

std::string findingsCsv(const Report& r) {
  std::string out;
  appendRow(out, {"id", "title", "passed", "threshold", "summary", "estimated_saving_us", "advice"});
  for (const Finding& f : r.findings) {
    std::string advice;
    for (const auto& a : f.advice) advice += (advice.empty() ? "" : "\n") + a;
    appendRow(out, {f.id, format::csvText(f.title), f.passed ? "true" : "false", format::csvText(f.threshold),
                    format::csvText(f.summary), format::exactUs(f.estimatedSavingNs), format::csvText(advice)});
  }
  return out;
}

std::string utilizationCsv(const Report& r) {
  std::string out;
  appendRow(out, {"device", "offset_us", "bin_us", "busy_pct"});
  for (const auto& s : r.charts.utilization)
    for (std::size_t i = 0; i < s.busyPct.size(); ++i)
      appendRow(out, {std::to_string(s.device),
                      format::exactUs(s.start - r.trace.start + static_cast<TimeNs>(i) * s.binNs),
                      format::exactUs(s.binNs), format::formatNumber(s.busyPct[i], 2)});
  return out;
}

std::string gapHistogramCsv(const Report& r) {
  std::string out;
  std::vector<std::string> header{"min_us", "max_us", "count"};
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
    header.push_back(analysis::gapCauseName(static_cast<analysis::GapCause>(c)));
  header.push_back("total_us");
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
    header.push_back(std::string(analysis::gapCauseName(static_cast<analysis::GapCause>(c))) + "_us");
  appendRow(out, header);
  for (const auto& b : r.charts.gapHistogram) {
    std::vector<std::string> row{format::exactUs(b.minNs), b.maxNs < 0 ? "" : format::exactUs(b.maxNs),
                                 std::to_string(b.total())};
    for (auto n : b.count) row.push_back(std::to_string(n));
    row.push_back(format::exactUs(b.totalNs));
    for (TimeNs ns : b.idleNs) row.push_back(format::exactUs(ns));
    appendRow(out, row);
  }
  return out;
}

std::string distributionCsv(const std::vector<DistributionBucket>& buckets) {
  std::string out;
  appendRow(out, {"min_us", "max_us", "count"});
  for (const auto& b : buckets)
    appendRow(out, {b.minNs == std::numeric_limits<TimeNs>::min() ? "" : format::exactUs(b.minNs),
                    b.maxNs < 0 ? "" : format::exactUs(b.maxNs), std::to_string(b.count)});
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> renderCsv(const Report& r) {
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("summary.csv", summaryCsv(r));
  files.emplace_back("findings.csv", findingsCsv(r));
  for (const Finding& f : r.findings)
    if (!f.passed) files.emplace_back("finding_" + f.id + ".csv", tableCsv(f.evidence));
  for (const Table& t : r.tables) files.emplace_back(t.id + ".csv", tableCsv(t));
  files.emplace_back("utilization_timeline.csv", utilizationCsv(r));
  files.emplace_back("gap_histogram.csv", gapHistogramCsv(r));
  files.emplace_back("launch_histogram.csv", distributionCsv(r.charts.launchHistogram));
  files.emplace_back("queue_histogram.csv", distributionCsv(r.charts.queueHistogram));
  return files;
}

}  // namespace gapscope::report
