// compareTraces() on real PyTorch pairs from tests/data/h200: per-step
// kernel and launch counts against counts made here from the JSON, and
// every per-run figure and row against the single-trace analyses of the
// same file (no second implementation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/compare/compare.h"
#include "gapscope/io/chrome_reader.h"
#include "../support/unmarked_loop.h"

namespace gapscope::compare {
namespace {

std::string dataPath(const std::string& name) { return std::string(GAPSCOPE_TEST_DATA_DIR) + "/h200/" + name + ".json"; }

// A trace of tests/data by its path there, analysed.
std::shared_ptr<const analysis::TraceAnalysis> loadData(const std::string& relative) {
  io::LoadResult r = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(r.ok()) << relative << ": " << r.error;
  return std::make_shared<const analysis::TraceAnalysis>(std::make_shared<const Trace>(std::move(*r.trace)));
}

std::shared_ptr<const analysis::TraceAnalysis> load(const std::string& name) { return loadData("h200/" + name + ".json"); }

// Counts made from the JSON: per step annotation (ProfilerStep#N), the
// kernels whose launch call (same args.correlation) began inside it and
// the kernel launch calls that began inside it.
struct JsonCounts {
  std::size_t steps = 0;
  std::vector<std::int64_t> stepNumbers;  // each ProfilerStep#N's N, in time order
  std::size_t kernels = 0;
  std::size_t launches = 0;
};

JsonCounts countFromJson(const std::string& name) {
  std::ifstream in(dataPath(name));
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::set<std::string> launchNames{"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",
                                          "cuLaunchKernelEx", "cudaGraphLaunch"};
  std::vector<std::pair<double, double>> steps;  // [start, end) in us
  std::map<long long, double> callStart;         // correlation -> launch call start (us)
  std::vector<double> launchStarts;
  std::vector<long long> kernelCorrelations;
  std::vector<std::pair<double, std::int64_t>> numbered;  // (start, N)
  for (const auto& e : doc["traceEvents"]) {
    if (e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    const std::string n = e.value("name", "");
    const double ts = e["ts"].get<double>();
    if (cat == "user_annotation" && n.rfind("ProfilerStep#", 0) == 0) {
      steps.emplace_back(ts, ts + e["dur"].get<double>());
      numbered.emplace_back(ts, std::stoll(n.substr(13)));
    }
    if ((cat == "cuda_runtime" || cat == "cuda_driver") && e.contains("args") && e["args"].contains("correlation")) {
      callStart[e["args"]["correlation"].get<long long>()] = ts;
      if (launchNames.count(n)) launchStarts.push_back(ts);
    }
    if (cat == "kernel") kernelCorrelations.push_back(e["args"]["correlation"].get<long long>());
  }
  auto inStep = [&](double t) {
    for (const auto& [lo, hi] : steps)
      if (t >= lo && t < hi) return true;
    return false;
  };
  JsonCounts c;
  c.steps = steps.size();
  std::sort(numbered.begin(), numbered.end());
  for (const auto& [start, number] : numbered) c.stepNumbers.push_back(number);
  for (long long corr : kernelCorrelations) {
    auto it = callStart.find(corr);
    c.kernels += it != callStart.end() && inStep(it->second);
  }
  for (double t : launchStarts) c.launches += inStep(t);
  return c;
}

// The longest device gap that lies inside one step's GPU window on its
// device: a count made from the gap analysis' lists, step by step.
TimeNs longestGapInAStep(const analysis::GapAnalysis& gaps) {
  TimeNs longest = 0;
  for (const analysis::Gap& g : gaps.gaps) {
    if (g.stream >= 0) continue;
    for (const auto& s : gaps.steps) {
      for (const auto& d : s.devices) {
        if (d.device == g.device && d.activeStart <= g.start && g.end() <= d.activeEnd) longest = std::max(longest, g.dur);
      }
    }
  }
  return longest;
}

class RealPair : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(RealPair, PerStepCountsMatchTheJson) {
  const auto& [nameA, nameB] = GetParam();
  const Comparison c = compareTraces(*load(nameA), *load(nameB));
  for (std::size_t i = 0; i < 2; ++i) {
    const JsonCounts json = countFromJson(i == 0 ? nameA : nameB);
    const RunFigures& r = c.runs[i];
    ASSERT_GT(json.steps, 0u);
    EXPECT_EQ(r.stepSource, analysis::StepSource::ProfilerStep);
    EXPECT_EQ(r.steps, json.steps);
    EXPECT_EQ(r.stepNumbers, json.stepNumbers);  // the Step times tab's axis
    EXPECT_DOUBLE_EQ(r.kernelsPerStep, static_cast<double>(json.kernels) / static_cast<double>(json.steps));
    EXPECT_DOUBLE_EQ(r.launchesPerStep, static_cast<double>(json.launches) / static_cast<double>(json.steps));
  }
}

TEST_P(RealPair, RunFiguresAreTheSingleTraceFigures) {
  const auto& [nameA, nameB] = GetParam();
  const auto a = load(nameA);
  const auto b = load(nameB);
  const Comparison c = compareTraces(*a, *b);
  for (std::size_t i = 0; i < 2; ++i) {
    const Trace& trace = (i == 0 ? a : b)->trace();
    const RunFigures& r = c.runs[i];
    // Each single-trace analysis computed afresh, as the CLI's gaps/kernels/ops do.
    const analysis::GapAnalysis gaps = analysis::analyzeGaps(trace);
    ASSERT_EQ(r.steps, gaps.steps.size());
    analysis::IdleByCause idle;
    TimeNs busy = 0;
    TimeNs active = 0;
    std::vector<TimeNs> times;
    for (const auto& s : gaps.steps) {
      times.push_back(s.cpuEnd - s.cpuStart);
      for (const auto& d : s.devices) {
        for (std::size_t k = 0; k < analysis::kGapCauseCount; ++k) idle.ns[k] += d.idle.ns[k];
        busy += d.busyNs;
        active += d.activeNs();
      }
    }
    ASSERT_GT(active, 0);
    EXPECT_DOUBLE_EQ(r.gpuBusyPct, 100.0 * static_cast<double>(busy) / static_cast<double>(active));
    EXPECT_EQ(r.largestGap.dur, longestGapInAStep(gaps));
    for (std::size_t k = 0; k < analysis::kGapCauseCount; ++k)
      EXPECT_EQ(r.idlePerStep.ns[k], std::llround(static_cast<double>(idle.ns[k]) / static_cast<double>(r.steps)));
    std::sort(times.begin(), times.end());
    EXPECT_EQ(r.stepTimeMedian, times[(times.size() - 1) / 2]);

    const analysis::KernelTable kernels = analysis::buildKernelTable(trace);
    std::size_t rowsOfRun = 0;
    for (const KernelDelta& d : c.kernels) {
      const std::uint64_t count = i == 0 ? d.countA : d.countB;
      const TimeNs time = i == 0 ? d.timeA : d.timeB;
      if (count == 0) continue;
      ++rowsOfRun;
      auto it = std::find_if(kernels.rows.begin(), kernels.rows.end(), [&](const auto& k) { return k.name == d.name; });
      ASSERT_NE(it, kernels.rows.end()) << d.name;
      EXPECT_EQ(count, static_cast<std::uint64_t>(it->calls)) << d.name;
      EXPECT_EQ(time, it->total) << d.name;
    }
    EXPECT_EQ(rowsOfRun, kernels.rows.size());

    ASSERT_TRUE(c.opsByShapes);  // these traces were recorded with record_shapes=True
    analysis::OpTableOptions byShapes;
    byShapes.groupByShapes = true;
    const analysis::OpTable ops = analysis::buildOpTable(trace, byShapes);
    for (const analysis::OpRow& row : ops.rows) {
      if (row.device != analysis::OpDevice::Cpu) continue;
      auto it = std::find_if(c.ops.begin(), c.ops.end(), [&](const OpDelta& o) {
        return o.name == row.name && o.inputShapes == row.inputShapes && o.annotation == row.annotation;
      });
      ASSERT_NE(it, c.ops.end()) << row.name;
      EXPECT_EQ(i == 0 ? it->callsA : it->callsB, row.calls) << row.name;
      EXPECT_EQ(i == 0 ? it->selfCpuA : it->selfCpuB, row.selfCpu) << row.name;
      EXPECT_EQ(i == 0 ? it->deviceA : it->deviceB, row.deviceTotal) << row.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(H200, RealPair,
                         ::testing::Values(std::make_pair("split_stack_eager", "combined_eager"),
                                           std::make_pair("matmul_add_64_bf16_eager", "linear_64x4096_eager"),
                                           std::make_pair("mlp_eager", "split_stack_eager")));

TEST(RealPair, SplitStackVersusCombined) {
  const Comparison c = compareTraces(*load("split_stack_eager"), *load("combined_eager"));
  // 16 slices through LayerNorm + tanh each, against one LayerNorm + tanh.
  EXPECT_GT(c.speedup, 1.0);
  EXPECT_NE(c.verdict.find("B is "), std::string::npos);
  EXPECT_NE(c.verdict.find("faster per step"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("35 kernels per step became 4"), std::string::npos) << c.verdict;
  EXPECT_TRUE(c.warnings.empty());
}

// Two ranks of a real DDP job (gapscope's recorder, whole program): 3.5 s
// of NCCL set-up and copies come before the first step. The comparison's
// busy share and largest gap are its steps'; the whole trace's are far off.
TEST(RealDdpRanks, BusyAndTheLargestGapLeaveOutTheStartUp) {
  const auto a = loadData("h100-ddp/gapscope/rank-1.json.gz");
  const auto b = loadData("h100-ddp/gapscope/rank-0.json.gz");
  const Comparison c = compareTraces(*a, *b);
  for (std::size_t i = 0; i < 2; ++i) {
    const analysis::GapAnalysis& gaps = (i == 0 ? a : b)->gaps();
    const RunFigures& r = c.runs[i];
    ASSERT_EQ(r.steps, 20u);
    EXPECT_EQ(r.largestGap.dur, longestGapInAStep(gaps));
    TimeNs wholeTrace = 0;
    for (const analysis::Gap& g : gaps.gaps)
      if (g.stream < 0) wholeTrace = std::max(wholeTrace, g.dur);
    EXPECT_GT(wholeTrace, 1'000'000'000);  // the start-up: over a second
    EXPECT_LT(r.largestGap.dur, 100'000'000);  // inside a step (rank 1 sleeps 30 ms in two)
    EXPECT_GT(r.gpuBusyPct, 30.0);
    EXPECT_EQ(r.gpuBusyPct, 100.0 * gaps.verdict.utilization);  // the single trace's verdict is its steps' too
    EXPECT_LT(100.0 * analysis::totalsOf(gaps.devices).busyShare(), 5.0);  // the whole trace's
  }
}

// The training script with no step marks, eager against torch.compile, both
// under torch.profiler without prof.step() (h100-user/, PROVENANCE.md):
// each run's steps are its iterations from one data loader next() to the
// next; the first, CUDA's start-up and for B the compilation, is left out
// of the per-step figures, which are then those of the other 11, counted
// here from the JSON.
TEST(RealUnmarkedPair, EagerVersusCompiledPerIterationWithoutTheWarmUp) {
  const auto a = loadData("h100-user/eager-torch.json.gz");
  const auto b = loadData("h100-user/compiled-torch.json.gz");
  const Comparison c = compareTraces(*a, *b);
  std::vector<TimeNs> medians;
  std::vector<std::vector<TimeNs>> stepTimes;
  for (std::size_t i = 0; i < 2; ++i) {
    const testing::UnmarkedLoop json = testing::unmarkedLoopFromJson(std::string(GAPSCOPE_TEST_DATA_DIR) +
                                                                     (i == 0 ? "/h100-user/eager-torch.json.gz"
                                                                             : "/h100-user/compiled-torch.json.gz"));
    ASSERT_EQ(json.nextStarts.size(), 13u);
    const RunFigures& r = c.runs[i];
    EXPECT_EQ(r.stepSource, analysis::StepSource::RepeatedAnnotation);
    EXPECT_EQ(r.stepName, testing::kDataLoaderNext);
    EXPECT_EQ(r.steps, 11u);
    EXPECT_EQ(r.warmUpStepTime, json.nextStarts[1] - json.nextStarts[0]);
    std::vector<TimeNs> periods;
    std::uint64_t kernels = 0;
    for (std::size_t k = 1; k < 12; ++k) {
      periods.push_back(json.nextStarts[k + 1] - json.nextStarts[k]);
      kernels += json.kernels[k];
    }
    EXPECT_EQ(r.stepTimes, periods);
    stepTimes.push_back(periods);
    std::sort(periods.begin(), periods.end());
    EXPECT_EQ(r.stepTimeMedian, periods[5]);
    EXPECT_DOUBLE_EQ(r.kernelsPerStep, static_cast<double>(kernels) / 11.0);
    medians.push_back(periods[5]);
  }
  EXPECT_DOUBLE_EQ(c.runs[0].kernelsPerStep, 313.0);  // torch.compile fused 68 kernels away
  EXPECT_DOUBLE_EQ(c.runs[1].kernelsPerStep, 245.0);
  EXPECT_LT(medians[1], medians[0]);
  // Every compiled iteration was shorter than every eager one: U counts
  // all 121 pairs, and the steps are told apart.
  for (TimeNs eager : stepTimes[0])
    for (TimeNs compiled : stepTimes[1]) EXPECT_GT(eager, compiled);
  EXPECT_DOUBLE_EQ(c.stepSpread.u, 121.0);
  EXPECT_EQ(c.stepSpread.method, SpreadMethod::Normal);
  EXPECT_EQ(c.verdict.rfind("B is ", 0), 0u) << c.verdict;
  EXPECT_NE(c.verdict.find("x faster per step"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find(" median), beyond the steps' spread (p < 0.001 over 11 and 11 steps); "), std::string::npos)
      << c.verdict;
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_EQ(c.warnings[0].rfind("A's first step, ", 0), 0u) << c.warnings[0];
  EXPECT_EQ(c.warnings[1].rfind("B's first step, ", 0), 0u) << c.warnings[1];
}

}  // namespace
}  // namespace gapscope::compare
