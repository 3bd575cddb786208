// Issue 14: inputs built to freeze the reader. Each is generated here (no
// large files in the repository): a malformed trace through a FIFO, huge
// prologues and events (time must grow linearly), and an error at byte 16
// of a multi-gigabyte file (reported at once, in bounded memory).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "test_util.h"
#include "../support/gzip_text.h"

using gapscope::io::LoadOptions;
using gapscope::io::LoadResult;
using gapscope::io::loadChromeTrace;
using gapscope::io::parseChromeTrace;
using gapscope::testing::TempFile;

namespace {

const std::string kEvents =
    R"([{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":10,"dur":5,"args":{"device":0,"stream":7}},)"
    "\n"
    R"({"ph":"X","name":"k2","cat":"kernel","pid":0,"tid":7,"ts":20,"dur":5,"args":{"device":0,"stream":7}}])";

// Runs `load` with a deadline: a reader that blocks fails the test instead
// of hanging the suite (the process then ends: the blocked thread cannot
// be joined).
LoadResult withDeadline(const std::function<LoadResult()>& load, int seconds = 60) {
  auto future = std::async(std::launch::async, load);
  if (future.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
    ADD_FAILURE() << "the reader did not return within " << seconds << " s";
    std::fflush(nullptr);
    std::_Exit(1);
  }
  return future.get();
}

class Fifo {
 public:
  Fifo() : file_(".fifo") {
    if (::mkfifo(file_.path().c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
  }
  const std::string& path() const { return file_.path(); }

 private:
  TempFile file_;
};

// Writes `bytes` into the FIFO from a thread, then closes it. Returns how
// many bytes the reader took before it closed its end.
std::thread writeInto(const Fifo& fifo, std::string bytes, std::size_t* written = nullptr) {
  return std::thread([path = fifo.path(), bytes = std::move(bytes), written] {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    std::size_t done = 0;
    while (fd >= 0 && done < bytes.size()) {
      ssize_t r = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (r <= 0) break;
      done += static_cast<std::size_t>(r);
    }
    if (fd >= 0) ::close(fd);
    if (written) *written = done;
  });
}

std::string gzipOf(std::string_view text) { return gapscope::testing::gzipText(text); }

double cpuSeconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// CPU seconds of the fastest of three runs.
double fastestOf3(const std::function<void()>& run) {
  double best = 1e9;
  for (int i = 0; i < 3; ++i) {
    const double t0 = cpuSeconds();
    run();
    best = std::min(best, cpuSeconds() - t0);
  }
  return best;
}

// Sanitized builds run about 10x slower: the inputs there are 4x smaller
// (still far past where a quadratic reader shows).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t kSizeDivisor = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr std::size_t kSizeDivisor = 4;
#else
constexpr std::size_t kSizeDivisor = 1;
#endif
#else
constexpr std::size_t kSizeDivisor = 1;
#endif

// The reader takes one parser below 64 MiB of text and more above, whose
// hand-offs cost CPU time of their own: the sizes compared get the same
// threads, one (all on the calling thread) and two (the pipeline).
constexpr int kLinearThreads[] = {1, 2};
LoadOptions withThreads(int threads) {
  LoadOptions o;
  o.threads = threads;
  return o;
}

// Reading 4x the input must cost about 4x the CPU time: far below 16x,
// which a reader that rescans what it read (quadratic) needs. `prepare(n)`
// makes an input of about n bytes (not timed) and returns its reading.
using Reading = std::function<void()>;
void expectLinear(const std::function<Reading(std::size_t)>& prepare, std::size_t small) {
  small /= kSizeDivisor;
  Reading one = prepare(small);
  one();  // warm up allocators and caches
  const double t1 = fastestOf3(one);
  Reading four = prepare(4 * small);
  four();
  const double t4 = fastestOf3(four);
  EXPECT_LT(t4, 8 * std::max(t1, 0.005)) << "1x: " << t1 << " s, 4x: " << t4 << " s";
}

std::size_t peakRssBytes() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;
}

}  // namespace

// ---- 1. Never re-open the input: FIFOs, pipes, stdin ----------------------

TEST(HostileFifo, MalformedTraceThroughAFifoFailsWithItsPosition) {
  Fifo fifo;
  const std::string json = "{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": 1, \"dur\": 2,}\n]}";
  std::thread writer = writeInto(fifo, json);
  LoadResult r = withDeadline([&] { return loadChromeTrace(fifo.path()); });
  writer.join();
  const std::size_t at = json.find(",}") + 1;
  EXPECT_EQ(r.error, fifo.path() + ":2:" + std::to_string(at - json.find('\n')) + " (byte " +
                         std::to_string(at) + "): expected '\"' to start an object key, found '}'");
}

