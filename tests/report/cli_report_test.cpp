// gapscope-cli report, run as a process: formats, -o, and its usage errors.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "html_check.h"
#include "report_files.h"

namespace gapscope::report {
namespace {

using namespace gapscope::testing;

const std::string kTrace = GAPSCOPE_TEST_DATA_DIR "/h200/matmul_add_64_bf16_eager.json";

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string quote(const std::string& word) {
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CliRun runReport(const ScratchDir& dir, const std::vector<std::string>& args) {
  std::string command = quote(GAPSCOPE_BINARY_DIR "/cli/gapscope-cli") + " report";
  for (const auto& a : args) command += " " + quote(a);
  command += " >" + quote((dir / "stdout").string()) + " 2>" + quote((dir / "stderr").string());
  int raw = std::system(command.c_str());
  CliRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(dir / "stdout");
  r.err = readFile(dir / "stderr");
  return r;
}

TEST(CliReport, WritesEachFormat) {
  ScratchDir dir;
  CliRun html = runReport(dir, {kTrace, "-o", (dir / "r.html").string()});
  ASSERT_EQ(html.status, 0) << html.err;
  EXPECT_NE(html.out.find("wrote"), std::string::npos);
  EXPECT_EQ(testing::checkWellFormedHtml(readFile(dir / "r.html")), "");

  ASSERT_EQ(runReport(dir, {kTrace, "--format", "json", "-o", (dir / "r.out").string()}).status, 0);
  auto j = nlohmann::json::parse(readFile(dir / "r.out"));
  EXPECT_EQ(j["format"], "gapscope-report");
  bool gemmAdd = false;
  for (const auto& f : j["findings"]) gemmAdd = gemmAdd || (f["id"] == "gemm-separate-add" && !f["passed"]);
  EXPECT_TRUE(gemmAdd);

  ASSERT_EQ(runReport(dir, {kTrace, "--format=csv", "-o", (dir / "csv").string()}).status, 0);
  EXPECT_FALSE(readFile(dir / "csv" / "top_kernels.csv").empty());

  CliRun md = runReport(dir, {kTrace, "--format", "md", "--top", "3", "--title", "My run"});
  ASSERT_EQ(md.status, 0) << md.err;
  EXPECT_EQ(md.out.rfind("# My run\n", 0), 0u);
}

TEST(CliReport, UsageErrorsExitWithTwo) {
  ScratchDir dir;
  CliRun bad = runReport(dir, {kTrace, "--format", "pdf"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("html, md, json or csv"), std::string::npos) << bad.err;
  EXPECT_EQ(runReport(dir, {kTrace, "--format", "csv"}).status, 2);  // csv needs a folder
  EXPECT_EQ(runReport(dir, {}).status, 2);
  EXPECT_EQ(runReport(dir, {kTrace, "-o"}).status, 2);
}

TEST(CliReport, FailuresExitWithOneAndKeepTheOldReport) {
  ScratchDir dir;
  CliRun missing = runReport(dir, {(dir / "nope.json").string(), "-o", (dir / "r.html").string()});
  EXPECT_EQ(missing.status, 1);
  writeFile(dir / "keep.csv", "old");
  CliRun blocked = runReport(dir, {kTrace, "--format", "csv", "-o", (dir / "keep.csv").string()});
  EXPECT_EQ(blocked.status, 1);
  EXPECT_NE(blocked.err.find("not a folder"), std::string::npos) << blocked.err;
  EXPECT_EQ(readFile(dir / "keep.csv"), "old");
}

}  // namespace
}  // namespace gapscope::report
