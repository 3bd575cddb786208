// Issue 14: nothing absurd is ever printed. The invariants of
// gapscope/analysis/invariants.h hold on every real trace in tests/data and
// on generated traces with times anywhere in the allowed range (the
// extremes included), and the checker catches each kind of violation.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "gapscope/analysis/invariants.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace {

std::vector<std::string> invariantsOf(const std::string& json) {
  io::LoadResult r = io::parseChromeTrace(json);
  EXPECT_TRUE(r.trace.has_value()) << r.error;
  if (!r.trace) return {"no trace"};
  TraceAnalysis a(std::make_shared<const Trace>(std::move(*r.trace)));
  a.computeAll();
  return checkInvariants(a);
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(Invariants, HoldOnEveryRealTrace) {
  int traces = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.find(".oracle") != std::string::npos) continue;
    if (!path.ends_with(".json") && !path.ends_with(".json.gz")) continue;
    io::LoadResult r = io::loadChromeTrace(path);
    if (!r.trace) continue;
    TraceAnalysis a(std::make_shared<const Trace>(std::move(*r.trace)));
    const auto broken = checkInvariants(a);
    EXPECT_TRUE(broken.empty()) << path << ":\n" << joined(broken);
    ++traces;
  }
  EXPECT_GT(traces, 10);
}

// A random trace: nested CPU ops with launches, kernels and memcpys on a few
// streams of two devices, flows, at times drawn near 0 or near the limits.
std::string randomTrace(std::mt19937_64& rng) {
  const TimeNs limitUs = kMaxAbsTimeNs / 1000;
  std::uniform_int_distribution<int> coin(0, 3);
  auto time = [&](bool allowExtreme) {
    if (allowExtreme && coin(rng) == 0) {
      return std::uniform_int_distribution<TimeNs>(-limitUs, limitUs)(rng);
    }
    return std::uniform_int_distribution<TimeNs>(0, 2000)(rng);
  };
  std::string out = "{\"traceEvents\":[";
  const char* cats[] = {"cpu_op", "cuda_runtime", "kernel", "gpu_memcpy", "user_annotation", "gpu_user_annotation"};
  const int events = std::uniform_int_distribution<int>(1, 60)(rng);
  for (int i = 0; i < events; ++i) {
    const std::string cat = cats[std::uniform_int_distribution<int>(0, 5)(rng)];
    const bool gpu = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_user_annotation";
    const int stream = 7 + coin(rng);
    const int device = coin(rng) & 1;
    TimeNs ts = time(true);
    TimeNs dur = std::min<TimeNs>(time(true) < 0 ? 0 : time(false), limitUs);
    if (coin(rng) == 0) dur = limitUs - (ts > 0 ? ts : 0);
    std::string name = cat == "cuda_runtime" ? "cudaLaunchKernel" : cat == "user_annotation" ? "ProfilerStep#" + std::to_string(coin(rng)) : "op" + std::to_string(coin(rng));
    out += (i ? "," : "") + std::string("{\"ph\":\"X\",\"cat\":\"") + cat + "\",\"name\":\"" + name +
           "\",\"pid\":" + (gpu ? std::to_string(device) : "1") + ",\"tid\":" +
           (gpu ? std::to_string(stream) : std::to_string(coin(rng))) + ",\"ts\":" + std::to_string(ts) +
           ",\"dur\":" + std::to_string(dur) + ",\"args\":{\"correlation\":" + std::to_string(1 + coin(rng)) +
           (gpu ? ",\"device\":" + std::to_string(device) + ",\"stream\":" + std::to_string(stream) : "") + "}}";
  }
  return out + "]}";
}

TEST(Invariants, HoldOnRandomTracesWithExtremeTimes) {
  std::mt19937_64 rng(14);
  for (int i = 0; i < 300; ++i) {
    const std::string json = randomTrace(rng);
    const auto broken = invariantsOf(json);
    ASSERT_TRUE(broken.empty()) << json << "\n" << joined(broken);
  }
}

// Found by fuzz_analysis (tests/fuzz/regressions/analysis/
// summary-end-past-the-time-limit.json): a kernel at 10 us lasting the
// longest duration there may be (3e15 us) ends past the limit a timestamp
// may have, as the model allows (time_limits.h: an end is a start plus a
// duration); the checker called that end out of range.
TEST(Invariants, AnEndMayLiePastTheLimitOfATimestamp) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":10,"dur":3000000000000000,)"
      R"("args":{"device":0,"stream":7}}]})";
  io::LoadResult r = io::parseChromeTrace(json);
  ASSERT_TRUE(r.trace.has_value());
  TraceAnalysis a(std::make_shared<const Trace>(std::move(*r.trace)));
  a.computeAll();
  EXPECT_EQ(a.summary().end, 10'000 + kMaxAbsTimeNs);
  EXPECT_TRUE(checkInvariants(a).empty()) << joined(checkInvariants(a));
  EXPECT_TRUE(isEndInRange(2 * kMaxAbsTimeNs));
  EXPECT_FALSE(isEndInRange(2 * kMaxAbsTimeNs + 1));
  EXPECT_FALSE(isEndInRange(-kMaxAbsTimeNs - 1));
}

TEST(Invariants, TheCheckerCatchesEachKind) {
  TraceSummary summary;
  summary.slices = 1;
  summary.start = 100;
  summary.end = 50;  // a negative span
  GpuBusy busy;
  DeviceBusy device;
  device.device = 0;
  device.busy = 30;
  device.firstStart = 60;
  device.lastEnd = 80;  // busy longer than the active window
  busy.devices.push_back(device);  // and no stream: streams busy less than the device
  GapAnalysis gaps;
  gaps.verdict.utilization = 1.5;  // 150 %
  OpTable ops;
  OpRow row;
  row.name = "aten::mm";
  row.calls = 1;
  row.selfCpu = -5;  // a negative self time
  row.cpuTotal = 10;
  ops.rows.push_back(row);
  KernelTable kernels;
  const auto broken = checkInvariants(AnalysisParts{summary, busy, gaps, ops, kernels});
  const std::string text = joined(broken);
  for (const char* expected : {"a negative span", "busy longer than the active window",
                               "streams busy less than their device", "a percentage outside 0..100 (verdict",
                               "self CPU outside 0..total (op aten::mm"}) {
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in:\n" << text;
  }
}

}  // namespace
}  // namespace gapscope::analysis
