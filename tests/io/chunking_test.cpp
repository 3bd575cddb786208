// The text is cut into chunks at guessed event boundaries ("}" "," "{").
// Guesses inside strings or nested args must be caught and repaired: the
// result may never depend on the chunk size or the number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "gapscope/io/chrome_reader.h"
#include "test_util.h"

using gapscope::io::DumpOptions;
using gapscope::io::LoadOptions;
using gapscope::io::parseChromeTrace;
using gapscope::testing::chunked;
using gapscope::testing::withOffsets;

namespace {

// Events whose text is full of false boundaries, in a Kineto-like mix.
std::string adversarialTrace(bool pretty, bool objectForm) {
  const char* sep = pretty ? ",\n  " : ",";
  std::string events;
  auto add = [&](const std::string& e) {
    if (!events.empty()) events += sep;
    events += e;
  };
  for (int i = 0; i < 60; ++i) {
    std::string ts = std::to_string(1000 + i * 10) + ".125";
    std::string n = std::to_string(i);
    add(R"({"ph": "X", "cat": "cpu_op", "name": "op}, { )" + n + R"(", "pid": 1, "tid": 1, "ts": )" + ts +
        R"(, "dur": 5, "args": {"Input Dims": [[1, 2]], "s": "}, {\"}, {\"", "list": [{"a": 1}, {"b": [{"c": 2}, {}]}]}})");
    add(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + ts +
        R"(,"dur":1,"args":{"correlation":)" + n + R"(,"nested":[{},{}],"t":"},{"}})");
    add(R"({"ph":"s","id":)" + n + R"(,"pid":1,"tid":1,"ts":)" + ts + R"(,"cat":"ac2g","name":"ac2g"})");
    add(R"({"ph": "X", "cat": "kernel", "name": "k\\\"}, {", "pid": 0, "tid": 7, "ts": )" + std::to_string(1003 + i * 10) +
        R"(, "dur": 2, "args": {"correlation": )" + n + R"(, "grid": [1, 2, 3], "block": [4, 1, 1], "device": 0, "stream": 7}})");
    add(R"({"ph":"f","id":)" + n + R"(,"pid":0,"tid":7,"ts":)" + std::to_string(1003 + i * 10) +
        R"(,"cat":"ac2g","name":"ac2g","bp":"e"})");
    if (i % 7 == 0) add(R"({"ph":"B","name":"b}, {","pid":2,"tid":2,"ts":)" + std::to_string(i * 10) + "}");
    if (i % 7 == 3) add(R"({"ph":"E","pid":2,"tid":2,"ts":)" + std::to_string(i * 10) + "}");
    if (i % 11 == 0) add(R"({"ph":"C","name":"mem","pid":1,"ts":)" + ts + R"(,"args":{"bytes":)" + n + "}}");
    if (i % 13 == 0) add(R"({"ph":"Q","name":"unknown","pid":1,"tid":1,"ts":)" + ts + "}");
    if (i % 17 == 0) add("[{\"not\": \"an event\"}, {}]");
  }
  if (!objectForm) return "[" + events + "]";
  return R"({"deviceProperties": [{"id": 0, "name": "GPU}, {"}, {"id": 1}], "traceEvents": [)" + events +
         R"(], "after": [{"a": "}, {"}, {"b": 1}], "traceName": "x"})";
}

std::string referenceDump(const std::string& json) {
  LoadOptions one;
  one.threads = 1;
  one.chunkBytes = json.size() + 1;
  return gapscope::testing::dumpOf(json, one, withOffsets());
}

}  // namespace

class Chunking : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(Chunking, ResultDoesNotDependOnChunkSizeOrThreads) {
  auto [pretty, objectForm] = GetParam();
  const std::string json = adversarialTrace(pretty, objectForm);
  const std::string reference = referenceDump(json);
  ASSERT_EQ(reference.find("ERROR"), std::string::npos) << reference;
  ASSERT_NE(reference.find("flow launch"), std::string::npos);
  for (std::size_t chunk : {64u, 97u, 150u, 256u, 333u, 1000u, 4096u, 20000u}) {
    for (int threads : {1, 2, 3}) {
      LoadOptions o;
      o.threads = threads;
      o.chunkBytes = chunk;
      ASSERT_EQ(gapscope::testing::dumpOf(json, o, withOffsets()), reference)
          << "chunk " << chunk << " threads " << threads;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, Chunking,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()));

TEST(ChunkingErrors, MalformedAndTruncatedAreFoundAtTheSameOffsetWithAnyChunking) {
  const std::string good = adversarialTrace(true, true);
  // A missing comma deep in the file, and the same file cut short.
  std::string bad = good;
  std::size_t at = bad.find(",\n  {", bad.size() / 2);
  bad.erase(at, 1);
  std::string cut = good.substr(0, good.size() * 2 / 3);
  for (const std::string* json : {&bad, &cut}) {
    const std::string reference = referenceDump(*json);
    for (std::size_t chunk : {64u, 150u, 1000u}) {
      for (int threads : {1, 2}) {
        EXPECT_EQ(gapscope::testing::dumpOf(*json, chunked(chunk, threads), withOffsets()), reference);
      }
    }
  }
  EXPECT_NE(referenceDump(bad).find("ERROR: t.json:"), std::string::npos);
  EXPECT_NE(referenceDump(cut).find("TRUNCATED"), std::string::npos);
}

namespace {

// Parsers by the text's size: one per 64 MiB, at least 2, never more than
// the cores allow; an unknown size (a pipe) gets what the cores allow.
TEST(ParserThreads, OneBelow64MiBThenOnePer64MiBUpToWhatTheCoresAllow) {
  using gapscope::io::defaultParserThreads;
  using gapscope::io::parserThreadsFor;
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  const int cores = defaultParserThreads();
  EXPECT_GE(cores, 2);
  EXPECT_LE(cores, 14);
  EXPECT_EQ(parserThreadsFor(0), cores);
  EXPECT_EQ(parserThreadsFor(1), 1);
  EXPECT_EQ(parserThreadsFor(64 * kMiB - 1), 1);
  EXPECT_EQ(parserThreadsFor(64 * kMiB), 2);
  EXPECT_EQ(parserThreadsFor(100 * kMiB), 2);
  EXPECT_EQ(parserThreadsFor(5 * 64 * kMiB), std::min(5, cores));
  EXPECT_EQ(parserThreadsFor(5 * 64 * kMiB - 1), std::min(4, cores));
  EXPECT_EQ(parserThreadsFor(std::uint64_t{1} << 40), cores);
}

}  // namespace
