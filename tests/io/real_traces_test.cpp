// Every real trace in tests/data loads without error, and its counts match
// an independent count made here with nlohmann's SAX parser (which also
// hands over the raw text of each number, so timestamps are checked
// exactly).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace fs = std::filesystem;
using gapscope::Severity;
using gapscope::SliceKind;
using gapscope::io::LoadOptions;
using gapscope::io::LoadResult;
using gapscope::io::loadChromeTrace;

namespace {

// Microseconds as written -> nanoseconds, by string surgery: digits below
// the nanosecond rounded half away from zero, by the first of them (the
// reader's rule, docs/reader.md "Time and units"; Fuchsia's trace writes 7
// decimals, catapult 4).
std::int64_t nanosFromText(const std::string& text) {
  std::size_t dot = text.find('.');
  std::string whole = text.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
  const bool roundAway = frac.size() > 3 && frac[3] >= '5';
  frac.resize(3, '0');
  const std::int64_t v = std::stoll(whole + frac);
  if (!roundAway) return v;
  return text[0] == '-' ? v - 1 : v + 1;
}

struct Expected {
  std::uint64_t events = 0;
  std::map<std::string, std::uint64_t> phases;
  std::uint64_t kernels = 0;
  std::uint64_t counterValues = 0;
  std::int64_t correlationSum = 0;
  std::vector<std::int64_t> completeStarts;
  // The earliest ts of an event that is not metadata (an M event's ts is no
  // time: many writers put 0 there).
  std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
  bool hasBaseTime = false;
  std::int64_t baseTime = 0;
  std::size_t devices = 0;
};

// Counts events with nlohmann's SAX interface: memory stays small even for
// the 35 MB resnet trace.
class Counter : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit Counter(Expected* e) : e_(e) {}

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t v) override { return number(std::to_string(v), v); }
  bool number_unsigned(number_unsigned_t v) override {
    return number(std::to_string(v), static_cast<std::int64_t>(v));
  }
  bool number_float(number_float_t, const string_t& s) override { return number(s, 0); }
  bool string(string_t& s) override {
    if (inEvent(1)) {
      if (key_ == "ph") ph_ = s;
      if (key_ == "cat") cat_ = s;
    }
    return value();
  }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    if (inEventsArray()) {
      ph_.clear();
      cat_.clear();
      tsText_.clear();
      argsNumbers_ = 0;
      correlation_ = 0;
    }
    if (inDevices_ && depth_ == 2) ++e_->devices;
    stack_.push_back('{');
    ++depth_;
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    --depth_;
    if (inEventsArray()) finishEvent();
    return true;
  }
  bool start_array(std::size_t) override {
    if ((depth_ == 0) || (depth_ == 1 && key_ == "traceEvents")) eventsDepth_ = depth_ + 1;
    if (depth_ == 1 && key_ == "deviceProperties") inDevices_ = true;
    stack_.push_back('[');
    ++depth_;
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    --depth_;
    if (depth_ == 1) inDevices_ = false;
    if (eventsDepth_ > 0 && depth_ + 1 == eventsDepth_) eventsDepth_ = 0;  // the events array ended
    return value();
  }
  bool key(string_t& k) override {
    key_ = k;
    if (inEvent(2) && parentKey_ == "args") {
      argsKey_ = k;
    }
    if (inEvent(1)) parentKey_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    ADD_FAILURE() << ex.what();
    return false;
  }

 private:
  bool inEventsArray() const { return eventsDepth_ > 0 && depth_ == eventsDepth_; }
  bool inEvent(int level) const { return eventsDepth_ > 0 && depth_ == eventsDepth_ + level; }
  bool value() {
    if (inEventsArray()) ++e_->events;  // a non-object element
    return true;
  }
  bool number(const std::string& text, std::int64_t v) {
    if (inEvent(1) && key_ == "ts") tsText_ = text;
    if (inEvent(2) && parentKey_ == "args") {
      ++argsNumbers_;
      if (argsKey_ == "correlation") correlation_ = v;
    }
    if (depth_ == 1 && key_ == "baseTimeNanoseconds") {
      e_->hasBaseTime = true;
      e_->baseTime = v;
    }
    return value();
  }
  void finishEvent() {
    ++e_->events;
    ++e_->phases[ph_];
    if (ph_ != "M" && !tsText_.empty()) e_->earliest = std::min(e_->earliest, nanosFromText(tsText_));
    if (ph_ == "X") {
      e_->completeStarts.push_back(nanosFromText(tsText_));
      if (cat_ == "kernel" || cat_ == "Kernel") ++e_->kernels;
      e_->correlationSum += correlation_;
    }
    if (ph_ == "C") e_->counterValues += argsNumbers_;
  }

  Expected* e_;
  std::vector<char> stack_;
  int depth_ = 0;
  int eventsDepth_ = 0;
  bool inDevices_ = false;
  std::string key_, parentKey_, argsKey_, ph_, cat_, tsText_;
  std::uint64_t argsNumbers_ = 0;
  std::int64_t correlation_ = 0;
};

