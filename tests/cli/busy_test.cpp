// One definition of GPU busy: on every real trace in tests/data,
// `gapscope-cli summary` and `gapscope-cli gaps` print the same busy time per
// device, to the nanosecond, and it equals a count made here from the JSON
// itself (the union of each device's kernel, memcpy and memset intervals,
// with times taken from the decimal text, never through a double).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "../support/read_text.h"
#include "cli_run.h"

namespace gapscope::testing {
namespace {

namespace fs = std::filesystem;

using Interval = std::pair<long long, long long>;

// Collects the X events of GPU activity categories, per pid (the device in
// Kineto traces), from the top-level traceEvents array (or a bare array).
class GpuEvents : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::map<long long, std::vector<Interval>> byDevice;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return number(s); }
  bool string(string_t& s) override {
    if (inEvent()) fields_[key_] = s;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    stack_.push_back('{');
    if (inEvent()) fields_.clear();
    return true;
  }
  bool end_object() override {
    if (inEvent()) finishEvent();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    stack_.push_back('[');
    if (stack_.size() == 2 && key_ == "traceEvents") eventsDepth_ = 3;
    if (stack_.size() == 1) eventsDepth_ = 2;  // a bare array of events
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool inEvent() const { return eventsDepth_ > 0 && stack_.size() == eventsDepth_ && stack_.back() == '{'; }
  bool number(const std::string& text) {
    if (inEvent()) fields_[key_] = text;
    return true;
  }
  void finishEvent() {
    static const char* kGpuCategories[] = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"};
    const std::string& cat = fields_["cat"];
    if (fields_["ph"] != "X" || std::none_of(std::begin(kGpuCategories), std::end(kGpuCategories),
                                             [&](const char* c) { return cat == c; }))
      return;
    const long long start = usTextToNs(fields_["ts"]);
    byDevice[std::stoll(fields_["pid"])].emplace_back(start, start + usTextToNs(fields_["dur"]));
  }
  std::vector<char> stack_;
  std::size_t eventsDepth_ = 0;
  std::string key_;
  std::map<std::string, std::string> fields_;
};

long long unionLength(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  long long total = 0, runStart = 0, runEnd = 0;
  bool open = false;
  for (auto [a, b] : v) {
    if (b <= a) continue;
    if (open && a <= runEnd) {
      runEnd = std::max(runEnd, b);
      continue;
    }
    if (open) total += runEnd - runStart;
    runStart = a;
    runEnd = b;
    open = true;
  }
  return open ? total + runEnd - runStart : total;
}

std::vector<fs::path> realTraces() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    const std::string name = e.path().filename().string();
    if (name.find(".oracle.") != std::string::npos) continue;
    if (name.ends_with(".json") || name.ends_with(".json.gz")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

nlohmann::json cliJson(const std::vector<std::string>& args) {
  const CliResult r = runCli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

double us(long long ns) { return static_cast<double>(ns) / 1000.0; }

TEST(OneGpuBusy, SummaryAndGapsAgreeWithTheJsonOnEveryRealTrace) {
  const auto traces = realTraces();
  ASSERT_GE(traces.size(), 14u);
  int withGpu = 0;
  for (const fs::path& path : traces) {
    SCOPED_TRACE(path.string());
    GpuEvents events;
    const std::string text = readMaybeGzipped(path);
    ASSERT_TRUE(nlohmann::json::sax_parse(text, &events)) << "the independent parser failed";
    const auto summary = cliJson({"summary", path.string(), "--format", "json"});
    const auto gaps = cliJson({"gaps", path.string(), "--format", "json", "--limit", "0"});
    long long expectedTotal = 0;
    for (const auto& [device, intervals] : events.byDevice) expectedTotal += unionLength(intervals);
    EXPECT_EQ(summary.at("gpu_busy_us").get<double>(), us(expectedTotal));
    const auto& perDevice = summary.at("gpu_busy_per_device");
    ASSERT_EQ(perDevice.size(), events.byDevice.size());
    ASSERT_EQ(gaps.at("devices").size(), events.byDevice.size());
    std::size_t i = 0;
    for (const auto& [device, intervals] : events.byDevice) {
      const double expected = us(unionLength(intervals));
      EXPECT_EQ(perDevice[i].at("device").get<long long>(), device);
      EXPECT_EQ(perDevice[i].at("busy_us").get<double>(), expected);
      EXPECT_EQ(gaps.at("devices")[i].at("busy_us").get<double>(), expected);
      EXPECT_EQ(gaps.at("devices")[i].at("active_us").get<double>(), perDevice[i].at("active_us").get<double>());
      ++i;
    }
    withGpu += expectedTotal > 0;
    // One verdict whichever command prints it: --per-step only adds a table.
    const auto perStep = cliJson({"gaps", path.string(), "--format", "json", "--limit", "0", "--per-step"});
    EXPECT_EQ(gaps.at("verdict"), perStep.at("verdict"));
    EXPECT_EQ(gaps.at("verdict"), summary.at("verdict"));
  }
  EXPECT_GE(withGpu, 12);  // the two catapult traces have no GPU
}

}  // namespace
}  // namespace gapscope::testing
