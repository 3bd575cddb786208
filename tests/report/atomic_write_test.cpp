// Writes are atomic: a failed or interrupted export leaves the previous
// report untouched and no temporary file behind.
#include <gtest/gtest.h>

#include "gapscope/report/report.h"
#include "report_of.h"
#include "loop_trace.h"
#include "report/atomic_write.h"
#include "report_files.h"

namespace gapscope::report {
namespace {

using namespace gapscope::testing;
namespace fs = std::filesystem;

std::size_t entriesIn(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicWrite, WritesANewFile) {
  ScratchDir dir;
  EXPECT_EQ(writeFileAtomic((dir / "a.txt").string(), "hello"), "");
  EXPECT_EQ(readFile(dir / "a.txt"), "hello");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(AtomicWrite, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  ScratchDir dir;
  writeFile(dir / "report.html", "good old report");
  std::string big(1 << 20, 'x');
  std::string error = writeFileAtomic((dir / "report.html").string(), big, {.failAfterBytes = 4096});
  EXPECT_NE(error.find("report.html"), std::string::npos) << error;
  EXPECT_NE(error.find("No space left"), std::string::npos) << error;
  EXPECT_EQ(readFile(dir / "report.html"), "good old report");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(AtomicWrite, ReplacingADirectoryWithAFileFails) {
  ScratchDir dir;
  fs::create_directory(dir / "out.html");
  writeFile(dir / "out.html" / "keep", "x");
  EXPECT_NE(writeFileAtomic((dir / "out.html").string(), "new"), "");
  EXPECT_EQ(readFile(dir / "out.html" / "keep"), "x");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(AtomicWrite, AMissingFolderIsReported) {
  ScratchDir dir;
  std::string error = writeFileAtomic((dir / "no" / "such" / "r.md").string(), "x");
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
}

TEST(AtomicWrite, FolderWriteReplacesAPreviousCsvReport) {
  ScratchDir dir;
  fs::create_directory(dir / "csv");
  writeFile(dir / "csv" / "old.csv", "old");
  EXPECT_EQ(writeFolderAtomic((dir / "csv").string(), {{"a.csv", "1"}, {"b.csv", "2"}}), "");
  EXPECT_EQ(readFile(dir / "csv" / "a.csv"), "1");
  EXPECT_FALSE(fs::exists(dir / "csv" / "old.csv"));
  EXPECT_EQ(entriesIn(dir.path()), 1u);  // no temporary or old folder left
}

TEST(AtomicWrite, AFailedFolderWriteKeepsTheOldReport) {
  ScratchDir dir;
  fs::create_directory(dir / "csv");
  writeFile(dir / "csv" / "summary.csv", "good");
  std::string error = writeFolderAtomic((dir / "csv").string(), {{"a.csv", std::string(100, 'a')}, {"b.csv", "bb"}},
                                        {.failAfterBytes = 101});
  EXPECT_NE(error, "");
  EXPECT_EQ(readFile(dir / "csv" / "summary.csv"), "good");
  EXPECT_EQ(entriesIn(dir / "csv"), 1u);
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(AtomicWrite, FolderWriteRefusesToReplaceAnythingButACsvReport) {
  ScratchDir dir;
  fs::create_directory(dir / "home");
  writeFile(dir / "home" / "thesis.tex", "precious");
  std::string error = writeFolderAtomic((dir / "home").string(), {{"a.csv", "1"}});
  EXPECT_NE(error.find("refusing"), std::string::npos) << error;
  EXPECT_EQ(readFile(dir / "home" / "thesis.tex"), "precious");
  writeFile(dir / "file.csv", "a file");
  EXPECT_NE(writeFolderAtomic((dir / "file.csv").string(), {{"a.csv", "1"}}), "");
  EXPECT_EQ(readFile(dir / "file.csv"), "a file");
}

TEST(AtomicWrite, WriteReportKeepsAGoodReportWhenTheTargetCannotBeReplaced) {
  ScratchDir dir;
  Report r = reportOf(cleanTrace());
  ASSERT_EQ(writeReport(r, ReportFormat::Html, (dir / "r.html").string()), "");
  std::string good = readFile(dir / "r.html");
  EXPECT_NE(good.find("<html"), std::string::npos);
  // A csv export aimed at the html file must fail and leave it alone.
  EXPECT_NE(writeReport(r, ReportFormat::Csv, (dir / "r.html").string()), "");
  EXPECT_EQ(readFile(dir / "r.html"), good);
  EXPECT_NE(writeReport(r, ReportFormat::Json, (dir / "missing" / "r.json").string()), "");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

}  // namespace
}  // namespace gapscope::report