TEST(HostileFifo, ErrorAfterManyLinesHasItsLineAndColumn) {
  Fifo fifo;
  std::string json = "{\"traceEvents\": [\n";
  for (int i = 0; i < 20000; ++i) {
    json += R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":)" + std::to_string(i) + ",\"dur\":1},\n";
  }
  const std::size_t at = json.size() + 12;
  json += "  {\"ph\":\"X\" \"ts\":1}]}";
  std::thread writer = writeInto(fifo, json);
  LoadResult r = withDeadline([&] { return loadChromeTrace(fifo.path(), gapscope::testing::chunked(4096)); });
  writer.join();
  EXPECT_EQ(r.error, fifo.path() + ":20002:13 (byte " + std::to_string(at) +
                         "): expected ',' or '}' after an object member, found '\"'");
  ASSERT_TRUE(r.trace);
  EXPECT_EQ(r.trace->slices.size(), 20000u);
}

TEST(HostileFifo, ValidTraceAndGzipThroughAFifoLoad) {
  for (bool gzip : {false, true}) {
    Fifo fifo;
    std::string json = "{\"traceEvents\": " + kEvents + "}";
    std::thread writer = writeInto(fifo, gzip ? gzipOf(json) : json);
    LoadResult r = withDeadline([&] { return loadChromeTrace(fifo.path()); });
    writer.join();
    EXPECT_TRUE(r.ok()) << r.error;
    ASSERT_TRUE(r.trace);
    EXPECT_EQ(r.trace->slices.size(), 2u) << (gzip ? "gzip" : "plain");
    // Args come from the arena (a pipe cannot be read again at an offset).
    EXPECT_EQ(r.trace->argsJson(r.trace->slices[0].args), R"({"device":0,"stream":7})");
  }
}

TEST(HostileFifo, WriterClosedBeforeTheReaderOpens) {
  // A FIFO whose writer wrote a broken trace and closed: the reader gets the
  // bytes once and EOF, and must not wait for more.
  Fifo fifo;
  std::string json = "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": tru}]}";
  std::thread writer = writeInto(fifo, json);
  LoadResult r = withDeadline([&] { return loadChromeTrace(fifo.path()); });
  writer.join();
  EXPECT_NE(r.error.find(":1:"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("(byte " + std::to_string(json.find("tru}") + 3) + ")"), std::string::npos) << r.error;
}

// ---- 2. Linear in the input, whatever its shape ---------------------------

TEST(HostileLinear, GzipOfOnlySpaces) {
  // Before: the prologue was walked again after every read (512 MiB: > 60 s).
  for (int threads : kLinearThreads) {
    expectLinear(
        [threads](std::size_t n) -> Reading {
          auto f = std::make_shared<TempFile>(".json.gz");
          f->write(gzipOf(std::string(n, ' ')));
          return [f, n, threads] {
            LoadResult r = loadChromeTrace(f->path(), withThreads(threads));
            ASSERT_NE(r.error.find("the file contains only white space"), std::string::npos) << r.error;
            ASSERT_NE(r.error.find("(byte " + std::to_string(n) + ")"), std::string::npos) << r.error;
          };
        },
        16 << 20);
  }
}

TEST(HostileLinear, LongStringMemberBeforeTraceEvents) {
  for (int threads : kLinearThreads) {
    expectLinear(
        [threads](std::size_t n) -> Reading {
          auto json = std::make_shared<std::string>("{\"systemTraceEvents\":\"" + std::string(n, 'x') +
                                                    "\",\"traceEvents\":" + kEvents + "}");
          return [json, threads] {
            LoadResult r = parseChromeTrace(*json, withThreads(threads));
            ASSERT_TRUE(r.ok()) << r.error;
            ASSERT_EQ(r.trace->slices.size(), 2u);
            ASSERT_EQ(r.trace->issues.count("top_level_value_skipped"), 1u);
          };
        },
        16 << 20);
  }
}

TEST(HostileLinear, LongMemberAfterTraceEvents) {
  expectLinear(
      [](std::size_t n) -> Reading {
        std::string numbers;
        while (numbers.size() < n / 2) numbers += "[1.5e3,{\"k\":null}],";
        auto json = std::make_shared<std::string>("{\"traceEvents\":" + kEvents + ",\"x\":\"" + std::string(n / 2, 'x') +
                                                  "\",\"y\":[" + numbers + "0]}");
        return [json] {
          LoadResult r = parseChromeTrace(*json);
          ASSERT_TRUE(r.ok()) << r.error;
          ASSERT_EQ(r.trace->slices.size(), 2u);
          ASSERT_EQ(r.trace->issues.count("top_level_value_skipped"), 2u);
        };
      },
      8 << 20);
}

TEST(HostileLinear, OneHugeEventFullOfGuessedCuts) {
  // "}, {" inside a string makes every chunk's cut a wrong guess.
  expectLinear(
      [](std::size_t n) -> Reading {
        std::string big;
        while (big.size() < n) big += "}, {";
        auto json = std::make_shared<std::string>("[{\"ph\":\"X\",\"name\":\"" + big +
                                                  "\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n" + kEvents.substr(1));
        return [json] {
          // 64 KiB chunks: a reader that parses the carried event again with
          // every chunk does 128 times the work for 4x the input.
          LoadOptions o = gapscope::testing::chunked(64 << 10);
          o.maxEventBytes = 256 << 20;
          LoadResult r = parseChromeTrace(*json, o);
          ASSERT_TRUE(r.ok()) << r.error;
          ASSERT_EQ(r.trace->slices.size(), 3u);
        };
      },
      2 << 20);
}

