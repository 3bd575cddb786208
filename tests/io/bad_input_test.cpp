// Bad files: truncated, malformed, not a trace, broken gzip. Never a crash,
// always a clear message, and nothing lost that came before the fault.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "test_util.h"

using gapscope::io::LoadOptions;
using gapscope::io::LoadResult;
using gapscope::io::loadChromeTrace;
using gapscope::io::parseChromeTrace;
using gapscope::testing::TempFile;
using gapscope::testing::chunked;
using namespace std::string_literals;

namespace {

const char* kTwoEvents = R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}
], "traceName": "x"})";

// "NAME:LINE:COL (byte N): " for the first occurrence of `needle` in `text`.
std::string where(const std::string& name, std::string_view text, std::string_view needle, std::size_t from = 0) {
  std::size_t offset = text.find(needle, from);
  std::size_t line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return name + ":" + std::to_string(line) + ":" + std::to_string(offset - lineStart + 1) + " (byte " +
         std::to_string(offset) + "): ";
}

std::vector<std::string> sliceNames(const LoadResult& r) {
  std::vector<std::string> names;
  if (!r.trace) return names;
  for (const auto& s : r.trace->slices) names.emplace_back(r.trace->str(s.name));
  return names;
}

using Names = std::vector<std::string>;

}  // namespace

TEST(Truncated, MidEventKeepsEverythingBefore) {
  std::string json = kTwoEvents;
  json.resize(json.find("\"dur\": 1}\n]") - 3);  // inside the second event
  LoadResult r = parseChromeTrace(json);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(sliceNames(r), Names{"a"});
  const auto* issue = r.trace->issues.find("truncated");
  ASSERT_NE(issue, nullptr);
  EXPECT_EQ(issue->severity, gapscope::Severity::Error);
  EXPECT_EQ(issue->firstOffset, json.size());
  EXPECT_NE(issue->description.find("truncated at byte " + std::to_string(json.size())), std::string::npos)
      << issue->description;
}

TEST(Truncated, AtEveryByteNeverAnErrorOnlyFewerEvents) {
  const std::string json = kTwoEvents;
  const std::size_t firstEventEnd = json.find('}') + 1;
  const std::size_t secondEventEnd = json.find('}', firstEventEnd) + 1;
  for (std::size_t cut = 1; cut < json.size(); ++cut) {
    LoadResult r = parseChromeTrace(std::string_view(json).substr(0, cut), chunked(64));
    ASSERT_TRUE(r.error.empty()) << cut << ": " << r.error;
    ASSERT_TRUE(r.truncated) << cut;
    ASSERT_TRUE(r.trace) << cut;
    std::size_t expected = cut >= secondEventEnd ? 2 : cut >= firstEventEnd ? 1 : 0;
    EXPECT_EQ(r.trace->slices.size(), expected) << "cut at " << cut;
  }
  EXPECT_TRUE(parseChromeTrace(json).ok());
}

TEST(Truncated, BareArrayWithoutClosingBracket) {
  LoadResult r = parseChromeTrace(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},)");
  EXPECT_TRUE(r.error.empty());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(sliceNames(r), Names{"a"});
}

TEST(Truncated, InTheTopLevelKeysAfterTheEvents) {
  std::string json = kTwoEvents;
  json.resize(json.size() - 3);
  LoadResult r = parseChromeTrace(json);
  EXPECT_TRUE(r.error.empty());
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(sliceNames(r), (Names{"a", "b"}));
}

TEST(Truncated, BeforeTheEventsStart) {
  LoadResult r = parseChromeTrace(R"({"schemaVersion": 1, "traceEv)");
  EXPECT_TRUE(r.error.empty());
  EXPECT_TRUE(r.truncated);
  ASSERT_TRUE(r.trace);
  EXPECT_TRUE(r.trace->slices.empty());
}

TEST(Malformed, MissingCommaBetweenEvents) {
  std::string json = R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}
]})";
  LoadResult r = parseChromeTrace(json, {}, "bad.json");
  EXPECT_EQ(r.error, where("bad.json", json, "{\"ph\": \"X\", \"name\": \"b\"") +
                         "expected ',' or ']' after an event, found '{'");
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(sliceNames(r), Names{"a"});
}

TEST(Malformed, InsideAnEventNamesTheExpectedToken) {
  std::string json = R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1 "x": 1}
]})";
  LoadResult r = parseChromeTrace(json, {}, "bad.json");
  EXPECT_EQ(r.error, where("bad.json", json, "\"x\"") + "expected ',' or '}' after an object member, found '\"'");
  EXPECT_EQ(sliceNames(r), Names{"a"});
}

TEST(Malformed, BadLiteralInAFieldTheReaderUses) {
  std::string json = R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": tru, "dur": 1}])";
  LoadResult r = parseChromeTrace(json, {}, "bad.json");
  EXPECT_EQ(r.error, where("bad.json", json, ", \"dur\"") + "invalid literal (expected true, false or null), found ','");
}

