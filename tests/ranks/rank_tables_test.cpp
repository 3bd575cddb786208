// One rank's tables on real traces, checked against counts made from the
// JSON in the test; rank numbers from distributedInfo and file names;
// collective kernels; ranks given twice or without a number.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <nlohmann/json.hpp>

#include "../support/json_time.h"
#include "../support/read_text.h"
#include "gapscope/analysis/collectives.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/ranks/rank_tables.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks {
namespace {

const std::filesystem::path kData = GAPSCOPE_TEST_DATA_DIR;

RankTables tablesOf(const std::filesystem::path& path) {
  io::LoadResult result = io::loadChromeTrace(path.string());
  EXPECT_TRUE(result.ok()) << result.error;
  analysis::TraceAnalysis a(std::make_shared<const Trace>(std::move(*result.trace)), rankAnalysisOptions());
  return buildRankTables(a, path.string());
}

// (start, dur) of every ProfilerStep#N in the JSON, by start.
std::vector<std::pair<TimeNs, TimeNs>> profilerSteps(const std::filesystem::path& path) {
  const auto json = nlohmann::json::parse(testing::readMaybeGzipped(path));
  std::vector<std::pair<TimeNs, TimeNs>> steps;
  for (const auto& e : json.at("traceEvents")) {
    if (e.value("ph", "") != "X" || e.value("cat", "") != "user_annotation") continue;
    if (e.value("name", "").rfind("ProfilerStep#", 0) != 0) continue;
    steps.emplace_back(testing::exactNs(e.at("ts")), testing::exactNs(e.at("dur")));
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

std::uint64_t kernelEvents(const std::filesystem::path& path) {
  const auto json = nlohmann::json::parse(testing::readMaybeGzipped(path));
  std::uint64_t n = 0;
  for (const auto& e : json.at("traceEvents")) n += e.value("ph", "") == "X" && e.value("cat", "") == "kernel";
  return n;
}

TEST(RankTables, RealH200TraceStepsMatchTheJson) {
  const auto path = kData / "h200" / "mlp_eager.json";
  const RankTables t = tablesOf(path);
  const auto steps = profilerSteps(path);
  ASSERT_EQ(t.steps.size(), steps.size());
  ASSERT_FALSE(steps.empty());
  std::uint64_t kernels = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(t.steps[i].startNs, steps[i].first);
    EXPECT_EQ(t.steps[i].timeNs, steps[i].second);
    EXPECT_LE(t.steps[i].busyNs, t.steps[i].activeNs);
    EXPECT_EQ(t.steps[i].idle.total(), t.steps[i].activeNs - t.steps[i].busyNs);
    kernels += t.steps[i].kernels;
  }
  EXPECT_LE(kernels, kernelEvents(path));
  EXPECT_TRUE(t.collectives.empty());
  EXPECT_EQ(t.rank, kUnknownRank);  // PyTorch on one GPU writes no distributedInfo
  EXPECT_FALSE(t.kernels.empty());
  EXPECT_FALSE(t.ops.empty());
}

TEST(RankTables, AlexnetTraceNamesRankZeroFromDistributedInfo) {
  const auto dir = kData / "public" / "hta-alexnet-a100";
  const auto file = std::filesystem::directory_iterator(dir)->path();
  const RankTables t = tablesOf(file);
  EXPECT_EQ(t.rank, 0);
  ASSERT_FALSE(t.steps.empty());
  // Its kernel table's calls add up to the kernel events in the JSON.
  std::uint64_t calls = 0;
  for (const auto& k : t.kernels) calls += static_cast<std::uint64_t>(k.calls);
  EXPECT_EQ(calls, kernelEvents(file));
}

// NCCL kernels in the JSON, and how many of them have their launch call
// (a cuda_runtime or cuda_driver event with the same correlation) there too.
std::pair<std::uint64_t, std::uint64_t> ncclKernelsAndCalls(const std::filesystem::path& path) {
  const auto json = nlohmann::json::parse(testing::readMaybeGzipped(path));
  std::vector<std::int64_t> kernels;
  std::vector<std::int64_t> calls;
  for (const auto& e : json.at("traceEvents")) {
    if (e.value("ph", "") != "X" || !e.contains("args") || !e["args"].contains("correlation")) continue;
    const std::string cat = e.value("cat", "");
    const std::int64_t correlation = e["args"]["correlation"].get<std::int64_t>();
    if (cat == "kernel" && e.value("name", "").find("nccl") != std::string::npos) kernels.push_back(correlation);
    if (cat == "cuda_runtime" || cat == "cuda_driver") calls.push_back(correlation);
  }
  std::sort(calls.begin(), calls.end());
  std::uint64_t withCall = 0;
  for (auto c : kernels) withCall += std::binary_search(calls.begin(), calls.end(), c);
  return {kernels.size(), withCall};
}

// A real 2-rank DDP job on two H100s, recorded by gapscope and by
// torch.profiler (tests/data/PROVENANCE.md): every NCCL kernel is a
// collective of its rank, with its CPU call.
TEST(RankTables, RealDdpRanksHaveTheirNcclKernelsAndCalls) {
  for (const char* recorder : {"gapscope", "torch"}) {
    for (int rank : {0, 1}) {
      const auto path = kData / "h100-ddp" / recorder / ("rank-" + std::to_string(rank) + ".json.gz");
      SCOPED_TRACE(path.string());
      const RankTables t = tablesOf(path);
      EXPECT_EQ(t.rank, rank);
      EXPECT_EQ(t.worldSize, 2);
      EXPECT_EQ(t.steps.size(), 20u);
      const auto [kernels, withCall] = ncclKernelsAndCalls(path);
      EXPECT_GT(kernels, 20u);
      EXPECT_EQ(withCall, kernels);
      EXPECT_EQ(t.collectives.size(), kernels);
      std::uint64_t inSteps = 0;
      for (const auto& s : t.steps) inSteps += s.collectives;
      EXPECT_GE(inSteps, 20u);  // at least the gradient all-reduce of every step
      // torch.profiler names the collective's CPU op; a recording without
      // --torch-ops has no operators, only the launch calls.
      if (std::string(recorder) == "torch") {
        EXPECT_EQ(t.collectives.back().cpuOp, "record_param_comms");
      }
    }
  }
}

TEST(RankTables, RankFromDistributedInfoThenTheFileName) {
  std::int64_t world = -5;
  EXPECT_EQ(rankOfTrace(R"({"backend": "nccl", "rank": 3, "world_size": 8})", "x/rank-5.json", &world), 3);
  EXPECT_EQ(world, 8);
  EXPECT_EQ(rankOfTrace("", "run7/rank-5.json.gz", &world), 5);
  EXPECT_EQ(world, 0);
  // Kineto's own names end in a timestamp, which is no rank.
  EXPECT_EQ(rankOfTrace("", "worker12.1623143089861.pt.trace.json"), 12);
  EXPECT_EQ(rankOfTrace(R"({"rank": "a"})", "rank_2.json"), 2);
  EXPECT_EQ(rankOfTrace("not json", "trace.json"), kUnknownRank);
  EXPECT_EQ(rankOfTrace("", "out/pid-12345.json.gz"), kUnknownRank);
}

TEST(RankTables, CollectivesAreNcclAndGlooKernelsApiRangesAndOperators) {
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("ncclAllReduce"));
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("nccl:all_reduce"));
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("gloo:broadcast"));
  // The calls, which are never a step: NCCL's API and c10d's backends, not any name with "nccl" in it.
  for (const char* call : {"ncclAllReduce", "ncclGroupEnd", "nccl:all_reduce", "gloo:broadcast", "ucc:all_gather",
                           "mpi:barrier"}) {
    EXPECT_TRUE(gapscope::analysis::isCollectiveCall(call)) << call;
  }
  for (const char* other : {"bench_nccl_iter", "ncclbench", "nccl", "train_step", "DistributedDataParallel.forward"}) {
    EXPECT_FALSE(gapscope::analysis::isCollectiveCall(other)) << other;
  }
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"));
  EXPECT_TRUE(gapscope::analysis::isCollectiveName("void gloo::cuda_reduce<float>(float*)"));
  EXPECT_FALSE(gapscope::analysis::isCollectiveName("void at::native::vectorized_elementwise_kernel<4>(int)"));
}

