// The four formats carry the same report: fixed JSON field names, one CSV
// file per table, Markdown and HTML sections, and writeReport() writing
// exactly what the renderers produce.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "gapscope/report/report.h"
#include "report_of.h"
#include "html_check.h"
#include "loop_trace.h"
#include "report_files.h"

namespace gapscope::report {
namespace {

using namespace gapscope::testing;
namespace fs = std::filesystem;

// Three steps of a small launch-bound loop with a sync at each step's end.
Report sampleReport() {
  LoopTrace t;
  for (int step = 0; step < 3; ++step) {
    t.beginStep();
    for (int i = 0; i < 10; ++i) {
      t.op("aten::native_layer_norm", kLayerNorm, 3 * kUs, {.occupancy = 3.f, .gridX = 64});
      t.op("aten::tanh", kTanh, 1 * kUs, {.occupancy = 2.f, .gridX = 32});
    }
    t.op("aten::mm", kGemm, 20 * kUs);
    t.op("aten::add", kAdd, 2 * kUs);
    t.sync().cpuWork(40 * kUs);
    t.endStep();
  }
  return reportOf(t.finish());
}

std::vector<std::string> keysOf(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.push_back(it.key());
  return keys;
}

TEST(Formats, ParsesFormatNames) {
  EXPECT_EQ(parseReportFormat("html"), ReportFormat::Html);
  EXPECT_EQ(parseReportFormat("md"), ReportFormat::Markdown);
  EXPECT_EQ(parseReportFormat("markdown"), ReportFormat::Markdown);
  EXPECT_EQ(parseReportFormat("json"), ReportFormat::Json);
  EXPECT_EQ(parseReportFormat("csv"), ReportFormat::Csv);
  EXPECT_EQ(parseReportFormat("pdf"), std::nullopt);
  for (const auto& name : reportFormatNames()) EXPECT_EQ(reportFormatName(*parseReportFormat(name)), name);
}

TEST(Formats, JsonHasTheDocumentedFields) {
  Report r = sampleReport();
  auto j = nlohmann::ordered_json::parse(renderJson(r));
  EXPECT_EQ(keysOf(j), (std::vector<std::string>{"format", "format_version", "generator", "title", "trace",
                                                 "has_gpu_activity", "no_gpu_reason", "verdict", "launches",
                                                 "findings", "tables", "charts", "notes"}));
  EXPECT_EQ(j["format"], "gapscope-report");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(keysOf(j["trace"]),
            (std::vector<std::string>{"source", "source_bytes", "devices", "start_us", "end_us", "span_us", "steps",
                                      "events", "slices", "kernels", "memcpys", "memsets", "import_problems",
                                      "import_issues"}));
  EXPECT_EQ(j["trace"]["steps"], 3);
  EXPECT_EQ(keysOf(j["verdict"]),
            (std::vector<std::string>{"kind", "line", "utilization_pct", "over_steps", "estimated_saving_us"}));
  EXPECT_EQ(keysOf(j["charts"]), (std::vector<std::string>{"utilization", "steps", "gap_histogram",
                                                           "launch_histogram", "queue_histogram"}));
  ASSERT_EQ(j["findings"].size(), reportRules().size());
  for (const auto& f : j["findings"]) {
    EXPECT_EQ(keysOf(f), (std::vector<std::string>{"id", "title", "passed", "threshold", "summary", "advice",
                                                   "estimated_saving_us", "evidence"}));
  }
  // Every table row is an object keyed by the table's column ids.
  for (const Table& t : r.tables) {
    const auto& jt = j["tables"][t.id];
    ASSERT_TRUE(jt.is_object()) << t.id;
    EXPECT_EQ(jt["rows"].size(), t.rows.size()) << t.id;
    std::vector<std::string> ids;
    for (const Column& c : t.columns) ids.push_back(c.id);
    for (const auto& row : jt["rows"]) EXPECT_EQ(keysOf(row), ids) << t.id;
  }
}

TEST(Formats, JsonDurationsAreExactMicroseconds) {
  Report r = sampleReport();
  auto j = nlohmann::ordered_json::parse(renderJson(r));
  const Table* k = r.table("top_kernels");
  ASSERT_NE(k, nullptr);
  int total = k->column("total_us");
  ASSERT_GE(total, 0);
  TimeNs ns = std::get<std::int64_t>(k->rows[0][static_cast<std::size_t>(total)]);
  EXPECT_EQ(j["tables"]["top_kernels"]["rows"][0]["total_us"].get<double>(), static_cast<double>(ns) / 1000.0);
  EXPECT_EQ(j["trace"]["span_us"].get<double>(), static_cast<double>(r.trace.span()) / 1000.0);
}

TEST(Formats, CsvHasOneFilePerTableAndPerTriggeredFinding) {
  Report r = sampleReport();
  auto files = renderCsv(r);
  std::set<std::string> names;
  for (const auto& [name, content] : files) {
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
    EXPECT_EQ(content.substr(content.size() - 2), "\r\n") << name;
  }
  for (const Table& t : r.tables) EXPECT_TRUE(names.count(t.id + ".csv")) << t.id;
  for (const Finding& f : r.findings) EXPECT_EQ(names.count("finding_" + f.id + ".csv"), f.passed ? 0u : 1u) << f.id;
  for (const char* n : {"summary.csv", "findings.csv", "utilization_timeline.csv", "gap_histogram.csv",
                        "launch_histogram.csv", "queue_histogram.csv"})
    EXPECT_TRUE(names.count(n)) << n;
  // The header row is the column ids.
  for (const auto& [name, content] : files) {
    if (name != "top_kernels.csv") continue;
    EXPECT_EQ(content.substr(0, content.find("\r\n")),
              "name,kind,calls,total_us,gpu_pct,avg_us,min_us,max_us,grid,block,registers,shared_memory_bytes,"
              "occupancy_pct");
  }
}

TEST(Formats, MarkdownLeadsWithTheVerdictAndFindings) {
  Report r = sampleReport();
  std::string md = renderMarkdown(r);
  EXPECT_EQ(md.rfind("# gapscope report: loop\\_trace.json\n", 0), 0u) << md.substr(0, 80);
  EXPECT_LT(md.find("**Verdict:**"), md.find("## Findings"));
  EXPECT_LT(md.find("## Findings"), md.find("## Trace"));
  for (const Finding& f : r.findings) EXPECT_NE(md.find(f.title), std::string::npos) << f.id;
  EXPECT_NE(md.find("### Launch-overhead bound (launch-overhead-bound)"), std::string::npos);
  EXPECT_NE(md.find("Passed rules:"), std::string::npos);
  EXPECT_NE(md.find("```text\nGPU 0 "), std::string::npos);  // the utilisation sparkline
  for (const char* h : {"## Where time went", "## Hotspots", "## Gaps", "### Gap histogram", "## Launches"})
    EXPECT_NE(md.find(h), std::string::npos) << h;
}

TEST(Formats, HtmlIsSelfContainedWithChartsAndPrintStyles) {
  Report r = sampleReport();
  std::string html = renderHtml(r);
  EXPECT_EQ(testing::checkWellFormedHtml(html), "");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // The only URL is the SVG namespace name, which is never fetched.
  std::size_t urls = 0, namespaces = 0;
  for (auto at = html.find("http://"); at != std::string::npos; at = html.find("http://", at + 1)) ++urls;
  for (auto at = html.find("xmlns=\"http://www.w3.org/2000/svg\""); at != std::string::npos;
       at = html.find("xmlns=", at + 1))
    ++namespaces;
  EXPECT_EQ(urls, namespaces);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"GPU utilisation over time\""), std::string::npos);
  EXPECT_NE(html.find("aria-label=\"GPU idle time in gaps, by gap length and cause\""), std::string::npos);
  for (const Finding& f : r.findings) {
    if (!f.passed) {
      EXPECT_NE(html.find("id=\"rule-" + f.id + "\""), std::string::npos) << f.id;
    }
  }
  // Kernel names are shown short with the full name as a tooltip.
  EXPECT_NE(html.find("<span title=\"void at::native::vectorized_elementwise_kernel&lt;4, "
                      "at::native::tanh_kernel_cuda"),
            std::string::npos);
  EXPECT_NE(html.find(">elementwise: tanh_kernel_cuda</span>"), std::string::npos);
}