TEST(Malformed, ContentAfterTheTrace) {
  std::string json = std::string(kTwoEvents) + "\n{}";
  LoadResult r = parseChromeTrace(json, {}, "bad.json");
  EXPECT_EQ(r.error, where("bad.json", json, "{}") + "unexpected content after the end of the trace, found '{'");
  EXPECT_EQ(sliceNames(r), (Names{"a", "b"}));
  // Trailing white space and NUL padding are fine.
  EXPECT_TRUE(parseChromeTrace(std::string(kTwoEvents) + "\n \0\0"s).ok());
}

TEST(Malformed, ErrorsInLaterChunksKeepEarlierChunks) {
  std::string json = "[";
  for (int i = 0; i < 200; ++i) json += R"({"ph":"X","name":"e","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
  json += R"({"ph":"X","name":"e","pid":1,"tid":1,"ts":1,"dur":1 oops}])";
  for (int threads : {1, 2, 3}) {
    LoadResult r = parseChromeTrace(json, chunked(500, threads), "bad.json");
    EXPECT_EQ(r.error, where("bad.json", json, "oops") + "expected ',' or '}' after an object member, found 'o'");
    ASSERT_TRUE(r.trace);
    EXPECT_EQ(r.trace->slices.size(), 200u);
  }
}

TEST(NotATrace, ClearMessages) {
  auto error = [](std::string_view text) { return parseChromeTrace(text, {}, "f.json").error; };
  EXPECT_EQ(error(""), "f.json: the file is empty");
  EXPECT_EQ(error(" \n\t"), "f.json:2:2 (byte 3): the file contains only white space");
  EXPECT_EQ(error("hello"), "f.json:1:1 (byte 0): not a JSON trace: expected '{' or '[', found 'h'");
  EXPECT_EQ(error("\x89PNG\r\n\x1a\n"), "f.json:1:1 (byte 0): not a JSON trace: expected '{' or '[', found byte 0x89");
  EXPECT_EQ(error("42"),
            "f.json:1:1 (byte 0): the file holds a JSON number, not a trace: expected an object with \"traceEvents\" "
            "or an array of events");
  EXPECT_NE(error("\"text\"").find("holds a JSON string"), std::string::npos);
  EXPECT_NE(error("true").find("holds a JSON boolean"), std::string::npos);
  EXPECT_NE(error("null").find("holds JSON null"), std::string::npos);
  EXPECT_EQ(error("{}"), "f.json:1:2 (byte 1): the top-level object has no \"traceEvents\" array");
  EXPECT_EQ(error(R"({"a": 1})"), "f.json:1:8 (byte 7): the top-level object has no \"traceEvents\" array");
  EXPECT_EQ(error(R"({"traceEvents": {}})"), "f.json:1:17 (byte 16): \"traceEvents\" must be an array, found '{'");
  EXPECT_EQ(error(R"({"a": 1 "traceEvents": []})"),
            "f.json:1:9 (byte 8): expected ',' or '}' after a top-level member, found '\"'");
  LoadResult r = parseChromeTrace("hello");
  EXPECT_FALSE(r.trace);
}

TEST(NotATrace, ByteOrderMarkIsSkipped) {
  LoadResult r = parseChromeTrace("\xEF\xBB\xBF[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]");
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(sliceNames(r), Names{"a"});
}

TEST(Files, MissingFileAndDirectory) {
  EXPECT_EQ(loadChromeTrace("/nonexistent/trace.json").error,
            "/nonexistent/trace.json: cannot open: No such file or directory");
  EXPECT_EQ(loadChromeTrace("/tmp").error, "/tmp: is a directory");
  TempFile empty(".json");
  empty.write("");
  EXPECT_EQ(loadChromeTrace(empty.path()).error, empty.path() + ": the file is empty");
}

TEST(Files, PlainAndGzipGiveTheSameTraceAndArgs) {
  std::string json = R"({"traceEvents": [
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 3, "s": "x\"y"}},
    {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {}}]})";
  TempFile plain(".json");
  plain.write(json);
  TempFile gz(".json.gz");
  gz.writeGzip(json);
  LoadResult a = loadChromeTrace(plain.path());
  LoadResult b = loadChromeTrace(gz.path());
  ASSERT_TRUE(a.ok()) << a.error;
  ASSERT_TRUE(b.ok()) << b.error;
  std::string dumpA = gapscope::io::dumpTrace(*a.trace);
  EXPECT_EQ(dumpA, gapscope::io::dumpTrace(*b.trace));
  EXPECT_NE(dumpA.find(R"(args={"correlation": 3, "s": "x\"y"})"), std::string::npos) << dumpA;
  EXPECT_EQ(a.trace->metadata.sourceBytes, json.size());
  EXPECT_EQ(a.trace->metadata.decompressedBytes, json.size());
  EXPECT_EQ(b.trace->metadata.decompressedBytes, json.size());
  EXPECT_LT(b.trace->metadata.sourceBytes, json.size());
  // The plain file's args are read from the file at their offset.
  const auto& s = a.trace->slices[0];
  EXPECT_EQ(json.substr(s.args.offset, s.args.length), R"({"correlation": 3, "s": "x\"y"})");
}

