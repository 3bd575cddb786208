// The JSON report: every value, with the fixed field names of
// docs/reports.md. Durations are microseconds (exact: ns / 1000), chart
// times count from the start of the trace.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "gapscope/format/number.h"
#include "gapscope/report/report.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {

using json = nlohmann::ordered_json;  // fields in the documented order

constexpr int kFormatVersion = 1;

const char* columnKindName(ColumnKind k) {
  switch (k) {
    case ColumnKind::Text: return "text";
    case ColumnKind::Integer: return "integer";
    case ColumnKind::Duration: return "duration_us";
    case ColumnKind::Bytes: return "bytes";
    case ColumnKind::Percent: return "percent";
    case ColumnKind::Number: return "number";
  }
  return "text";
}

double round2(double v) { return std::isfinite(v) ? std::round(v * 100.0) / 100.0 : 0.0; }

json cellJson(const Column& column, const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return nullptr;
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell))
    return column.kind == ColumnKind::Duration ? json(format::usNumber(*i)) : json(*i);
  double v = std::get<double>(cell);
  return column.kind == ColumnKind::Percent ? round2(v) : (std::isfinite(v) ? v : 0.0);
}

}  // namespace

nlohmann::ordered_json tableJson(const Table& t) {
  json columns = json::array();
  for (const Column& c : t.columns)
    columns.push_back({{"id", c.id}, {"header", c.header}, {"kind", columnKindName(c.kind)}});
  json rows = json::array();
  for (const auto& row : t.rows) {
    json r = json::object();
    for (std::size_t i = 0; i < t.columns.size() && i < row.size(); ++i) r[t.columns[i].id] = cellJson(t.columns[i], row[i]);
    rows.push_back(std::move(r));
  }
  return {{"title", t.title}, {"note", t.note},        {"total_rows", t.totalRows},
          {"columns", columns}, {"rows", std::move(rows)}};
}

namespace {

json bound(TimeNs ns, bool unbounded) { return unbounded ? json(nullptr) : json(format::usNumber(ns)); }

json traceJson(const TraceInfo& t) {
  json devices = json::array();
  for (const DeviceInfo& d : t.devices)
    devices.push_back({{"id", d.id},
                       {"name", d.name},
                       {"sms", d.numSms},
                       {"compute_capability", std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor)},
                       {"memory_bytes", d.totalGlobalMem}});
  json issues = json::array();
  for (const ImportIssue& i : t.issues)
    issues.push_back({{"name", i.name},
                      {"class", issueClassName(i)},
                      {"severity", severityName(i.severity)},
                      {"count", i.count},
                      {"first_offset", i.firstOffset},
                      {"description", i.description}});
  return {{"source", t.source},       {"source_bytes", t.sourceBytes}, {"devices", devices},
          {"start_us", format::usNumber(t.start)},
          {"end_us", format::usNumber(t.end)},
          {"span_us", format::usNumber(t.span())},
          {"steps", t.steps},          {"events", t.events},            {"slices", t.slices},
          {"kernels", t.kernels},      {"memcpys", t.memcpys},          {"memsets", t.memsets},
          {"import_problems", problemCount(t.issues)},
          {"import_issues", issues}};
}

json chartsJson(const Report& r) {
  const TimeNs origin = r.trace.start;
  json utilization = json::array();
  for (const auto& s : r.charts.utilization) {
    json busy = json::array();
    for (double v : s.busyPct) busy.push_back(round2(v));
    utilization.push_back({{"device", s.device},
                           {"offset_us", format::usNumber(s.start - origin)},
                           {"bin_us", format::usNumber(s.binNs)},
                           {"busy_pct", busy}});
  }
  json steps = json::array();
  for (const auto& s : r.charts.steps)
    steps.push_back({{"name", s.name},
                     {"offset_us", format::usNumber(s.start - origin)},
                     {"end_offset_us", format::usNumber(s.end - origin)}});
  json gaps = json::array();
  for (const auto& b : r.charts.gapHistogram) {
    json byCause = json::object();
    json idleByCause = json::object();
    for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
      const char* cause = analysis::gapCauseName(static_cast<analysis::GapCause>(c));
      byCause[cause] = b.count[c];
      idleByCause[cause] = format::usNumber(b.idleNs[c]);
    }
    gaps.push_back({{"min_us", format::usNumber(b.minNs)},
                    {"max_us", bound(b.maxNs, b.maxNs < 0)},
                    {"count", b.total()},
                    {"by_cause", byCause},
                    {"total_us", format::usNumber(b.totalNs)},
                    {"idle_us_by_cause", idleByCause}});
  }
  auto distribution = [](const std::vector<DistributionBucket>& buckets) {
    json out = json::array();
    for (const auto& b : buckets)
      out.push_back({{"min_us", bound(b.minNs, b.minNs == std::numeric_limits<TimeNs>::min())},
                     {"max_us", bound(b.maxNs, b.maxNs < 0)},
                     {"count", b.count}});
    return out;
  };
  return {{"utilization", utilization},
          {"steps", steps},
          {"gap_histogram", gaps},
          {"launch_histogram", distribution(r.charts.launchHistogram)},
          {"queue_histogram", distribution(r.charts.queueHistogram)}};
}

json findingJson(const Finding& f) {
  return {{"id", f.id},
          {"title", f.title},
          {"passed", f.passed},
          {"threshold", f.threshold},
          {"summary", f.summary},
          {"advice", f.advice},
          {"estimated_saving_us", format::usNumber(f.estimatedSavingNs)},
          {"evidence", f.passed ? json(nullptr) : tableJson(f.evidence)}};
}

}  // namespace

std::string renderJson(const Report& r) {
  json tables = json::object();
  for (const Table& t : r.tables) tables[t.id] = tableJson(t);
  json findings = json::array();
  for (const Finding& f : r.findings) findings.push_back(findingJson(f));
  json doc = {{"format", "gapscope-report"},
              {"format_version", kFormatVersion},
              {"generator", r.generator},
              {"title", r.title},
              {"trace", traceJson(r.trace)},
              {"has_gpu_activity", r.hasGpuActivity},
              {"no_gpu_reason", r.noGpuReason},
              {"verdict",
               {{"kind", r.verdict.kind},
                {"line", r.verdict.line},
                {"utilization_pct", round2(r.verdict.utilizationPct)},
                {"over_steps", r.verdict.overSteps},
                {"estimated_saving_us", format::usNumber(r.verdict.estimatedSavingNs)}}},
              {"launches",
               {{"count", r.launches.count},
                {"unmatched", r.launches.unmatched},
                {"short_kernels", r.launches.shortKernels},
                {"outliers", r.launches.outliers}}},
              {"findings", findings},
              {"tables", tables},
              {"charts", chartsJson(r)},
              {"notes", r.notes}};
  // Trace strings need not be valid UTF-8: replace bad bytes rather than throw.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace gapscope::report
