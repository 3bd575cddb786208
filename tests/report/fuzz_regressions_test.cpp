// Inputs fuzz_report once crashed on (tests/fuzz/regressions/report/): the
// report in every format, and the comparison, build on each. Under the
// checked build (ASan+UBSan) any overflow fails the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gapscope/analysis/invariants.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/report/report.h"

namespace gapscope {
namespace {

TEST(FuzzRegressions, ReportsBuildOnEverySavedCrash) {
  int inputs = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(GAPSCOPE_SOURCE_DIR "/tests/fuzz/regressions/report")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    io::LoadOptions options;
    options.chunkBytes = 256;
    io::LoadResult r = io::parseChromeTrace(text.str(), options, entry.path().filename().string());
    if (!r.trace) continue;
    const analysis::TraceAnalysis a(std::make_shared<const Trace>(std::move(*r.trace)));
    const auto broken = analysis::checkInvariants(a);
    EXPECT_TRUE(broken.empty()) << entry.path() << ": " << (broken.empty() ? "" : broken[0]);
    const report::Report report = report::buildReport(a);
    const std::string html = report::renderHtml(report);
    EXPECT_NE(html.find("</html>"), std::string::npos) << entry.path();
    EXPECT_FALSE(report::renderMarkdown(report).empty());
    EXPECT_FALSE(report::renderJson(report).empty());
    ++inputs;
  }
  EXPECT_GE(inputs, 2);
}

}  // namespace
}  // namespace gapscope
