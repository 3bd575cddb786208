// The HTML report: one self-contained file. Inline CSS and SVG only; no
// script, no external font or image, and a Content-Security-Policy that
// forbids them anyway, so even a name that slipped through escaping could
// not run. Every trace string goes through format::escapeHtml(). The markup is
// well-formed (every element closed, void elements self-closed) so a strict
// parser can check it.
#include <filesystem>

#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/format/number.h"
#include "gapscope/report/report.h"
#include "report/html_charts.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {


}  // namespace

const char* const kHtmlStyle = R"CSS(
:root { --fg: #1d232a; --muted: #5c6670; --line: #d8dde2; --bad: #c0392b; --ok: #2e7d32; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--fg); margin: 0 auto; padding: 24px 32px 48px; max-width: 1180px; line-height: 1.45; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 8px; word-break: break-all; }
h2 { font-size: 18px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
p { margin: 6px 0; }
.meta { color: var(--muted); }
.verdict { font-size: 16px; font-weight: 600; padding: 10px 14px; border-radius: 6px; background: var(--bg2);
           border-left: 5px solid var(--muted); }
.verdict.launch_overhead_bound, .verdict.synchronization_bound, .verdict.unexplained_idle, .verdict.queue_bound { border-left-color: var(--bad); }
.verdict.gpu_bound { border-left-color: var(--ok); }
.note { color: var(--muted); font-size: 13px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0 4px; font-size: 12.5px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: var(--bg2); font-weight: 600; white-space: nowrap; }
td.n, th.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.k { font-family: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12px; overflow-wrap: anywhere; min-width: 11em; }
.finding { border: 1px solid var(--line); border-left: 5px solid var(--bad); border-radius: 6px; padding: 8px 16px 10px; margin: 14px 0; }
.finding h3 { margin-top: 6px; }
.rule { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; color: var(--muted); font-weight: normal; }
.saving { font-weight: 600; }
.advice { margin: 6px 0 2px; padding-left: 20px; }
.advice li { margin: 3px 0; }
.passed td:first-child { color: var(--ok); font-weight: 600; }
.kv th { text-align: left; background: none; color: var(--muted); font-weight: normal; }
.chart { max-width: 100%; height: auto; display: block; margin: 8px 0; }
.chart text { font-size: 11px; fill: var(--fg); }
.chart .tick { fill: var(--muted); font-size: 10px; }
.chart .small { font-size: 9px; }
.chart .lbl { font-size: 12px; }
.chart .step { stroke: #7a8591; stroke-dasharray: 3 3; stroke-width: 1; }
.chart .axis { stroke: #7a8591; stroke-width: 1; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.charts-row { display: flex; flex-wrap: wrap; gap: 16px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print {
  body { padding: 0; max-width: none; font-size: 11px; }
  h2 { break-after: avoid; }
  .finding, .chart, tr { break-inside: avoid; }
  .scroll { overflow: visible; }
  table { font-size: 10px; }
}
)CSS";

namespace {
bool isNumeric(ColumnKind k) { return k != ColumnKind::Text; }
}  // namespace

void htmlTable(std::string& out, const Table& t) {
  if (t.rows.empty()) {
    out += "<p class=\"note\">None.</p>\n";
    return;
  }
  out += "<div class=\"scroll\"><table id=\"t-" + h(t.id) + "\"><thead><tr>";
  for (const Column& c : t.columns)
    out += std::string("<th") + (isNumeric(c.kind) ? " class=\"n\"" : "") + ">" + h(c.header) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      const Column& c = t.columns[i];
      Cell cell = i < row.size() ? row[i] : Cell{};
      std::string shown = h(cellText(c, cell));
      if (isNumeric(c.kind)) {
        out += "<td class=\"n\">" + shown + "</td>";
      } else if (c.abbreviate && !fullText(cell).empty()) {
        out += "<td class=\"k\"><span title=\"" + h(fullText(cell)) + "\">" + shown + "</span></td>";
      } else {
        out += "<td>" + shown + "</td>";
      }
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (t.totalRows > t.rows.size())
    out += "<p class=\"note\">" + std::to_string(t.rows.size()) + " of " + std::to_string(t.totalRows) +
           " rows shown.</p>\n";
}

void htmlTableWithHeading(std::string& out, const Table& t) {
  out += "<h3>" + h(t.title) + "</h3>\n";
  if (!t.note.empty()) out += "<p class=\"note\">" + h(t.note) + "</p>\n";
  htmlTable(out, t);
}

void htmlHead(std::string& out, const std::string& title, const std::string& generator) {
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\"/>\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  out += "<meta name=\"generator\" content=\"" + h(generator) + "\"/>\n";
  out += "<title>" + h(title) + "</title>\n<style>" + std::string(kHtmlStyle) + "</style>\n</head>\n<body>\n";
}

namespace {

void header(std::string& out, const Report& r) {
  out += "<header>\n<h1>" + h(r.title) + "</h1>\n";
  if (r.hasGpuActivity) {
    out += "<p class=\"verdict " + h(r.verdict.kind) + "\">" + h(r.verdict.line) + "</p>\n";
  } else {
    out += "<p class=\"verdict\">" + h(r.noGpuReason.empty() ? std::string("no GPU activity") : r.noGpuReason) + "</p>\n";
  }
  std::size_t triggered = 0;
  for (const Finding& f : r.findings) triggered += !f.passed;
  std::string utilization =
      r.hasGpuActivity ? "GPU utilisation " + format::formatPercent(r.verdict.utilizationPct) +
                             (r.verdict.overSteps ? " in its steps" : "")
                       : "no GPU work";
  out += "<p class=\"meta\">" + std::to_string(triggered) + " of " + std::to_string(r.findings.size()) +
         " rules found something; " + h(utilization) + " over a span of " + h(format::formatDuration(r.trace.span())) +
         ".</p>\n</header>\n";
}

void findings(std::string& out, const Report& r) {
  out += "<section id=\"findings\">\n<h2>Findings</h2>\n";
  for (const Finding& f : r.findings) {
    if (f.passed) continue;
    out += "<div class=\"finding\" id=\"rule-" + h(f.id) + "\">\n<h3>" + h(f.title) + " <span class=\"rule\">" +
           h(f.id) + "</span></h3>\n<p>" + h(f.summary) + "</p>\n";
    if (f.estimatedSavingNs > 0)
      out += "<p class=\"saving\">Could save up to " + h(format::formatDuration(f.estimatedSavingNs)) + ".</p>\n";
    out += "<p class=\"note\">Rule: " + h(f.threshold) + ".</p>\n";
    htmlTable(out, f.evidence);
    out += "<ul class=\"advice\">\n";
    for (const auto& a : f.advice) out += "<li>" + h(a) + "</li>\n";
    out += "</ul>\n</div>\n";
  }
  out += "<h3>Passed</h3>\n<div class=\"scroll\"><table class=\"passed\"><tbody>\n";
  for (const Finding& f : r.findings) {
    if (!f.passed) continue;
    out += "<tr><td>\u2713</td><td>" + h(f.title) + "<br/><span class=\"rule\">" + h(f.id) + "</span></td><td>" +
           h(f.summary) + "</td></tr>\n";
  }
  out += "</tbody></table></div>\n</section>\n";
}

void traceSection(std::string& out, const Report& r) {
  const TraceInfo& t = r.trace;
  out += "<section id=\"trace\">\n<h2>Trace</h2>\n<table class=\"kv\"><tbody>\n";
  auto kv = [&](const std::string& key, const std::string& escapedValue) {
    out += "<tr><th>" + h(key) + "</th><td>" + escapedValue + "</td></tr>\n";
  };
  const std::string size = format::formatBytes(static_cast<std::int64_t>(t.sourceBytes));
  kv("Source", t.source.empty() ? "(in memory)" : h(t.source) + " (" + h(size) + ")");
  for (const DeviceInfo& d : t.devices)
    kv("Device " + std::to_string(d.id), h(d.name) + ", " + std::to_string(d.numSms) + " SMs, compute capability " +
                                             std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor) +
                                             ", " + h(format::formatBytes(d.totalGlobalMem)));
  if (t.devices.empty()) kv("Devices", "not recorded (no deviceProperties)");
  kv("Span", h(format::formatDuration(t.span())));
  kv("Steps", std::to_string(t.steps));
  kv("Events", std::to_string(t.events) + " (" + std::to_string(t.kernels) + " kernels, " +
                   std::to_string(t.memcpys) + " memcpys, " + std::to_string(t.memsets) + " memsets)");
  kv("Launches", std::to_string(r.launches.count) + " matched to GPU work, " + std::to_string(r.launches.unmatched) +
                     " unmatched, " + std::to_string(r.launches.outliers) + " slow outliers");
  out += "</tbody></table>\n";
  if (const Table* issues = r.table("import_issues"); issues && !issues->rows.empty()) htmlTableWithHeading(out, *issues);
  out += "</section>\n";
}

void sections(std::string& out, const Report& r) {
  for (const Section& s : tableSections(r)) {
    std::string heading = s.heading;
    out += "<section>\n<h2>" + h(heading) + "</h2>\n";
    if (heading == "Where time went") {
      std::string svg = utilizationSvg(r);
      if (!svg.empty()) out += "<h3>GPU utilisation over time</h3>\n" + svg + "\n";
    }
    if (heading == "Gaps") {
      std::string svg = gapHistogramSvg(r);
      if (!svg.empty()) out += "<h3>Gap histogram</h3>\n" + svg + "\n";
    }
    for (const Table* t : s.tables) htmlTableWithHeading(out, *t);
    if (heading == "Launches") {
      out += "<div class=\"charts-row\">" + distributionSvg(r.charts.launchHistogram, "Launch call duration") +
             distributionSvg(r.charts.queueHistogram, "Queue time (call end to GPU start)") + "</div>\n";
    }
    out += "</section>\n";
  }
}

}  // namespace

std::string renderHtml(const Report& r) {
  std::string out;
  out.reserve(64 * 1024);
  htmlHead(out, r.title, r.generator);
  header(out, r);
  findings(out, r);
  traceSection(out, r);
  sections(out, r);
  if (!r.notes.empty()) {
    out += "<section>\n<h2>Notes</h2>\n<ul>\n";
    for (const auto& n : r.notes) out += "<li>" + h(n) + "</li>\n";
    out += "</ul>\n</section>\n";
  }
  out += "<footer>Made by " + h(r.generator) + ". Rules and thresholds: docs/reports.md.</footer>\n</body>\n</html>\n";
  return out;
}

}  // namespace gapscope::report
