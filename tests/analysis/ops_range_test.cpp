// The operator table over a time range: only events that start inside it
// make rows. Checked on a built trace (the boundaries), against counts made
// here from a real trace's JSON, and by splitting a real trace in two.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "gapscope/analysis/ops_table.h"
#include "gapscope/io/chrome_reader.h"
#include "../support/json_time.h"
#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

namespace fs = std::filesystem;
using testing::exactNs;
using testing::TraceMaker;

const fs::path kTrainAdam = fs::path(GAPSCOPE_TEST_DATA_DIR) / "h100" / "train_adam.json";

const OpRow* findRow(const OpTable& t, const std::string& name, OpDevice device) {
  for (const auto& r : t.rows) {
    if (r.name == name && r.device == device) return &r;
  }
  return nullptr;
}

TEST(OpsTableRange, CountsEventsThatStartInsideTheHalfOpenRange) {
  TraceMaker m;
  m.cpu("outer", "cpu_op", 0, 1000).cpu("early", "cpu_op", 50, 100).launch(60, 10, 1);
  m.cpu("inside", "cpu_op", 200, 300).launch(210, 10, 2).cpu("at_end", "cpu_op", 600, 10);
  m.kernel("k1", 100, 20, 1).kernel("k2", 700, 40, 2);  // k2 runs after the range
  OpTable t = buildOpTable(m.finish(), OpTableOptions{false, TimeRange{200, 600}});
  EXPECT_EQ(findRow(t, "outer", OpDevice::Cpu), nullptr);  // starts before
  EXPECT_EQ(findRow(t, "early", OpDevice::Cpu), nullptr);
  EXPECT_EQ(findRow(t, "at_end", OpDevice::Cpu), nullptr);  // starts at the (excluded) end
  EXPECT_EQ(findRow(t, "k1", OpDevice::Gpu), nullptr);
  EXPECT_EQ(findRow(t, "k2", OpDevice::Gpu), nullptr);
  const OpRow* inside = findRow(t, "inside", OpDevice::Cpu);
  ASSERT_NE(inside, nullptr);
  EXPECT_EQ(inside->calls, 1);
  EXPECT_EQ(inside->selfCpu, 290);
  EXPECT_EQ(inside->deviceTotal, 40);  // its kernel counts although it starts after the range
  ASSERT_NE(findRow(t, "cudaLaunchKernel", OpDevice::Cpu), nullptr);
  EXPECT_EQ(findRow(t, "cudaLaunchKernel", OpDevice::Cpu)->calls, 1);
  EXPECT_EQ(t.selfCpuTotal, 300);
  EXPECT_EQ(t.selfDeviceTotal, 0);
}

io::LoadResult loadTrainAdam() { return io::loadChromeTrace(kTrainAdam.string()); }

// The second ProfilerStep#N of the trace, read from the JSON, in ns.
TimeRange secondStep(const nlohmann::json& events) {
  std::vector<TimeRange> steps;
  for (const auto& e : events) {
    if (e.value("ph", "") != "X" || e.value("name", "").rfind("ProfilerStep#", 0) != 0) continue;
    const TimeNs start = exactNs(e.at("ts"));
    steps.push_back({start, start + exactNs(e.at("dur"))});
  }
  std::sort(steps.begin(), steps.end(), [](auto a, auto b) { return a.start < b.start; });
  return steps.at(1);
}

struct Count {
  std::int64_t calls = 0;
  TimeNs total = 0;
};

TEST(OpsTableRange, MatchesCountsMadeFromTheJson) {
  std::ifstream in(kTrainAdam);
  const auto json = nlohmann::json::parse(in).at("traceEvents");
  const TimeRange step = secondStep(json);
  // Kernels and launch calls never nest in one of their own name: their rows
  // are plain counts of the events that start in the step.
  std::map<std::string, Count> kernels;
  Count launches;
  for (const auto& e : json) {
    if (e.value("ph", "") != "X") continue;
    if (!step.contains(exactNs(e.at("ts")))) continue;
    const TimeNs dur = exactNs(e.at("dur"));
    const std::string cat = e.value("cat", "");
    if (cat == "kernel") {
      kernels[e.at("name")].calls += 1;
      kernels[e.at("name")].total += dur;
    } else if (e.value("name", "") == "cudaLaunchKernel") {
      launches.calls += 1;
      launches.total += dur;
    }
  }
  io::LoadResult loaded = loadTrainAdam();
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const OpTable t = buildOpTable(*loaded.trace, OpTableOptions{false, step});
  ASSERT_FALSE(kernels.empty());
  for (const auto& [name, c] : kernels) {
    const OpRow* r = findRow(t, name, OpDevice::Gpu);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_EQ(r->calls, c.calls) << name;
    EXPECT_EQ(r->selfDevice, c.total) << name;
  }
  const OpRow* launch = findRow(t, "cudaLaunchKernel", OpDevice::Cpu);
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->calls, launches.calls);
  EXPECT_EQ(launch->cpuTotal, launches.total);
  const OpRow* stepRow = findRow(t, "ProfilerStep*", OpDevice::Cpu);
  ASSERT_NE(stepRow, nullptr);
  EXPECT_EQ(stepRow->calls, 1);
  EXPECT_EQ(stepRow->cpuTotal, step.duration());
}

// Every event starts in exactly one of two ranges that split the trace, so
// the two tables add up to the whole one, row by row and field by field.
TEST(OpsTableRange, TwoHalvesAddUpToTheWholeTrace) {
  io::LoadResult loaded = loadTrainAdam();
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const Trace& trace = *loaded.trace;
  const TimeNs mid = trace.minTime() + (trace.maxTime() - trace.minTime()) / 2;
  const OpTable whole = buildOpTable(trace);
  const OpTable a = buildOpTable(trace, OpTableOptions{false, TimeRange{trace.minTime(), mid}});
  const OpTable b = buildOpTable(trace, OpTableOptions{false, TimeRange{mid, trace.maxTime() + 1}});
  ASSERT_FALSE(a.rows.empty());
  ASSERT_FALSE(b.rows.empty());
  EXPECT_EQ(a.selfCpuTotal + b.selfCpuTotal, whole.selfCpuTotal);
  EXPECT_EQ(a.selfDeviceTotal + b.selfDeviceTotal, whole.selfDeviceTotal);
  for (const OpRow& w : whole.rows) {
    OpRow sum;
    for (const OpTable* half : {&a, &b}) {
      for (const OpRow& r : half->rows) {
        if (r.name != w.name || r.device != w.device || r.annotation != w.annotation) continue;
        sum.calls += r.calls;
        sum.selfCpu += r.selfCpu;
        sum.cpuTotal += r.cpuTotal;
        sum.selfDevice += r.selfDevice;
        sum.deviceTotal += r.deviceTotal;
      }
    }
    EXPECT_EQ(sum.calls, w.calls) << w.name;
    EXPECT_EQ(sum.selfCpu, w.selfCpu) << w.name;
    EXPECT_EQ(sum.cpuTotal, w.cpuTotal) << w.name;
    EXPECT_EQ(sum.selfDevice, w.selfDevice) << w.name;
    EXPECT_EQ(sum.deviceTotal, w.deviceTotal) << w.name;
  }
}

}  // namespace
}  // namespace gapscope::analysis
