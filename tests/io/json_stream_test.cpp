// The streaming checkers (json_stream.h, TopLevelStream) against the whole-
// text checker, with the text split at every position: the same verdict,
// position and message whatever the pieces.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json_stream.h"
#include "json_text.h"
#include "top_level.h"

using namespace gapscope::io;

namespace {

const std::vector<std::string> kValues = {
    R"({"a": [1, 2.5e-3, -0, true, false, null, "x\"y\\", {"b": {}}, []]})",
    R"("plain \u00e9 string")",
    R"([1, 2,])",
    R"({"a" 1})",
    R"({"a": 1,})",
    R"({"a": tru})",
    R"([01])",
    R"([1.])",
    R"([1e])",
    R"([-])",
    R"(["\x"])",
    R"(["\u12G4"])",
    "[\"a\x01\"]",
    R"({"a": [1, 2}})",
    R"([1 2])",
    R"(   {"k": "v"}   )",
    R"(nul)",
    R"({)",
    R"(["abc)",
    R"(12)",
    R"(@)",
};

// Feeds `text` in pieces cut at `cuts`; returns "Done@N", "Error@N: msg" or "NeedMore".
std::string streamed(const std::string& text, std::size_t cut) {
  JsonValueStream s;
  std::size_t base = 0;
  for (std::size_t end : {cut, text.size()}) {
    if (end < base) continue;
    JsonValueStream::Result r = s.feed(std::string_view(text).substr(base, end - base));
    using S = JsonValueStream::Result::Status;
    if (r.status == S::Done) return "Done@" + std::to_string(base + r.pos);
    if (r.status == S::Error) return "Error@" + std::to_string(base + r.pos) + ": " + r.message;
    base = end;
  }
  return "NeedMore";
}

std::string whole(const std::string& text) {
  JsonCheck c = checkJsonValue(text, skipSpaces(text, 0));
  if (c.status == JsonCheck::Status::Ok) return "Done@" + std::to_string(c.pos);
  if (c.status == JsonCheck::Status::Error) return "Error@" + std::to_string(c.pos) + ": " + c.message;
  return "NeedMore";
}

}  // namespace

TEST(JsonValueStream, AgreesWithTheWholeTextCheckerAtEverySplit) {
  for (const std::string& v : kValues) {
    const std::string expected = whole(v);
    for (std::size_t cut = 0; cut <= v.size(); ++cut) {
      std::string got = streamed(v, cut);
      // A number that reaches the end of the text may go on: the stream
      // waits where the whole-text checker says "end of input".
      EXPECT_EQ(got, expected) << v << " cut at " << cut;
    }
  }
}

TEST(JsonValueStream, ByteAtATime) {
  const std::string v = R"({"a": [1, {"b": "c\u0041"}], "d": -1.5E+3})";
  JsonValueStream s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    JsonValueStream::Result r = s.feed(std::string_view(v).substr(i, 1));
    if (i + 1 < v.size()) {
      ASSERT_EQ(r.status, JsonValueStream::Result::Status::NeedMore) << i;
    } else {
      ASSERT_EQ(r.status, JsonValueStream::Result::Status::Done);
      EXPECT_EQ(r.pos, 1u);
    }
  }
}

TEST(JsonValueStream, DeepNestingIsBounded) {
  const std::string deep(kMaxJsonDepth + 1, '[');
  JsonValueStream s;
  JsonValueStream::Result r = s.feed(deep);
  ASSERT_EQ(r.status, JsonValueStream::Result::Status::Error);
  EXPECT_EQ(r.pos, kMaxJsonDepth);
  EXPECT_NE(r.message.find("nested deeper than"), std::string::npos);
}

namespace {

std::string topLevel(const std::string& text, std::size_t piece) {
  TopLevelStream s(TopLevelMode::Start, 0);
  TopLevelStep step;
  for (std::size_t at = 0;; at += piece) {
    const bool eof = at >= text.size();
    step = s.feed(eof ? std::string_view() : std::string_view(text).substr(at, piece), eof);
    if (step.status != TopLevelStep::Status::NeedMore || eof) break;
  }
  std::string out = std::to_string(static_cast<int>(step.status)) + "@" + std::to_string(step.pos) + " " + step.message;
  for (const auto& e : step.entries) out += " [" + e.key + "=" + e.raw + (e.skipped ? " skipped" : "") + "]";
  return out;
}

}  // namespace

TEST(TopLevelStream, SameResultForEveryPieceSize) {
  const std::vector<std::string> texts = {
      "\xEF\xBB\xBF {\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0}], \"traceEvents\": [{}]}",
      R"({"a": "x", "trace\u0045vents": [])",
      R"({"a": 1 "b": 2})",
      R"({"a": 1, "b": [1,)",
      R"({"a": 1})",
      R"({})",
      "   \n  ",
      "",
      "\xEF\xBB",
      R"("just a string")",
      R"({"traceEvents": 5})",
      "[{}]",
  };
  for (const std::string& t : texts) {
    const std::string expected = topLevel(t, t.size() + 1);
    for (std::size_t piece = 1; piece <= t.size(); ++piece) {
      EXPECT_EQ(topLevel(t, piece), expected) << t << " in pieces of " << piece;
    }
  }
  EXPECT_EQ(topLevel("", 1), "3@0 the file is empty");
  EXPECT_EQ(topLevel(R"({"a": 1})", 100), "3@7 the top-level object has no \"traceEvents\" array [a=1]");
}

TEST(TopLevelStream, LargeMembersAreSkippedNotKept) {
  const std::string big(kMaxKeptTopLevelBytes + 1, 'x');
  const std::string text = "{\"systemTraceEvents\": \"" + big + "\", \"k\": 1, \"traceEvents\": [";
  TopLevelStream s(TopLevelMode::Start, 0);
  TopLevelStep step = s.feed(text, false);
  ASSERT_EQ(step.status, TopLevelStep::Status::EventsStart);
  EXPECT_EQ(step.pos, text.size());
  ASSERT_EQ(step.entries.size(), 2u);
  EXPECT_TRUE(step.entries[0].skipped);
  EXPECT_TRUE(step.entries[0].raw.empty());
  EXPECT_EQ(step.entries[1].raw, "1");
}
