// The Markdown report, for pasting into GitHub issues and pull requests:
// verdict first, then triggered findings with evidence and advice, then the
// tables. Every trace string goes through format::escapeMarkdown().
#include <filesystem>

#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/format/number.h"
#include "gapscope/report/report.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {


}  // namespace

void markdownTable(std::string& out, const Table& t) {
  if (t.rows.empty()) {
    out += "_None._\n\n";
    return;
  }
  out += "|";
  for (const Column& c : t.columns) out += " " + md(c.header) + " |";
  out += "\n|";
  for (const Column& c : t.columns) out += c.kind == ColumnKind::Text ? " --- |" : " ---: |";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      std::string cell = i < row.size() ? cellText(t.columns[i], row[i]) : "-";
      out += " " + md(cell) + " |";
    }
    out += "\n";
  }
  if (t.totalRows > t.rows.size())
    out += "\n_" + std::to_string(t.rows.size()) + " of " + std::to_string(t.totalRows) + " rows shown._\n";
  out += "\n";
}

namespace {

void markdownTraceSection(std::string& out, const Report& r) {
  const TraceInfo& t = r.trace;
  out += "## Trace\n\n| | |\n| --- | --- |\n";
  std::string file = std::filesystem::path(t.source).filename().string();
  out += "| Source | " + md(file.empty() ? "(in memory)" : file) + " (" +
         format::formatBytes(static_cast<std::int64_t>(t.sourceBytes)) + ") |\n";
  for (const DeviceInfo& d : t.devices)
    out += "| Device " + std::to_string(d.id) + " | " + md(d.name) + ", " + std::to_string(d.numSms) +
           " SMs, compute " + std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor) + ", " +
           format::formatBytes(d.totalGlobalMem) + " |\n";
  out += "| Span | " + md(format::formatDuration(t.span())) + " |\n";
  out += "| Steps | " + std::to_string(t.steps) + " |\n";
  out += "| Events | " + std::to_string(t.events) + " (" + std::to_string(t.kernels) + " kernels, " +
         std::to_string(t.memcpys) + " memcpys, " + std::to_string(t.memsets) + " memsets) |\n\n";
  // Problems and notes one per line; the known producer quirks on one line.
  for (const ImportIssue& i : t.issues) {
    if (i.producerQuirk) continue;
    out += "- Import " + std::string(issueClassName(i)) + " " + md(i.name) + " (" + std::to_string(i.count) +
           "x): " + md(i.description) + "\n";
  }
  if (const std::uint64_t quirks = quirkCount(t.issues); quirks > 0) {
    out += "- Known producer quirks (expected, not problems): " + std::to_string(quirks) + " (";
    bool first = true;
    for (const ImportIssue& i : t.issues) {
      if (!i.producerQuirk) continue;
      out += (first ? "" : ", ") + md(i.name) + " " + std::to_string(i.count) + "x";
      first = false;
    }
    out += ")\n";
  }
  if (!t.issues.empty()) out += "\n";
}

void findingsSection(std::string& out, const Report& r) {
  out += "## Findings\n\n";
  std::size_t triggered = 0;
  for (const Finding& f : r.findings) {
    if (f.passed) continue;
    ++triggered;
    out += "### " + md(f.title) + " (" + md(f.id) + ")\n\n" + md(f.summary) + "\n\n";
    if (f.estimatedSavingNs > 0) out += "Could save up to " + md(format::formatDuration(f.estimatedSavingNs)) + ".\n\n";
    out += "Rule: " + md(f.threshold) + ".\n\n";
    markdownTable(out, f.evidence);
    out += "What to do:\n\n";
    for (const auto& a : f.advice) out += "- " + md(a) + "\n";
    out += "\n";
  }
  if (triggered == 0) out += "No rule found a problem.\n\n";
  out += "Passed rules:\n\n";
  for (const Finding& f : r.findings)
    if (f.passed) out += "- **" + md(f.title) + "** (" + md(f.id) + "): " + md(f.summary) + "\n";
  out += "\n";
}

void chartsAsText(std::string& out, const Report& r) {
  if (r.charts.utilization.empty()) return;
  out += "GPU busy over the trace (each character is 1/60 of the span):\n\n```text\n";
  for (const auto& s : r.charts.utilization)
    out += "GPU " + std::to_string(s.device) + " " + sparkline(s.busyPct, 60) + "\n";
  out += "```\n\n";
}

void gapHistogram(std::string& out, const Report& r) {
  std::uint64_t gaps = 0;
  for (const auto& b : r.charts.gapHistogram) gaps += b.total();
  if (gaps == 0) return;
  out += "### Gap histogram\n\n| Gap length | Gaps |";
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
    out += " " + std::string(analysis::gapCauseLabel(static_cast<analysis::GapCause>(c))) + " |";
  out += " Idle time |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& b : r.charts.gapHistogram) {
    out += "| " + md(bucketLabel(b.minNs, b.maxNs)) + " | " + std::to_string(b.total()) + " |";
    for (auto n : b.count) out += " " + std::to_string(n) + " |";
    out += " " + md(format::formatDuration(b.totalNs)) + " |\n";
  }
  out += "\n";
}

}  // namespace

std::string renderMarkdown(const Report& r) {
  std::string out = "# " + md(r.title) + "\n\n";
  if (r.hasGpuActivity) {
    out += "**Verdict:** " + md(r.verdict.line) + "\n\n";
  } else {
    out += "**Verdict:** " + md(r.noGpuReason.empty() ? std::string("no GPU activity") : r.noGpuReason) + "\n\n";
  }
  findingsSection(out, r);
  markdownTraceSection(out, r);
  for (const Section& s : tableSections(r)) {
    out += "## " + std::string(s.heading) + "\n\n";
    if (std::string_view(s.heading) == "Where time went") chartsAsText(out, r);
    for (const Table* t : s.tables) {
      out += "### " + md(t->title) + "\n\n";
      if (!t->note.empty()) out += md(t->note) + "\n\n";
      markdownTable(out, *t);
    }
    if (std::string_view(s.heading) == "Gaps") gapHistogram(out, r);
  }
  for (const auto& note : r.notes) out += "- " + md(note) + "\n";
  out += "\n---\n_Made by " + md(r.generator) + "._\n";
  return out;
}

}  // namespace gapscope::report
