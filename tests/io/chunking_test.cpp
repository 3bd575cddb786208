// The text is cut into chunks at guessed event boundaries ("}" "," "{").
// Guesses inside strings or nested args must be caught and repaired: the
// result may never depend on the chunk size or the number of threads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

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
    // 8: ten chunks in flight, many behind a late one.
    for (int threads : {1, 2, 3, 8}) {
      LoadOptions o;
      o.threads = threads;
      o.chunkBytes = chunk;
      ASSERT_EQ(gapscope::testing::dumpOf(json, o, withOffsets()), reference)
          << "chunk " << chunk << " threads " << threads;
    }
  }
}

// A plain file read with more than one parser: each parser reads its own
// chunk's text and the producer only looks at the bytes before each cut;
// GAPSCOPE_READ_MODE=producer reads it all on the producer.
TEST_P(Chunking, FromAFileTheSameWhoeverReadsTheText) {
  auto [pretty, objectForm] = GetParam();
  const std::string json = adversarialTrace(pretty, objectForm);
  const std::string reference = referenceDump(json);
  for (std::size_t chunk : {64u, 150u, 1000u, 20000u}) {
    for (int threads : {1, 2, 3}) {
      for (const char* mode : {"", "producer"}) {
        ASSERT_EQ(gapscope::testing::fileDumpOf(json, chunked(chunk, threads), withOffsets(), mode), reference)
            << "chunk " << chunk << " threads " << threads << " mode '" << mode << "'";
      }
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

// Events of 30 KiB and one of 300 KiB: the producer's 16 KiB look before a
// chunk's nominal end finds no cut and looks further back, up to the whole
// chunk (which then goes on uncut).
TEST(ChunkingFromFile, EventsLongerThanTheProducersLookAtAChunksEnd) {
  std::string json = "[";
  for (int i = 0; i < 40; ++i) {
    if (i) json += i % 2 ? ",\n" : ",";
    const std::size_t length = i == 20 ? 300000 : 30000 + static_cast<std::size_t>(i) * 97;
    json += R"({"ph":"X","name":"e)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(i * 10) +
            R"(,"dur":5,"args":{"s":")" + std::string(length, 'x') + (i % 3 ? "" : "}, {") + R"("}})";
  }
  json += "]";
  const std::string reference = referenceDump(json);
  ASSERT_EQ(reference.find("ERROR"), std::string::npos) << reference.substr(0, 300);
  ASSERT_NE(reference.find("e39"), std::string::npos);
  for (std::size_t chunk : {std::size_t{64} << 10, std::size_t{256} << 10}) {
    for (int threads : {2, 3}) {
      EXPECT_EQ(gapscope::testing::fileDumpOf(json, chunked(chunk, threads), withOffsets()), reference)
          << "chunk " << chunk << " threads " << threads;
    }
  }
}

// The file is cut to 300 bytes once the first chunk is merged: the chunks
// read after that fail, the load says why and keeps what was read before,
// whether one thread reads it all or each parser reads its chunks.
class ShrinkingFile : public ::testing::TestWithParam<int> {};

TEST_P(ShrinkingFile, KeepsWhatWasReadAndSaysSo) {
  const std::string json = adversarialTrace(false, false);
  gapscope::testing::TempFile file(".json");
  file.write(json);
  LoadOptions options = chunked(256, GetParam());
  bool shrunk = false;
  options.progress = [&](std::uint64_t, std::uint64_t) {
    if (!shrunk) shrunk = ::truncate(file.path().c_str(), 300) == 0;
  };
  gapscope::io::LoadResult r = gapscope::io::loadChromeTrace(file.path(), options);
  ASSERT_TRUE(shrunk);
  EXPECT_NE(r.error.find(file.path() + ": read error at byte "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("the file got shorter while loading"), std::string::npos) << r.error;
  ASSERT_TRUE(r.trace.has_value());
  gapscope::io::LoadResult whole = parseChromeTrace(json);
  ASSERT_TRUE(whole.ok());
  EXPECT_GT(r.trace->slices.size(), 0u);
  EXPECT_LT(r.trace->slices.size(), whole.trace->slices.size());
  // Only events of the file, each once (text left in a reused buffer by a
  // chunk before would come in twice).
  std::map<std::pair<std::string, gapscope::TimeNs>, int> left;
  for (const auto& s : whole.trace->slices) ++left[{std::string(whole.trace->str(s.name)), s.start}];
  for (const auto& s : r.trace->slices) {
    const int remaining = --left[{std::string(r.trace->str(s.name)), s.start}];
    EXPECT_GE(remaining, 0) << r.trace->str(s.name) << " at " << s.start;
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ShrinkingFile, ::testing::Values(1, 2, 3));

namespace {

// Parsers by the text's size: one below 64 MiB, then one per 16 MiB, at
// least 2, never more than the cores allow; an unknown size (a pipe) gets
// what the cores allow.
TEST(ParserThreads, OneBelow64MiBThenOnePer16MiBUpToWhatTheCoresAllow) {
  using gapscope::io::defaultParserThreads;
  using gapscope::io::parserThreadsFor;
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  const int cores = defaultParserThreads();
  EXPECT_GE(cores, 2);
  EXPECT_LE(cores, 14);
  EXPECT_EQ(parserThreadsFor(0), cores);
  EXPECT_EQ(parserThreadsFor(1), 1);
  EXPECT_EQ(parserThreadsFor(64 * kMiB - 1), 1);
  EXPECT_EQ(parserThreadsFor(64 * kMiB), std::min(4, cores));
  EXPECT_EQ(parserThreadsFor(80 * kMiB - 1), std::min(4, cores));
  EXPECT_EQ(parserThreadsFor(80 * kMiB), std::min(5, cores));
  EXPECT_EQ(parserThreadsFor(9 * 16 * kMiB), std::min(9, cores));
  EXPECT_EQ(parserThreadsFor(9 * 16 * kMiB - 1), std::min(8, cores));
  EXPECT_EQ(parserThreadsFor(std::uint64_t{1} << 40), cores);
}

// Chunks: the biggest power of two from 64 KiB to 1 MiB such that all the
// parsers' chunks together are at most 1/128 of the text (each, with one or
// two parsers), whether the text is stored plain or gzipped.
TEST(ChunkBytes, AllParsersChunksTogetherAtMostA128thOfTheText) {
  using gapscope::io::defaultChunkBytes;
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  constexpr std::size_t kKiB = 1024;
  EXPECT_EQ(defaultChunkBytes(0, 1), 64 * kKiB);
  EXPECT_EQ(defaultChunkBytes(10 * kMiB, 1), 64 * kKiB);
  EXPECT_EQ(defaultChunkBytes(16 * kMiB, 1), 128 * kKiB);
  EXPECT_EQ(defaultChunkBytes(16 * kMiB - 1, 1), 64 * kKiB);
  EXPECT_EQ(defaultChunkBytes(30 * kMiB, 1), 128 * kKiB);
  EXPECT_EQ(defaultChunkBytes(100 * kMiB, 2), 512 * kKiB);
  EXPECT_EQ(defaultChunkBytes(100 * kMiB, 3), 256 * kKiB);
  EXPECT_EQ(defaultChunkBytes(100 * kMiB, 5), 128 * kKiB);
  EXPECT_EQ(defaultChunkBytes(500 * kMiB, 14), 256 * kKiB);
  EXPECT_EQ(defaultChunkBytes(500 * kMiB, 7), 512 * kKiB);
  EXPECT_EQ(defaultChunkBytes(4096 * kMiB, 14), 1024 * kKiB);
  for (std::uint64_t text : {64 * kMiB, 333 * kMiB, 1500 * kMiB}) {
    for (int parsers : {3, 5, 14}) {
      const std::size_t chunk = defaultChunkBytes(text, parsers);
      // The biggest power of two within the share, unless 64 KiB or 1 MiB bound it.
      if (chunk > 64 * kKiB) {
        EXPECT_LE(chunk * static_cast<std::uint64_t>(parsers), text / 128) << text << " " << parsers;
      }
      if (chunk < 1024 * kKiB) {
        EXPECT_GT(2 * chunk * static_cast<std::uint64_t>(parsers), text / 128) << text << " " << parsers;
      }
    }
  }
}

}  // namespace

// Kernels launched alike share one KernelInfo, whichever chunk read them;
// each kernel still gets the configuration its own args give.
TEST(ChunkingKernelInfos, EachDistinctLaunchConfigurationKeptOnce) {
  const int configs = 5;
  const int kernels = 600;
  std::string json = "[";
  for (int i = 0; i < kernels; ++i) {
    const int c = (i * 7) % configs;  // configurations interleaved, not in runs
    if (i > 0) json += ",";
    json += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(i * 10) +
            R"(,"dur":2,"args":{"grid":[)" + std::to_string(c + 1) + R"(,1,1],"block":[128,1,1],"registers per thread":)" +
            std::to_string(32 + c) + R"(,"device":0,"stream":7}})";
  }
  json += "]";
  for (std::size_t chunkBytes : {std::size_t{512}, std::size_t{4096}, json.size() + 1}) {
    for (int threads : {1, 3}) {
      LoadOptions o;
      o.chunkBytes = chunkBytes;
      o.threads = threads;
      auto r = parseChromeTrace(json, o);
      ASSERT_TRUE(r.ok()) << r.error;
      const gapscope::Trace& t = *r.trace;
      EXPECT_EQ(t.kernelInfos.size(), static_cast<std::size_t>(configs)) << "chunks of " << chunkBytes;
      ASSERT_EQ(t.slices.size(), static_cast<std::size_t>(kernels));
      for (const gapscope::Slice& s : t.slices) {
        const int c = static_cast<int>((s.start / 10000 * 7) % configs);
        ASSERT_LT(s.kernelInfo, t.kernelInfos.size());
        const gapscope::KernelInfo& k = t.kernelInfos[s.kernelInfo];
        EXPECT_EQ(k.grid[0], c + 1);
        EXPECT_EQ(k.registersPerThread, 32 + c);
        EXPECT_EQ(k.block[0], 128);
        EXPECT_EQ(k.stream, 7);
      }
    }
  }
}

// Where configurations do not repeat across chunks (every kernel's grid its
// own here), the merge stops interning them and appends: each kernel still
// gets its own configuration, whatever the chunking.
TEST(ChunkingKernelInfos, EveryKernelKeepsItsOwnWhereNoneRepeat) {
  const int kernels = 6000;
  std::string json = "[";
  for (int i = 0; i < kernels; ++i) {
    if (i > 0) json += ",";
    json += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(i * 10) +
            R"(,"dur":2,"args":{"grid":[)" + std::to_string(i + 1) + R"(,1,1],"block":[128,1,1],"device":0,"stream":7}})";
  }
  json += "]";
  for (std::size_t chunkBytes : {std::size_t{4096}, json.size() + 1}) {
    LoadOptions o;
    o.chunkBytes = chunkBytes;
    o.threads = 2;
    auto r = parseChromeTrace(json, o);
    ASSERT_TRUE(r.ok()) << r.error;
    const gapscope::Trace& t = *r.trace;
    EXPECT_EQ(t.kernelInfos.size(), static_cast<std::size_t>(kernels));
    ASSERT_EQ(t.slices.size(), static_cast<std::size_t>(kernels));
    for (const gapscope::Slice& s : t.slices) {
      ASSERT_LT(s.kernelInfo, t.kernelInfos.size());
      EXPECT_EQ(t.kernelInfos[s.kernelInfo].grid[0], s.start / 10000 + 1);
    }
  }
}