TEST(Formats, ChartsCoverTheTraceAndCountEveryDeviceGap) {
  Report r = sampleReport();
  ASSERT_EQ(r.charts.utilization.size(), 1u);
  const auto& u = r.charts.utilization[0];
  EXPECT_EQ(u.start, r.trace.start);
  EXPECT_GE(static_cast<TimeNs>(u.busyPct.size()) * u.binNs, r.trace.span());
  for (double v : u.busyPct) {
    EXPECT_GE(v, 0.0);
    EXPECT_LE(v, 100.0);
  }
  EXPECT_EQ(r.charts.steps.size(), 3u);
  std::uint64_t histogramGaps = 0;
  for (const auto& b : r.charts.gapHistogram) histogramGaps += b.total();
  const Table* worst = r.table("worst_gaps");
  ASSERT_NE(worst, nullptr);
  EXPECT_EQ(histogramGaps, worst->totalRows);
  std::uint64_t launches = 0;
  for (const auto& b : r.charts.launchHistogram) launches += b.count;
  EXPECT_EQ(launches, r.launches.count);
}

TEST(Formats, WriteReportWritesWhatTheRenderersMake) {
  ScratchDir dir;
  Report r = sampleReport();
  ASSERT_EQ(writeReport(r, ReportFormat::Html, (dir / "r.html").string()), "");
  ASSERT_EQ(writeReport(r, ReportFormat::Markdown, (dir / "r.md").string()), "");
  ASSERT_EQ(writeReport(r, ReportFormat::Json, (dir / "r.json").string()), "");
  ASSERT_EQ(writeReport(r, ReportFormat::Csv, (dir / "csv").string()), "");
  EXPECT_EQ(readFile(dir / "r.html"), renderHtml(r));
  EXPECT_EQ(readFile(dir / "r.md"), renderMarkdown(r));
  EXPECT_EQ(readFile(dir / "r.json"), renderJson(r));
  for (const auto& [name, content] : renderCsv(r)) EXPECT_EQ(readFile(dir / "csv" / name), content) << name;
  // Writing the csv folder again replaces it.
  ASSERT_EQ(writeReport(r, ReportFormat::Csv, (dir / "csv").string()), "");
}

}  // namespace
}  // namespace gapscope::report
