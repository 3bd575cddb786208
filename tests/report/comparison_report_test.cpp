// The comparison report: one set of tables behind every format, the HTML
// self-contained and well-formed with trace strings escaped, the JSON with
// the documented fields and row limits, the CSV folder, atomic writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../compare/run_maker.h"
#include "../support/unmarked_loop.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/report/comparison_report.h"
#include "html_check.h"

namespace gapscope::report {
namespace {

using testing::OpSpec;
using testing::RunMaker;

// A pair whose names need escaping in every format.
compare::Comparison hostilePair() {
  RunMaker a, b;
  for (int i = 0; i < 2; ++i) {
    a.step({OpSpec("aten::<script>alert(1)</script>", {"k|1 \"quoted\"", "=cmd()"})});
    b.step({OpSpec("aten::<script>alert(1)</script>", {"k|1 \"quoted\""})});
  }
  return compare::compareTraces(*a.analysis("a&b.json"), *b.analysis("c<d>.json"));
}

TEST(ComparisonReport, TablesHoldEveryRow) {
  const ComparisonReport r = buildComparisonReport(hostilePair());
  ASSERT_NE(r.table("runs"), nullptr);
  EXPECT_EQ(r.table("runs")->rows.size(), 2u);
  EXPECT_EQ(r.table("idle_per_step")->rows.size(), analysis::kGapCauseCount);
  EXPECT_EQ(r.table("kernels")->rows.size(), r.comparison.kernels.size());
  EXPECT_EQ(r.table("ops")->rows.size(), r.comparison.ops.size());
  EXPECT_EQ(r.title, "gapscope comparison: a&b.json vs c<d>.json");
}

TEST(ComparisonReport, HtmlIsSelfContainedWellFormedAndEscaped) {
  const std::string html = renderComparisonHtml(buildComparisonReport(hostilePair()));
  EXPECT_EQ(testing::checkWellFormedHtml(html), "");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);  // the per-step bars
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no other link out
}

TEST(ComparisonReport, MarkdownEscapesTableCells) {
  const std::string md = renderComparisonMarkdown(buildComparisonReport(hostilePair()));
  EXPECT_NE(md.find("k\\|1"), std::string::npos);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
}

TEST(ComparisonReport, JsonRowsAreCutButCounted) {
  const compare::Comparison c = hostilePair();
  const auto all = nlohmann::json::parse(renderComparisonJson(c));
  EXPECT_EQ(all["format_version"], 1);
  EXPECT_EQ(all["kernels"].size(), c.kernels.size());
  const auto cut = nlohmann::json::parse(renderComparisonJson(c, 1));
  EXPECT_EQ(cut["kernels"].size(), 1u);
  EXPECT_EQ(cut["rows"]["kernels"].get<std::size_t>(), c.kernels.size());
  EXPECT_EQ(cut["runs"][0]["file"], "a&b.json");
  EXPECT_EQ(cut["runs"][1]["steps"], 2);
}

TEST(ComparisonReport, CsvFolderAndAtomicWrites) {
  const ComparisonReport r = buildComparisonReport(hostilePair());
  const auto dir = std::filesystem::temp_directory_path() / ("gapscope-cmp-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(writeComparisonReport(r, ReportFormat::Csv, dir.string()), "");
  for (const char* f : {"runs.csv", "idle_per_step.csv", "kernels.csv", "kernel_groups.csv", "ops.csv"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  std::ifstream kernels(dir / "kernels.csv");
  std::stringstream text;
  text << kernels.rdbuf();
  EXPECT_NE(text.str().find("'=cmd()"), std::string::npos);  // a formula is never live in a spreadsheet
  const auto html = dir.string() + ".html";
  ASSERT_EQ(writeComparisonReport(r, ReportFormat::Html, html), "");
  EXPECT_TRUE(std::filesystem::exists(html));
  EXPECT_NE(writeComparisonReport(r, ReportFormat::Html, "/nonexistent-dir/x.html"), "");
  std::filesystem::remove_all(dir);
  std::filesystem::remove(html);
}

}  // namespace
}  // namespace gapscope::report

namespace gapscope::report {
namespace {

std::shared_ptr<const analysis::TraceAnalysis> loadTrace(const std::string& relative) {
  io::LoadResult r = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(r.ok()) << r.error;
  return std::make_shared<const analysis::TraceAnalysis>(std::make_shared<const Trace>(std::move(*r.trace)));
}

// The training script eager and compiled (tests/data/h100-user): the HTML
// draws a dot per iteration after the warm-up, titled with its step number
// and the time from one data loader next() to the next, counted in the
// JSON, under the spread test in words.
TEST(ComparisonReport, HtmlDrawsEachStepOfEachRun) {
  const char* runs[2] = {"h100-user/eager-torch.json.gz", "h100-user/compiled-torch.json.gz"};
  const std::string html =
      renderComparisonHtml(buildComparisonReport(compare::compareTraces(*loadTrace(runs[0]), *loadTrace(runs[1]))));
  EXPECT_EQ(testing::checkWellFormedHtml(html), "");
  EXPECT_NE(html.find("<p class=\"meta\">Beyond the steps&#39; spread (p &lt; 0.001 over 11 and 11 steps)</p>"),
            std::string::npos);
  std::size_t dots = 0;
  for (std::size_t at = html.find("<circle"); at != std::string::npos; at = html.find("<circle", at + 1)) ++dots;
  EXPECT_EQ(dots, 22u);
  for (int run = 0; run < 2; ++run) {
    const auto loop = gapscope::testing::unmarkedLoopFromJson(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + runs[run]);
    for (std::size_t step = 2; step <= 12; ++step) {  // the first, a warm-up, left out
      const TimeNs ns = loop.nextStarts[step] - loop.nextStarts[step - 1];
      const std::string title = std::string(run == 0 ? "A" : "B") + ", step " + std::to_string(step) + ": " +
                                format::escapeHtml(format::formatDuration(ns));
      EXPECT_NE(html.find("<title>" + title + "</title>"), std::string::npos) << title;
    }
  }
}

}  // namespace
}  // namespace gapscope::report