RankTables oneStepRank(std::int64_t rank, TimeNs time, const std::string& file) {
  RankTables t;
  t.rank = rank;
  t.file = file;
  RankStep s;
  s.step = 1;
  s.timeNs = time;
  t.steps.push_back(s);
  return t;
}

TEST(Stragglers, DuplicateAndUnnumberedRanksAreNoted) {
  std::vector<RankTables> tables;
  tables.push_back(oneStepRank(1, 100000, "a.json"));
  tables.push_back(oneStepRank(1, 100000, "b.json"));
  tables.push_back(oneStepRank(kUnknownRank, 300000, "c.json"));
  const RanksAnalysis a = analyzeRanks(std::move(tables));
  ASSERT_EQ(a.ranks.size(), 2u);
  EXPECT_EQ(a.ranks[0].rank, 0);  // the unnumbered file took the lowest free number
  EXPECT_EQ(a.ranks[0].file, "c.json");
  EXPECT_EQ(a.ranks[1].file, "a.json");
  ASSERT_EQ(a.notes.size(), 2u);
  EXPECT_EQ(a.notes[0], "rank 1 given twice: b.json left out");
  EXPECT_EQ(a.notes[1], "c.json names no rank: taken as rank 0");
  // Two ranks: the lower median is the faster one, and 300 us is 200 us over it.
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(a.steps.at(0).medianNs, 100000);
}

