// A recording's own issues travel in the file ("gapscope_recording_issues")
// and come back as import issues whenever it is opened; a malformed member
// is a note, not a failure.
#include <gtest/gtest.h>

#include "gapscope/io/chrome_reader.h"
#include "gapscope/io/recording_issues.h"

using namespace gapscope;

namespace {

io::LoadResult loadRecordingText(const std::string& json) { return io::parseChromeTrace(json, {}, "inline.json"); }

const std::string kOneKernelEvents = R"("traceEvents":[{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":1,"dur":2}])";

}  // namespace

TEST(RecordingIssues, WrittenAndReadBackAsImportIssues) {
  std::vector<ImportIssue> issues = {
      {"recording_ended_early", Severity::Warning, 2, 0, "process 42 (python3) ended before \"its\" final flush", false},
      {"recording_stopped_early", Severity::Info, 1, 0, "the recording was stopped", false}};
  const std::string json = "{\"gapscope_recording_issues\": " + io::recordingIssuesJson(issues) + ", " + kOneKernelEvents + "}";
  io::LoadResult r = loadRecordingText(json);
  ASSERT_TRUE(r.ok()) << r.error;
  const ImportIssue* early = r.trace->issues.find("recording_ended_early");
  ASSERT_NE(early, nullptr);
  EXPECT_EQ(early->count, 2u);
  EXPECT_EQ(early->severity, Severity::Warning);
  EXPECT_TRUE(early->isProblem());
  EXPECT_EQ(early->description, "process 42 (python3) ended before \"its\" final flush");
  EXPECT_LT(early->firstOffset, json.find("traceEvents"));  // the member's place in the file
  const ImportIssue* stopped = r.trace->issues.find("recording_stopped_early");
  ASSERT_NE(stopped, nullptr);
  EXPECT_FALSE(stopped->isProblem());
  // Kept as a member too, so a rewrite carries it on.
  bool kept = false;
  for (const auto& [key, value] : r.trace->metadata.otherKeys) kept = kept || key == io::kRecordingIssuesKey;
  EXPECT_TRUE(kept);
}

TEST(RecordingIssues, AMalformedMemberIsANoteAndNothingElse) {
  for (const char* bad : {"3", "[1]", "[{\"name\": \"x\"}]", "[{\"name\": \"\", \"severity\": \"info\", \"count\": 1, \"description\": \"\"}]",
                          "[{\"name\": \"x\", \"severity\": \"fatal\", \"count\": 1, \"description\": \"\"}]",
                          "[{\"name\": \"x\", \"severity\": \"info\", \"count\": -1, \"description\": \"\"}]"}) {
    io::LoadResult r = loadRecordingText(std::string("{\"gapscope_recording_issues\": ") + bad + ", " + kOneKernelEvents + "}");
    ASSERT_TRUE(r.ok()) << bad << ": " << r.error;
    EXPECT_EQ(r.trace->issues.count("bad_recording_issues"), 1u) << bad;
    EXPECT_EQ(r.trace->issues.find("x"), nullptr) << bad;
    EXPECT_EQ(r.trace->slices.size(), 1u) << bad;
  }
}