Expected countIndependently(const std::string& path) {
  std::string bytes = gapscope::testing::readFile(path);
  if (bytes.size() > 2 && static_cast<unsigned char>(bytes[0]) == 0x1f) bytes = gapscope::testing::gunzip(bytes);
  Expected e;
  Counter counter(&e);
  EXPECT_TRUE(nlohmann::json::sax_parse(bytes, &counter)) << path;
  std::sort(e.completeStarts.begin(), e.completeStarts.end());
  return e;
}

std::vector<std::string> realTraces() {
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    const std::string p = entry.path().string();
    if (!entry.is_regular_file()) continue;
    bool json = p.ends_with(".json") || p.ends_with(".json.gz");
    if (json && !p.ends_with(".oracle.json")) paths.push_back(p);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// The path under the data folder: two jobs' folders hold the same file names.
std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).lexically_relative(GAPSCOPE_TEST_DATA_DIR).string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace

class RealTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTrace, LoadsWithoutErrorAndCountsMatch) {
  const std::string& path = GetParam();
  LoadResult r = loadChromeTrace(path);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_FALSE(r.truncated);
  // No real trace needs the slow exact walk (it would mean a cut guessed
  // inside an event, or a fast parse failing for another reason).
  EXPECT_EQ(r.stats.rewalkedChunks, 0u);
  EXPECT_GT(r.stats.chunks, 0u);
  const gapscope::Trace& t = *r.trace;
  const Expected e = countIndependently(path);
  auto phase = [&](const char* p) {
    auto it = e.phases.find(p);
    return it == e.phases.end() ? 0 : it->second;
  };
  EXPECT_GT(e.events, 0u);
  EXPECT_EQ(t.eventCount, e.events);
  EXPECT_EQ(t.slices.size(), phase("X") + phase("B") + phase("b"));

  std::uint64_t instants = t.instants.size();
  EXPECT_EQ(instants, phase("i") + phase("I") + phase("n"));
  std::uint64_t counterPoints = 0;
  for (const auto& c : t.counters) counterPoints += c.ts.size();
  EXPECT_EQ(counterPoints, e.counterValues);

  std::uint64_t kernels = 0;
  std::int64_t correlationSum = 0;
  std::vector<std::int64_t> starts;
  for (const auto& s : t.slices) {
    if (s.kind == SliceKind::Kernel) ++kernels;
    if (s.flags & gapscope::kSliceFromBegin || s.kind == SliceKind::Async) continue;
    starts.push_back(s.start);
    correlationSum += s.correlation;
  }
  std::sort(starts.begin(), starts.end());
  EXPECT_EQ(kernels, e.kernels);
  EXPECT_EQ(correlationSum, e.correlationSum);
  EXPECT_EQ(starts, e.completeStarts) << "exact nanosecond starts of X events";
  EXPECT_EQ(t.minTime(), e.earliest) << "the trace starts at its earliest event but metadata";

  std::uint64_t known = 0;
  for (const char* p : {"X", "B", "E", "i", "I", "C", "s", "t", "f", "b", "e", "n", "M"}) known += phase(p);
  EXPECT_EQ(t.issues.count("unknown_phase"), e.events - known);
  EXPECT_EQ(t.metadata.devices.size(), e.devices);
  if (e.hasBaseTime) {
    EXPECT_EQ(t.metadata.baseTimeNanoseconds, e.baseTime);
  }
  for (const auto& issue : t.issues.all()) {
    EXPECT_NE(issue.severity, Severity::Error) << issue.name << ": " << issue.description;
    EXPECT_NE(issue.name, "unparsable_event");
  }
}