TEST(Stragglers, CollectiveWaitIsClampedToTheCollective) {
  EXPECT_EQ(collectiveWait(100, 50, 120), 20);
  EXPECT_EQ(collectiveWait(100, 50, 300), 50);
  EXPECT_EQ(collectiveWait(100, 50, 90), 0);
}

TEST(Stragglers, SmallDifferencesAreNotStragglers) {
  std::vector<RankTables> tables;
  tables.push_back(oneStepRank(0, 1000000, "a"));
  tables.push_back(oneStepRank(1, 1040000, "b"));  // 4 %: under the 5 % rule
  tables.push_back(oneStepRank(2, 1000000, "c"));
  EXPECT_TRUE(analyzeRanks(std::move(tables)).stragglers.empty());
  std::vector<RankTables> tiny;
  tiny.push_back(oneStepRank(0, 20000, "a"));
  tiny.push_back(oneStepRank(1, 29000, "b"));  // 45 % but only 9 us: under 10 us
  tiny.push_back(oneStepRank(2, 20000, "c"));
  EXPECT_TRUE(analyzeRanks(std::move(tiny)).stragglers.empty());
}

// A rank with steps 1, 2, ... of these times (no collectives: own time = step time).
RankTables rankWithSteps(std::int64_t rank, const std::vector<TimeNs>& times) {
  RankTables t;
  t.rank = rank;
  t.file = "rank-" + std::to_string(rank);
  for (std::size_t i = 0; i < times.size(); ++i) {
    RankStep s;
    s.step = static_cast<std::int64_t>(i + 1);
    s.timeNs = times[i];
    t.steps.push_back(s);
  }
  return t;
}

// Four ranks of 1 ms steps; in each step one rank (step % 4) is 8 % slower,
// the jitter of a real job; `extra` adds (rank, step, ns) on top.
std::vector<RankTables> jitteredRanks(int steps, const std::vector<std::tuple<int, int, TimeNs>>& extra) {
  std::vector<RankTables> tables;
  for (int r = 0; r < 4; ++r) {
    std::vector<TimeNs> times;
    for (int s = 1; s <= steps; ++s) {
      TimeNs t = s % 4 == r ? 1080000 : 1000000;
      for (const auto& [er, es, ens] : extra) t += er == r && es == s ? ens : 0;
      times.push_back(t);
    }
    tables.push_back(rankWithSteps(r, times));
  }
  return tables;
}

// Four ranks with one all-reduce a step: in each step rank (step % 4)
// computes 80 us longer (a real job's jitter) and the others wait for it in
// the all-reduce; `extra` adds (rank, step, ns) of compute on top.
std::vector<RankTables> ranksWithAllReduce(int steps, const std::vector<std::tuple<int, int, TimeNs>>& extra) {
  constexpr TimeNs kCompute = 1000000, kTransfer = 100000, kJitter = 80000;
  auto computeOf = [&](int r, int s) {
    TimeNs t = kCompute + (s % 4 == r ? kJitter : 0);
    for (const auto& [er, es, ens] : extra) t += er == r && es == s ? ens : 0;
    return t;
  };
  std::vector<RankTables> tables(4);
  for (int s = 1; s <= steps; ++s) {
    const TimeNs start = s * 10000000LL;
    TimeNs slowest = 0;
    for (int r = 0; r < 4; ++r) slowest = std::max(slowest, computeOf(r, s));
    const TimeNs end = start + slowest + kTransfer;
    for (int r = 0; r < 4; ++r) {
      RankTables& t = tables[static_cast<std::size_t>(r)];
      t.rank = r;
      t.file = "rank-" + std::to_string(r);
      RankStep step;
      step.step = s;
      step.startNs = start;
      step.timeNs = end - start;
      step.collectives = 1;
      RankCollective c;
      c.step = s;
      c.name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
      c.startNs = start + computeOf(r, s);
      c.durNs = end - c.startNs;
      step.collectiveNs = c.durNs;
      t.steps.push_back(step);
      t.collectives.push_back(c);
    }
  }
  return tables;
}