TEST(Files, GzipIsDetectedByMagicBytesNotName) {
  std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}])";
  TempFile gz(".json");
  gz.writeGzip(json);
  LoadResult r = loadChromeTrace(gz.path());
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(sliceNames(r), Names{"a"});
}

TEST(Files, CorruptGzipSaysWhichCompressedByte) {
  std::string json = "[";
  for (int i = 0; i < 5000; ++i) json += R"({"ph":"X","name":"n)" + std::to_string(i % 97) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
  json += "{}]";
  TempFile gz(".json.gz");
  gz.writeGzip(json);
  std::string bytes = gapscope::testing::readFile(gz.path());
  for (std::size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  gz.write(bytes);
  LoadResult r = loadChromeTrace(gz.path());
  EXPECT_NE(r.error.find(gz.path() + ": gzip error at compressed byte "), std::string::npos) << r.error;
  ASSERT_TRUE(r.trace);
  EXPECT_GT(r.trace->slices.size(), 0u);
  EXPECT_LT(r.trace->slices.size(), 5000u);
}

TEST(Files, TruncatedGzipLoadsWhatItHolds) {
  std::string json = "[";
  for (int i = 0; i < 5000; ++i) json += R"({"ph":"X","name":"n","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
  json += "{}]";
  TempFile gz(".json.gz");
  gz.writeGzip(json);
  std::string bytes = gapscope::testing::readFile(gz.path());
  gz.write(bytes.substr(0, bytes.size() / 2));
  LoadResult r = loadChromeTrace(gz.path());
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.truncated);
  ASSERT_TRUE(r.trace);
  EXPECT_GT(r.trace->slices.size(), 0u);
  EXPECT_NE(r.trace->issues.find("truncated")->description.find("gzip stream itself is cut short"), std::string::npos);
}

TEST(Files, GzipMagicThenGarbage) {
  TempFile gz(".json.gz");
  gz.write(std::string("\x1f\x8b\x08\x00garbage that is not deflate data", 37));
  LoadResult r = loadChromeTrace(gz.path());
  EXPECT_NE(r.error.find("gzip error at compressed byte"), std::string::npos) << r.error;
}

TEST(Progress, ReportsStoredBytesUpToTheTotal) {
  std::string json = "[";
  for (int i = 0; i < 2000; ++i) json += R"({"ph":"X","name":"n","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
  json += "{}]";
  TempFile f(".json");
  f.write(json);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  LoadOptions o;
  o.chunkBytes = 4096;
  o.progress = [&](std::uint64_t done, std::uint64_t total) { calls.emplace_back(done, total); };
  LoadResult r = loadChromeTrace(f.path(), o);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_GT(calls.size(), 5u);
  for (std::size_t i = 1; i < calls.size(); ++i) {
    EXPECT_LE(calls[i - 1].first, calls[i].first);
    EXPECT_EQ(calls[i].second, json.size());
  }
  EXPECT_EQ(calls.back().first, json.size());
}

TEST(Progress, CancelStopsTheLoad) {
  std::string json = "[";
  for (int i = 0; i < 2000; ++i) json += R"({"ph":"X","name":"n","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
  json += "{}]";
  std::atomic<bool> cancel{true};
  LoadOptions cancelled = chunked(4096);
  cancelled.cancel = &cancel;
  LoadResult r = parseChromeTrace(json, cancelled);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.trace);

  // Cancelling from the progress callback, part way.
  std::atomic<bool> later{false};
  LoadOptions o;
  o.chunkBytes = 1024;
  o.cancel = &later;
  int calls = 0;
  o.progress = [&](std::uint64_t, std::uint64_t) {
    if (++calls == 3) later = true;
  };
  r = parseChromeTrace(json, o);
  EXPECT_TRUE(r.cancelled);
  EXPECT_LE(calls, 4);
}

TEST(Files, PipeIsReadWithArgsKeptInMemory) {
  // A FIFO has no size and cannot be re-read at an offset: args must still be fetchable.
  std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k":1}}])";
  TempFile fifo(".json");
  ASSERT_EQ(mkfifo(fifo.path().c_str(), 0600), 0);
  std::thread writer([&] {
    std::FILE* f = std::fopen(fifo.path().c_str(), "wb");
    std::fwrite(json.data(), 1, json.size(), f);
    std::fclose(f);
  });
  LoadResult r = loadChromeTrace(fifo.path());
  writer.join();
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.trace->slices.size(), 1u);
  EXPECT_EQ(r.trace->argsJson(r.trace->slices[0]), R"({"k":1})");
}
