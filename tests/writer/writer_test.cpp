#include "gapscope/writer/chrome_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gapscope/model/trace_builder.h"

using namespace gapscope;
namespace fs = std::filesystem;

namespace {

Trace smallTrace() {
  TraceBuilder b;
  SliceEvent e;
  e.pid = b.numericId(7);
  e.tid = b.numericId(8);
  e.start = 1500;
  e.dur = 2001;
  e.name = b.intern("op \"quoted\"\n");
  e.category = b.intern("cpu_op");
  b.addComplete(e);
  b.metadata().baseTimeNanoseconds = 1790857026000000000;
  return b.finish();
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratchDir(const char* name) {
  fs::path d = fs::temp_directory_path() / ("gapscope_writer_" + std::string(name) + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(FormatMicros, ThreeDecimalsFromIntegerNanoseconds) {
  EXPECT_EQ(writer::formatMicros(0), "0.000");
  EXPECT_EQ(writer::formatMicros(1), "0.001");
  EXPECT_EQ(writer::formatMicros(999), "0.999");
  EXPECT_EQ(writer::formatMicros(1000), "1.000");
  EXPECT_EQ(writer::formatMicros(1234567), "1234.567");
  EXPECT_EQ(writer::formatMicros(-500), "-0.500");
  EXPECT_EQ(writer::formatMicros(-1500), "-1.500");
  // 19 significant digits: more than a double holds.
  EXPECT_EQ(writer::formatMicros(4472700411709539123), "4472700411709539.123");
  EXPECT_EQ(writer::formatMicros(INT64_MIN), "-9223372036854775.808");
}

TEST(ChromeWriter, WritesKinetoLayoutAndEscapesNames) {
  std::string json = writer::chromeTraceJson(smallTrace());
  EXPECT_NE(json.find("\"baseTimeNanoseconds\": 1790857026000000000"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ts\": 1.500, \"dur\": 2.001"), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\": \"op \\\"quoted\\\"\\n\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"traceEvents\": ["), std::string::npos);
  EXPECT_NE(json.find("\"name\": \"thread_sort_index\", \"ph\": \"M\""), std::string::npos) << json;
}

TEST(ChromeWriter, ReplacesAnExistingFileAndLeavesNoTemporary) {
  fs::path dir = scratchDir("replace");
  fs::path file = dir / "t.json";
  { std::ofstream(file) << "old"; }
  writer::WriteResult r = writer::writeChromeTrace(smallTrace(), file.string());
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.bytes, fs::file_size(file));
  EXPECT_EQ(readFile(file), writer::chromeTraceJson(smallTrace()));
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1);
  fs::remove_all(dir);
}

TEST(ChromeWriter, GzipByExtension) {
  fs::path dir = scratchDir("gzip");
  fs::path file = dir / "t.json.gz";
  writer::WriteResult r = writer::writeChromeTrace(smallTrace(), file.string());
  ASSERT_TRUE(r.ok()) << r.error;
  std::string bytes = readFile(file);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  EXPECT_EQ(r.jsonBytes, writer::chromeTraceJson(smallTrace()).size());
  fs::remove_all(dir);
}

TEST(ChromeWriter, UnwritablePathIsAnErrorNotACrash) {
  writer::WriteResult r = writer::writeChromeTrace(smallTrace(), "/nonexistent-dir-gapscope/t.json");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("/nonexistent-dir-gapscope/t.json"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file or directory"), std::string::npos) << r.error;
}

TEST(ChromeWriter, FailedRenameLeavesNoTemporary) {
  fs::path dir = scratchDir("rename");
  fs::path target = dir / "is_a_directory";
  fs::create_directories(target / "inside");
  writer::WriteResult r = writer::writeChromeTrace(smallTrace(), target.string());
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("cannot rename"), std::string::npos) << r.error;
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1);  // only the directory: the temporary file is gone
  EXPECT_TRUE(fs::is_directory(target / "inside"));
  fs::remove_all(dir);
}