// The wait the verdict gives is summed over the steps it names: the
// straggler's one straggling step, not the jitter steps it was also the
// slowest in (each with three ranks waiting 80 us for it).
TEST(Stragglers, TheOthersWaitIsSummedOverTheStepsTheVerdictNames) {
  const RanksAnalysis a = analyzeRanks(ranksWithAllReduce(10, {{2, 6, 500000}}));
  ASSERT_EQ(a.stragglers, (std::vector<std::int64_t>{2}));
  for (const auto& s : a.steps) EXPECT_EQ(s.straggling, s.step == 6) << s.step;
  EXPECT_EQ(std::count_if(a.steps.begin(), a.steps.end(), [](const StepRow& s) { return s.slowestRank == 2; }), 3);
  EXPECT_EQ(a.causes.front().othersWaitedNs, 3 * (80000 + 500000));
  EXPECT_NE(a.verdict.find("straggling in 1 of 10 steps (6)"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("the other ranks waited 1.740 ms for it in collectives in that step"), std::string::npos)
      << a.verdict;
}

// A rank 15 % slower in every step while the others take turns at being
// 30 % slower: consistently slow, yet the slowest in no step, so the
// verdict gives no wait for it (it read "waited 0.000 ms for it in
// collectives in the 0 steps it was the slowest in").
TEST(Stragglers, AConsistentlySlowRankNeverTheSlowestHasNoWaitClause) {
  std::vector<RankTables> tables;
  for (int r = 0; r < 4; ++r) {
    std::vector<TimeNs> times;
    for (int s = 1; s <= 12; ++s) times.push_back(r == 0 ? 1150000 : r == 1 + s % 3 ? 1300000 : 1000000);
    tables.push_back(rankWithSteps(r, times));
  }
  const RanksAnalysis a = analyzeRanks(tables);
  ASSERT_EQ(a.stragglers, (std::vector<std::int64_t>{0}));
  EXPECT_TRUE(a.ranks[0].consistentlySlow);
  EXPECT_EQ(a.ranks[0].stragglingSteps, 0u);
  for (const auto& s : a.steps) EXPECT_NE(s.slowestRank, 0) << s.step;
  EXPECT_EQ(a.verdict.find("waited"), std::string::npos) << a.verdict;
  EXPECT_EQ(a.verdict.rfind("rank 0 is the straggler: consistently slower", 0), 0u) << a.verdict;
}

TEST(Stragglers, AStepStragglesOnlyWhereItStandsOutFromTheUsualSpread) {
  const RanksAnalysis a = analyzeRanks(jitteredRanks(10, {{2, 6, 500000}}));
  EXPECT_EQ(a.usualExcessNs, 80000);  // every step's slowest is 80 us over the median
  for (const auto& s : a.steps) EXPECT_EQ(s.straggling, s.step == 6) << s.step;
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{2}));
  for (const auto& r : a.ranks) EXPECT_FALSE(r.consistentlySlow) << r.rank;
  EXPECT_EQ(a.verdict.rfind("rank 2 is the straggler: straggling in 1 of 10 steps (6); in step 6 it took 0.580 ms longer", 0), 0u)
      << a.verdict;
  // A step 3 x 80 us over the median is not out of the ordinary; just over it is.
  EXPECT_FALSE(analyzeRanks(jitteredRanks(10, {{2, 6, 240000 - 80000}})).steps[5].straggling);
  EXPECT_TRUE(analyzeRanks(jitteredRanks(10, {{2, 6, 240001 - 80000}})).steps[5].straggling);
}

TEST(Stragglers, UnderFiveStepsEachStepIsJudgedAlone) {
  const RanksAnalysis a = analyzeRanks(jitteredRanks(4, {}));
  EXPECT_EQ(a.usualExcessNs, 0);
  for (const auto& s : a.steps) EXPECT_TRUE(s.straggling) << s.step;  // 8 %: over the 5 % rule
}

