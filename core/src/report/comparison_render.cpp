// The comparison report in html, md and csv, from the tables of
// buildComparisonReport() and the table renderers every report shares;
// and the atomic write.
#include <filesystem>

#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/report/comparison_report.h"
#include "report/atomic_write.h"
#include "report/html_charts.h"
#include "report/render_common.h"

namespace gapscope::report {
namespace {


// The table as people see it: the first humanRows rows (totalRows kept, so
// the renderers say how many were left out).
Table forPeople(const Table& t, std::size_t rows) {
  Table cut = t;
  if (cut.rows.size() > rows) cut.rows.resize(rows);
  return cut;
}


// Where each table goes: (heading, table ids).
struct Part {
  const char* heading;
  std::vector<const char*> tables;
};
const std::vector<Part>& parts() {
  static const std::vector<Part> kParts = {{"Per step", {"recordings", "runs", "idle_per_step"}},
                                           {"Kernels", {"kernel_groups", "kernels"}},
                                           {"Operators", {"ops"}}};
  return kParts;
}

}  // namespace

std::string runLine(const compare::Comparison& c, std::size_t side) {
  const compare::RunFigures& r = c.runs[side];
  std::string devices;
  for (const auto& d : r.devices) devices += (devices.empty() ? "" : ", ") + d;
  return std::string(side == 0 ? "A" : "B") + ": " + (r.file.empty() ? "(in memory)" : r.file) + " (" + r.producer +
         (devices.empty() ? "" : ", " + devices) + ")" + compare::middleOfRecordings(c.recordings[side]);
}

std::string renderComparisonHtml(const ComparisonReport& r) {
  const compare::Comparison& c = r.comparison;
  std::string out;
  out.reserve(64 * 1024);
  htmlHead(out, r.title, r.generator);
  out += "<header>\n<h1>" + h(r.title) + "</h1>\n<p class=\"verdict\">" + h(c.verdict) + "</p>\n";
  out += "<p class=\"meta\">" + h(runLine(c, 0)) + "<br/>" + h(runLine(c, 1)) + "</p>\n";
  if (!c.warnings.empty()) {
    out += "<ul class=\"note\">\n";
    for (const auto& w : c.warnings) out += "<li>Warning: " + h(w) + "</li>\n";
    out += "</ul>\n";
  }
  out += "</header>\n";
  for (const Part& part : parts()) {
    out += "<section>\n<h2>" + h(part.heading) + "</h2>\n";
    if (std::string_view(part.heading) == "Per step") {
      out += "<h3>A step of each run</h3>\n" + stepBarsSvg(c) + "\n";
      // With several recordings a side the chart draws the middle pair's steps.
      const std::string test = c.recordings[0].empty()
                                   ? compare::spreadSentence(c.stepSpread)
                                   : compare::spreadSentence(c.runToRun) + " (each recording's median step). The middle "
                                         "recordings' steps: " + compare::spreadClause(c.stepSpread, false);
      out += "<h3>Each step of each run</h3>\n<p class=\"meta\">" + h(test) + "</p>\n" + stepTimesSvg(c) + "\n";
    }
    for (const char* id : part.tables)
      if (const Table* t = r.table(id)) htmlTableWithHeading(out, forPeople(*t, r.humanRows));
    out += "</section>\n";
  }
  out += "<footer>Made by " + h(r.generator) + ". Definitions: docs/compare.md.</footer>\n</body>\n</html>\n";
  return out;
}

std::string renderComparisonMarkdown(const ComparisonReport& r) {
  const compare::Comparison& c = r.comparison;
  std::string out = "# " + md(r.title) + "\n\n**Verdict:** " + md(c.verdict) + "\n\n";
  out += "- " + md(runLine(c, 0)) + "\n- " + md(runLine(c, 1)) + "\n";
  for (const auto& w : c.warnings) out += "- Warning: " + md(w) + "\n";
  out += "\n";
  for (const Part& part : parts()) {
    out += "## " + std::string(part.heading) + "\n\n";
    for (const char* id : part.tables) {
      const Table* t = r.table(id);
      if (!t) continue;
      out += "### " + md(t->title) + "\n\n";
      if (!t->note.empty()) out += md(t->note) + "\n\n";
      markdownTable(out, forPeople(*t, r.humanRows));
    }
  }
  out += "---\n_Made by " + md(r.generator) + "._\n";
  return out;
}

std::vector<std::pair<std::string, std::string>> renderComparisonCsv(const ComparisonReport& r) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const Table& t : r.tables) files.emplace_back(t.id + ".csv", tableCsv(t));
  return files;
}

std::string writeComparisonReport(const ComparisonReport& r, ReportFormat format, const std::string& path) {
  switch (format) {
    case ReportFormat::Html: return writeFileAtomic(path, renderComparisonHtml(r));
    case ReportFormat::Markdown: return writeFileAtomic(path, renderComparisonMarkdown(r));
    case ReportFormat::Json: return writeFileAtomic(path, renderComparisonJson(r.comparison));
    case ReportFormat::Csv: return writeFolderAtomic(path, renderComparisonCsv(r));
  }
  return "unknown report format";
}

}  // namespace gapscope::report