TEST_P(RealTrace, SameTraceWithSmallChunksAndMoreThreads) {
  const std::string& path = GetParam();
  gapscope::io::DumpOptions dump = gapscope::testing::withOffsets();
  LoadResult a = loadChromeTrace(path);
  // Small chunks and more threads, each parser reading its own chunks.
  LoadResult b = loadChromeTrace(path, gapscope::testing::chunked(8192, 3));
  // A plain file mapped a chunk at a time instead of read, and read by the
  // producer alone (GAPSCOPE_READ_MODE, kept to compare).
  setenv("GAPSCOPE_READ_MODE", "map", 1);
  LoadResult mapped = loadChromeTrace(path, gapscope::testing::chunked(8192, 3));
  setenv("GAPSCOPE_READ_MODE", "producer", 1);
  LoadResult byProducer = loadChromeTrace(path, gapscope::testing::chunked(8192, 2));
  unsetenv("GAPSCOPE_READ_MODE");
  ASSERT_TRUE(a.ok() && b.ok() && mapped.ok() && byProducer.ok()) << b.error << mapped.error << byProducer.error;
  EXPECT_EQ(b.stats.rewalkedChunks, 0u);
  // The same from memory (a buffer, not a file).
  std::string text = gapscope::testing::readFile(path);
  if (text.size() > 2 && static_cast<unsigned char>(text[0]) == 0x1f) text = gapscope::testing::gunzip(text);
  LoadResult c = gapscope::io::parseChromeTrace(text, gapscope::testing::chunked(8192, 2));
  ASSERT_TRUE(c.ok()) << c.error;
  EXPECT_EQ(c.stats.rewalkedChunks, 0u);
  gapscope::io::DumpOptions noArgs = gapscope::testing::withOffsets();
  noArgs.args = false;
  EXPECT_EQ(gapscope::io::dumpTrace(*a.trace, noArgs), gapscope::io::dumpTrace(*c.trace, noArgs));
  const std::string expected = gapscope::io::dumpTrace(*a.trace, dump);
  EXPECT_EQ(expected, gapscope::io::dumpTrace(*b.trace, dump));
  EXPECT_EQ(expected, gapscope::io::dumpTrace(*mapped.trace, dump));
  EXPECT_EQ(expected, gapscope::io::dumpTrace(*byProducer.trace, dump));
}

INSTANTIATE_TEST_SUITE_P(Data, RealTrace, ::testing::ValuesIn(realTraces()), testName);

TEST(RealTraceDetails, KinetoH200MetadataAndAKnownKernel) {
  LoadResult r = loadChromeTrace(gapscope::testing::dataPath("h200/mlp_eager.json"));
  ASSERT_TRUE(r.ok()) << r.error;
  const gapscope::Trace& t = *r.trace;
  EXPECT_EQ(t.metadata.baseTimeNanoseconds, 1790857026000000000);
  EXPECT_EQ(t.metadata.displayTimeUnit, "ms");
  ASSERT_EQ(t.metadata.devices.size(), 1u);
  EXPECT_EQ(t.metadata.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(t.metadata.devices[0].numSms, 132);
  auto key = std::find_if(t.metadata.otherKeys.begin(), t.metadata.otherKeys.end(),
                          [](const auto& kv) { return kv.first == "traceName"; });
  ASSERT_NE(key, t.metadata.otherKeys.end());  // written after traceEvents
  EXPECT_EQ(key->second, "\"/tmp/traces/mlp_eager.json\"");
  // {"ph": "X", "cat": "kernel", "name": "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_TNT", "pid": 0, "tid": 7,
  //  "ts": 4472705146261.405, "dur": 7.008, ... "correlation": 2246, "grid": [2, 64, 1], "block": [384, 1, 1]}
  std::uint32_t k = t.gpuOpForCorrelation(2246);
  ASSERT_NE(k, gapscope::kNoIndex);
  const gapscope::Slice& s = t.slices[k];
  EXPECT_EQ(t.str(s.name), "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_TNT");
  EXPECT_EQ(s.start, 4472705146261405);
  EXPECT_EQ(s.dur, 7008);
  ASSERT_NE(s.kernelInfo, gapscope::kNoIndex);
  const auto& ki = t.kernelInfos[s.kernelInfo];
  EXPECT_EQ(ki.grid[1], 64);
  EXPECT_EQ(ki.block[0], 384);
  EXPECT_EQ(ki.registersPerThread, 168);
  EXPECT_EQ(ki.sharedMemory, 213268);
  EXPECT_EQ(ki.stream, 7);
  EXPECT_NE(t.launchForCorrelation(2246), gapscope::kNoIndex);
  std::string args = t.argsJson(s);
  EXPECT_EQ(args.front(), '{');
  EXPECT_NE(args.find("\"correlation\": 2246"), std::string::npos) << args;
}

TEST(RealTraceDetails, Kineto2021StringStreamsAndCatapultNanoseconds) {
  LoadResult r = loadChromeTrace(gapscope::testing::dataPath("public/kineto-tb-resnet50-2021/worker0.1623143089861.pt.trace.json.gz"));
  ASSERT_TRUE(r.ok()) << r.error;
  bool streamLabel = false;
  for (const auto& tr : r.trace->tracks) {
    if (tr.kind == gapscope::TrackKind::GpuStream && tr.tid.label != gapscope::kEmptyString) {
      streamLabel = r.trace->str(tr.tid.label).rfind("stream ", 0) == 0;
      if (streamLabel) break;
    }
  }
  EXPECT_TRUE(streamLabel);
  LoadResult f = loadChromeTrace(gapscope::testing::dataPath("public/cat-fuchsia-ns/fuchsia_trace.json.gz"));
  ASSERT_TRUE(f.ok()) << f.error;
  EXPECT_EQ(f.trace->metadata.displayTimeUnit, "ns");
}