TEST(Stragglers, ARankSlowerInEveryStepIsConsistentlySlow) {
  std::vector<std::tuple<int, int, TimeNs>> slower;
  for (int s = 1; s <= 10; ++s) slower.emplace_back(3, s, s % 4 == 3 ? 120000 : 200000);  // rank 3 at 1.2 ms
  const RanksAnalysis a = analyzeRanks(jitteredRanks(10, slower));
  for (const auto& r : a.ranks) EXPECT_EQ(r.consistentlySlow, r.rank == 3) << r.rank;
  EXPECT_EQ(a.ranks[3].typicalExcessNs, 200000);
  EXPECT_EQ(a.ranks[3].typicalMedianNs, 1000000);
  // Its 200 us is its usual lag, so no step stands out: it is slow throughout.
  for (const auto& s : a.steps) EXPECT_FALSE(s.straggling) << s.step;
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(a.verdict.rfind("rank 3 is the straggler: consistently slower, 0.200 ms over the step's median own time "
                            "(20%) in a typical step; in step 1 it took 0.200 ms longer",
                            0),
            0u)
      << a.verdict;
  // 9 % slower is within the rule.
  std::vector<std::tuple<int, int, TimeNs>> little;
  for (int s = 1; s <= 10; ++s) little.emplace_back(3, s, s % 4 == 3 ? 10000 : 90000);
  EXPECT_TRUE(analyzeRanks(jitteredRanks(10, little)).stragglers.empty());
}

// A consistently slow rank does not hide a stall on another: the step
// excess is what a step adds to its slowest rank's usual lag (rank 3 is
// 0.4 ms late every step; rank 1 stalls 1 ms in step 5).
TEST(Stragglers, AConsistentlySlowRankHidesNoOtherStraggler) {
  std::vector<RankTables> tables;
  for (int r = 0; r < 4; ++r) {
    std::vector<TimeNs> times;
    for (int s = 1; s <= 10; ++s) times.push_back(2000000 + (r == 3 ? 400000 : 0) + (r == 1 && s == 5 ? 1000000 : 0));
    tables.push_back(rankWithSteps(r, times));
  }
  const RanksAnalysis a = analyzeRanks(std::move(tables));
  for (const auto& s : a.steps) EXPECT_EQ(s.straggling, s.step == 5) << s.step;
  EXPECT_EQ(a.steps[4].slowestRank, 1);
  EXPECT_EQ(a.steps[4].excessNs, 1000000);
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{1, 3}));
  EXPECT_TRUE(a.ranks[3].consistentlySlow);
}

// Stalls in most steps, on a different rank each time, still straggle: the
// usual excess is capped at a quarter of a typical step.
TEST(Stragglers, StallsInMostStepsStillStraggle) {
  std::vector<RankTables> tables;
  for (int r = 0; r < 4; ++r) {
    std::vector<TimeNs> times;
    for (int s = 1; s <= 10; ++s) times.push_back(2000000 + (s <= 6 && (s % 4) == r ? 30000000 : 0));
    tables.push_back(rankWithSteps(r, times));
  }
  const RanksAnalysis a = analyzeRanks(std::move(tables));
  EXPECT_EQ(a.usualExcessNs, 500000);  // the lower median (30 ms) capped at 2 ms / 4
  for (const auto& s : a.steps) EXPECT_EQ(s.straggling, s.step <= 6) << s.step;
  for (const auto& r : a.ranks) EXPECT_FALSE(r.consistentlySlow) << r.rank;
}

// Consistently slow is judged step by step: a rank that only has the later,
// slower steps is not slower than the others in them (ranks 0 and 1: steps
// 1-10 at 1 ms then 3 ms; rank 2: steps 6-10 at 2.9 ms); nor is a rank
// that shares no step with another (its trace has only step 0).
TEST(Stragglers, ConsistentlySlowComparesTheSameSteps) {
  std::vector<RankTables> tables;
  for (int r = 0; r < 2; ++r) {
    std::vector<TimeNs> times;
    for (int s = 1; s <= 10; ++s) times.push_back(s <= 5 ? 1000000 : 3000000);
    tables.push_back(rankWithSteps(r, times));
  }
  RankTables late = rankWithSteps(2, {2900000, 2900000, 2900000, 2900000, 2900000});
  for (std::size_t i = 0; i < late.steps.size(); ++i) late.steps[i].step = static_cast<std::int64_t>(6 + i);
  tables.push_back(late);
  const RanksAnalysis a = analyzeRanks(std::move(tables));
  for (const auto& r : a.ranks) EXPECT_FALSE(r.consistentlySlow) << r.rank;
  EXPECT_TRUE(a.stragglers.empty()) << a.verdict;
  std::vector<RankTables> apart;
  for (int r = 0; r < 2; ++r) apart.push_back(rankWithSteps(r, std::vector<TimeNs>(10, 1000000)));
  RankTables whole = rankWithSteps(2, {100000000});
  whole.steps[0].step = 0;
  apart.push_back(whole);
  EXPECT_TRUE(analyzeRanks(std::move(apart)).stragglers.empty());
}

}  // namespace
}  // namespace gapscope::ranks