TEST(HostileLinear, EventsArrayOfWhiteSpace) {
  for (int threads : kLinearThreads) {
    expectLinear(
        [threads](std::size_t n) -> Reading {
          auto json = std::make_shared<std::string>("{\"traceEvents\":[" + std::string(n, ' ') + "]}");
          return [json, threads] {
            LoadResult r = parseChromeTrace(*json, withThreads(threads));
            ASSERT_TRUE(r.ok()) << r.error;
            ASSERT_EQ(r.trace->slices.size(), 0u);
          };
        },
        16 << 20);
  }
}

TEST(HostileWindow, EventOverTheLimitIsCheckedAndDropped) {
  std::string json = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"big\",\"args\":{\"s\":\"" + std::string(5000, 'y') +
                     "\"},\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n" + kEvents.substr(1) + "}";
  // (The window is at least a chunk: an event that fits one is always read.)
  for (std::size_t chunk : {64u, 100u, 1000u}) {
    LoadOptions o = gapscope::testing::chunked(chunk);
    o.maxEventBytes = 1024;
    LoadResult r = parseChromeTrace(json, o);
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.trace->slices.size(), 2u) << "chunk " << chunk;
    const gapscope::ImportIssue* issue = r.trace->issues.find("event_too_large");
    ASSERT_NE(issue, nullptr) << "chunk " << chunk;
    EXPECT_EQ(issue->firstOffset, json.find("{\"ph\":\"X\",\"name\":\"big\""));
  }
  // An error inside an event that is too big to hold is still found, at its byte.
  std::string broken = json;
  broken[json.find("yyyy") + 3000] = '\x01';
  LoadOptions o = gapscope::testing::chunked(256);
  o.maxEventBytes = 1024;
  LoadResult r = parseChromeTrace(broken, o);
  EXPECT_NE(r.error.find("(byte " + std::to_string(json.find("yyyy") + 3000) +
                         "): unescaped control character in a string"),
            std::string::npos)
      << r.error;
}

// ---- 3. An early error is reported at once, in bounded memory -------------

TEST(HostileEarlyError, SixGiBSparseFileWithAnErrorAtByte16) {
  TempFile f(".json");
  const std::string head = "{\"traceEvents\":[{x";
  {
    int fd = ::open(f.path().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, head.data(), head.size()), static_cast<ssize_t>(head.size()));
    ASSERT_EQ(::ftruncate(fd, off_t{6} << 30), 0);  // 6 GiB, the rest a hole of zero bytes
    ::close(fd);
  }
  const std::size_t rssBefore = peakRssBytes();
  const auto t0 = std::chrono::steady_clock::now();
  LoadResult r = withDeadline([&] { return loadChromeTrace(f.path()); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.error, f.path() + ":1:18 (byte 17): expected '\"' to start an object key, found 'x'");
  EXPECT_LT(seconds, 5.0);
  EXPECT_LT(peakRssBytes() - rssBefore, std::size_t{128} << 20) << "peak RSS grew by more than 128 MiB";
}

TEST(HostileEarlyError, EndlessPipeStopsBeingReadAfterTheError) {
  // A pipe of 4 GiB of text without a single cut after an error at byte
  // 17: the reader stops after a bounded window, and the writer sees the
  // pipe close.
  ::signal(SIGPIPE, SIG_IGN);
  Fifo fifo;
  std::size_t written = 0;
  std::thread writer([path = fifo.path(), &written] {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    std::string block(1 << 20, 'a');
    const std::string head = "{\"traceEvents\":[{x";
    if (::write(fd, head.data(), head.size()) > 0) written += head.size();
    while (written < (std::size_t{4} << 30)) {
      ssize_t r = ::write(fd, block.data(), block.size());
      if (r <= 0) break;
      written += static_cast<std::size_t>(r);
    }
    ::close(fd);
  });
  LoadResult r = withDeadline([&] { return loadChromeTrace(fifo.path()); });
  writer.join();
  EXPECT_EQ(r.error, fifo.path() + ":1:18 (byte 17): expected '\"' to start an object key, found 'x'");
  EXPECT_LT(written, std::size_t{64} << 20) << "the reader read on long after the error";
}

TEST(HostileEarlyError, GzipOfManyGiBStopsSoon) {
  // Concatenated gzip members: 1 MiB of 'a' each, 4096 of them (4 GiB of
  // text in a few MB), after a first member holding the broken start.
  TempFile f(".json.gz");
  std::string gz = gzipOf("{\"traceEvents\":[{x");
  const std::string member = gzipOf(std::string(1 << 20, 'a'));
  for (int i = 0; i < 4096; ++i) gz += member;
  f.write(gz);
  const auto t0 = std::chrono::steady_clock::now();
  LoadResult r = withDeadline([&] { return loadChromeTrace(f.path()); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.error, f.path() + ":1:18 (byte 17): expected '\"' to start an object key, found 'x'");
  EXPECT_LT(seconds, 3.0) << "inflating the whole file takes about 4-8 s";
}
