// Two runs of a distributed job compared (ranks/set_compare.h): on generated
// rank sets, every job figure against the generator's own timing functions;
// on the real user DDP sets, the job's step time against a count made from
// the JSON; `gapscope-cli diff DIR_A DIR_B` as a process.
#include <gtest/gtest.h>

#include <fstream>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "../cli/cli_run.h"
#include "../support/json_time.h"
#include "../support/unmarked_loop.h"
#include "gapscope/compare/compare.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/escape.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/set_compare.h"
#include "rank_set_generator.h"

namespace gapscope::ranks {
namespace {

using bench::RankSetSpec;
using gapscope::testing::runCli;
using gapscope::testing::TempDir;

RankSetSpec plain(int ranks = 8, int steps = 10) {
  RankSetSpec spec;
  spec.ranks = ranks;
  spec.steps = steps;
  return spec;
}

RankSetSpec withLateRank(int rank, int step) {
  RankSetSpec spec = plain();
  spec.lateRank = rank;
  spec.lateStep = step;
  return spec;
}

RanksAnalysis analyse(const TempDir& dir, const std::string& name, const RankSetSpec& spec) {
  const auto path = dir.path() / name;
  bench::writeRankSet(path.string(), spec);
  RankSet set = loadRankSet(rankFiles({path.string()}));
  EXPECT_TRUE(set.errors.empty());
  return analyzeRanks(std::move(set.tables));
}

// Counted from the generator: the steps' times, and their lower median.
std::vector<TimeNs> jobStepTimes(const RankSetSpec& spec) {
  std::vector<TimeNs> times;
  for (int s = 1; s <= spec.steps; ++s) times.push_back(bench::stepTime(spec, s));
  return times;
}

TimeNs lowerMedianOf(std::vector<TimeNs> times) {
  std::sort(times.begin(), times.end());
  return times[(times.size() - 1) / 2];
}

TimeNs jobStepTime(const RankSetSpec& spec) { return lowerMedianOf(jobStepTimes(spec)); }

// The verdict's first words for two generated runs, from the generator's step times.
std::string speedPhraseOf(const RankSetSpec& a, const RankSetSpec& b) {
  return compare::speedPhrase(jobStepTime(a), jobStepTime(b), compare::stepSpreadTest(jobStepTimes(a), jobStepTimes(b)));
}

// Summed over every rank and step: each rank's all-reduce time and its
// wait for the last rank to start it.
struct CollectiveSums {
  TimeNs collective = 0;
  TimeNs wait = 0;
};
CollectiveSums collectiveSums(const RankSetSpec& spec) {
  CollectiveSums sums;
  for (int s = 1; s <= spec.steps; ++s) {
    TimeNs latest = 0;
    for (int r = 0; r < spec.ranks; ++r) latest = std::max(latest, bench::allReduceStart(spec, r, s));
    for (int r = 0; r < spec.ranks; ++r) {
      const TimeNs start = bench::allReduceStart(spec, r, s);
      sums.collective += bench::allReduceEnd(spec, s) - start;
      sums.wait += latest - start;
    }
  }
  return sums;
}

void expectJobFigures(const SetFigures& f, const RankSetSpec& spec) {
  EXPECT_EQ(f.ranks, static_cast<std::size_t>(spec.ranks));
  EXPECT_EQ(f.steps, static_cast<std::uint64_t>(spec.steps));
  EXPECT_EQ(f.rankSteps, static_cast<std::uint64_t>(spec.ranks * spec.steps));
  EXPECT_EQ(f.stepTimeNs, jobStepTime(spec));
  const CollectiveSums sums = collectiveSums(spec);
  EXPECT_EQ(f.collectivePerStepNs, sums.collective / (spec.ranks * spec.steps));
  EXPECT_EQ(f.waitPerStepNs, sums.wait / (spec.ranks * spec.steps));
  EXPECT_EQ(f.stepMark, "ProfilerStep#N");
}

TEST(SetCompare, TheStragglerIsGone) {
  TempDir dir;
  const RankSetSpec before = withLateRank(2, 7);
  const RankSetSpec after = plain();
  const RankSetComparison c = compareRankSets(analyse(dir, "a", before), analyse(dir, "b", after));
  expectJobFigures(c.runs[0], before);
  expectJobFigures(c.runs[1], after);
  EXPECT_EQ(c.runs[0].stragglingSteps, 1u);
  EXPECT_EQ(c.runs[0].stragglers, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(c.runs[1].stragglingSteps, 0u);
  EXPECT_TRUE(c.runs[1].stragglers.empty());
  // One slow step of ten leaves the median step where it was.
  EXPECT_EQ(c.verdict.rfind(speedPhraseOf(before, after), 0), 0u) << c.verdict;
  EXPECT_EQ(c.verdict.rfind("B takes as long per step as A", 0), 0u) << c.verdict;
  EXPECT_NE(c.verdict.find("the straggler is gone: rank 2 was straggling in 1 of 10 steps in A, no rank straggles in B"),
            std::string::npos)
      << c.verdict;
  // The late rank held the others up: they waited less in B.
  EXPECT_GT(c.runs[0].waitPerStepNs, c.runs[1].waitPerStepNs);
  ASSERT_EQ(c.ranks.size(), 8u);
  for (const RankChange& r : c.ranks) {
    ASSERT_TRUE(r.a && r.b);
    EXPECT_EQ(r.a->rank, r.rank);
    EXPECT_EQ(r.b->rank, r.rank);
    EXPECT_EQ(r.a->stragglingSteps, r.rank == 2 ? 1u : 0u);
  }
  ASSERT_EQ(c.steps.size(), 10u);
  EXPECT_TRUE(c.steps[6].a->straggling);
  EXPECT_EQ(c.steps[6].a->slowestRank, 2);
  EXPECT_FALSE(c.steps[6].b->straggling);
  EXPECT_TRUE(c.notes.empty());
}

TEST(SetCompare, AStragglerThatCameAndOneThatMoved) {
  TempDir dir;
  const RanksAnalysis none = analyse(dir, "none", plain());
  const RanksAnalysis late2 = analyse(dir, "late2", withLateRank(2, 7));
  const RanksAnalysis late5 = analyse(dir, "late5", withLateRank(5, 4));
  EXPECT_NE(compareRankSets(none, late5).verdict.find("B has a straggler A had not: rank 5, straggling in 1 of 10 steps"),
            std::string::npos);
  EXPECT_NE(compareRankSets(late2, late5)
                .verdict.find("the straggler moved from rank 2 (straggling in 1 of 10 steps in A) to rank 5 "
                              "(straggling in 1 of 10 steps in B)"),
            std::string::npos);
  EXPECT_NE(compareRankSets(late2, late2).verdict.find("rank 2 is still the straggler: in A straggling in 1 of 10 "
                                                       "steps, in B straggling in 1 of 10 steps"),
            std::string::npos);
  EXPECT_NE(compareRankSets(none, none).verdict.find("no rank straggles in A or B"), std::string::npos);
}

TEST(SetCompare, AFasterJob) {
  TempDir dir;
  const RankSetSpec before = plain(4, 6);
  RankSetSpec after = plain(4, 6);
  after.kernelsPerStep = 10;  // half the work a step
  const RankSetComparison c = compareRankSets(analyse(dir, "a", before), analyse(dir, "b", after));
  expectJobFigures(c.runs[0], before);
  expectJobFigures(c.runs[1], after);
  EXPECT_GT(c.speedup, 1.1);
  EXPECT_DOUBLE_EQ(c.speedup, static_cast<double>(jobStepTime(before)) / static_cast<double>(jobStepTime(after)));
  EXPECT_EQ(c.verdict.rfind(speedPhraseOf(before, after), 0), 0u) << c.verdict;
  EXPECT_EQ(c.verdict.rfind("B is ", 0), 0u) << c.verdict;
  EXPECT_NE(c.verdict.find("x faster per step"), std::string::npos) << c.verdict;
}

TEST(SetCompare, OtherRanksAndAnotherStepMarkAreNoted) {
  TempDir dir;
  RankSetSpec bigger = plain(6, 10);
  bigger.marker = "train_step";  // steps from one train_step to the next: 9 of them
  const RankSetComparison c = compareRankSets(analyse(dir, "a", plain(4, 10)), analyse(dir, "b", bigger));
  EXPECT_EQ(c.runs[1].stepMark, "each train_step to the next");
  EXPECT_EQ(c.runs[1].steps, 9u);
  ASSERT_EQ(c.ranks.size(), 6u);
  EXPECT_FALSE(c.ranks[4].a);
  EXPECT_TRUE(c.ranks[4].b);
  ASSERT_EQ(c.steps.size(), 10u);
  EXPECT_TRUE(c.steps[9].a);
  EXPECT_FALSE(c.steps[9].b);
  ASSERT_GE(c.notes.size(), 2u);
  EXPECT_EQ(c.notes[0], "A has 4 ranks, B 6; ranks 4, 5 only in B: the rank table pairs ranks by number, the job's "
                        "figures are each run's own");
  EXPECT_EQ(c.notes[1], "the runs define a step differently: A by ProfilerStep#N, B by each train_step to the next");
}

TEST(SetCompare, EachRunsOwnNotesFollowWithItsName) {
  TempDir dir;
  RankSetSpec warm = plain(4, 10);
  warm.warmUpRank = 1;
  const RankSetComparison c = compareRankSets(analyse(dir, "a", warm), analyse(dir, "b", plain(4, 10)));
  EXPECT_EQ(c.runs[0].steps, 9u);  // the warm-up left out
  EXPECT_EQ(c.runs[0].rankSteps, 36u);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0].rfind("A: step 1 is a warm-up", 0), 0u) << c.notes[0];
}

// Counted from the JSON of a real 2-rank set whose steps are its data
// loader's next() periods: per step after the warm-up (the first), the
// lower median of two ranks' step times is the shorter; then the lower
// median over the steps.
std::vector<TimeNs> jobStepTimesFromJson(const std::filesystem::path& dir) {
  std::vector<std::vector<TimeNs>> stepsOfRank;
  for (int rank = 0; rank < 2; ++rank) {
    const auto loop = testing::unmarkedLoopFromJson((dir / ("rank-" + std::to_string(rank) + ".json.gz")).string());
    std::vector<TimeNs> times;
    for (std::size_t k = 0; k + 1 < loop.nextStarts.size(); ++k) times.push_back(loop.nextStarts[k + 1] - loop.nextStarts[k]);
    stepsOfRank.push_back(times);
  }
  std::vector<TimeNs> job;
  for (std::size_t k = 1; k < stepsOfRank[0].size(); ++k) job.push_back(std::min(stepsOfRank[0][k], stepsOfRank[1][k]));
  return job;
}

TimeNs jobStepTimeFromJson(const std::filesystem::path& dir) { return lowerMedianOf(jobStepTimesFromJson(dir)); }

// Counted from the JSON of the same sets: the durations of the NCCL kernels
// launched in the steps after the warm-up (from the second next() to the
// last), summed over both ranks, per rank and step.
TimeNs collectivePerRankStepFromJson(const std::filesystem::path& dir) {
  TimeNs total = 0;
  std::uint64_t rankSteps = 0;
  for (int rank = 0; rank < 2; ++rank) {
    const auto path = dir / ("rank-" + std::to_string(rank) + ".json.gz");
    const auto loop = testing::unmarkedLoopFromJson(path.string());
    const nlohmann::json j = nlohmann::json::parse(testing::readMaybeGzipped(path.string()));
    std::map<std::int64_t, TimeNs> launchStart;  // correlation -> launch call start
    for (const auto& e : j["traceEvents"]) {
      const std::string cat = e.value("cat", "");
      if (e.value("ph", "") == "X" && (cat == "cuda_runtime" || cat == "cuda_driver") && e.contains("args") &&
          e["args"].contains("correlation"))
        launchStart[e["args"]["correlation"].get<std::int64_t>()] = testing::exactNs(e["ts"]);
    }
    for (const auto& e : j["traceEvents"]) {
      if (e.value("ph", "") != "X" || e.value("cat", "") != "kernel") continue;
      std::string name = e.value("name", "");
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
      if (name.find("nccl") == std::string::npos) continue;
      const auto corr = e["args"].value("correlation", std::int64_t{-1});
      const TimeNs at = launchStart.count(corr) ? launchStart[corr] : testing::exactNs(e["ts"]);
      if (at >= loop.nextStarts[1] && at < loop.nextStarts.back()) total += testing::exactNs(e["dur"]);
    }
    rankSteps += loop.nextStarts.size() - 2;  // the steps after the warm-up
  }
  return total / static_cast<TimeNs>(rankSteps);
}

// Counted from the JSON as docs/gaps.md defines a step's GPU window, over
// both ranks' steps after the warm-up: each step (one next() to the next)
// runs on its device from its start (or the previous step's last GPU end,
// if later; or its own first op, if earlier; never before the device's
// first op) to the last end of the GPU ops launched in it; busy is the
// union of the device's ops inside that window.
struct StepWindowSums {
  TimeNs busy = 0;
  TimeNs active = 0;
};

TimeNs unionInside(const std::vector<std::pair<TimeNs, TimeNs>>& sortedOps, TimeNs from, TimeNs to) {
  TimeNs total = 0;
  TimeNs runStart = 0;
  TimeNs runEnd = -1;
  for (auto [start, end] : sortedOps) {
    start = std::max(start, from);
    end = std::min(end, to);
    if (end <= start) continue;
    if (start > runEnd) {
      if (runEnd > runStart) total += runEnd - runStart;
      runStart = start;
      runEnd = end;
    } else {
      runEnd = std::max(runEnd, end);
    }
  }
  return total + (runEnd > runStart ? runEnd - runStart : 0);
}

StepWindowSums stepWindowsFromJson(const std::filesystem::path& dir) {
  StepWindowSums sums;
  for (int rank = 0; rank < 2; ++rank) {
    const auto path = dir / ("rank-" + std::to_string(rank) + ".json.gz");
    const nlohmann::json j = nlohmann::json::parse(testing::readMaybeGzipped(path.string()));
    std::vector<TimeNs> next;  // the data loader's next() starts
    std::map<std::int64_t, TimeNs> launchStart;  // correlation -> launch call start
    struct Op {
      TimeNs start, end;
      std::int64_t correlation;
    };
    std::vector<Op> ops;  // one device a rank
    for (const auto& e : j["traceEvents"]) {
      const std::string cat = e.value("cat", "");
      if (e.value("ph", "") != "X") continue;
      if (cat == "user_annotation" && e.value("name", "") == testing::kDataLoaderNext)
        next.push_back(testing::exactNs(e["ts"]));
      if (!e.contains("args")) continue;
      const auto corr = e["args"].value("correlation", std::int64_t{-1});
      if (cat == "cuda_runtime" || cat == "cuda_driver") launchStart[corr] = testing::exactNs(e["ts"]);
      if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
        const TimeNs start = testing::exactNs(e["ts"]);
        ops.push_back({start, start + testing::exactNs(e["dur"]), corr});
      }
    }
    std::sort(next.begin(), next.end());
    std::sort(ops.begin(), ops.end(), [](const Op& x, const Op& y) { return x.start < y.start; });
    std::vector<std::pair<TimeNs, TimeNs>> intervals;
    for (const Op& op : ops) intervals.emplace_back(op.start, op.end);
    std::optional<TimeNs> previousEnd;
    for (std::size_t k = 0; k + 1 < next.size(); ++k) {
      std::optional<TimeNs> firstOwn, lastEnd;
      for (const Op& op : ops) {
        auto launch = launchStart.find(op.correlation);
        if (launch == launchStart.end() || launch->second < next[k] || launch->second >= next[k + 1]) continue;
        firstOwn = std::min(firstOwn.value_or(op.start), op.start);
        lastEnd = std::max(lastEnd.value_or(op.end), op.end);
      }
      if (!lastEnd) continue;
      const TimeNs from = std::max(std::min(std::max(next[k], previousEnd.value_or(next[k])), *firstOwn), ops[0].start);
      previousEnd = lastEnd;
      if (k == 0) continue;  // the warm-up
      sums.active += *lastEnd - from;
      sums.busy += unionInside(intervals, from, *lastEnd);
    }
  }
  return sums;
}

RanksAnalysis analyseDir(const std::filesystem::path& dir) { return analyzeRanks(loadRankSet(rankFiles({dir.string()})).tables); }

const std::filesystem::path kData = std::filesystem::path(GAPSCOPE_TEST_DATA_DIR);

// The real 2-rank DDP script recorded by gapscope and by torch.profiler.
TEST(SetCompare, RealUserDdpRecordings) {
  const auto a = kData / "h100-user-ddp" / "gapscope";
  const auto b = kData / "h100-user-ddp" / "torch";
  const RankSetComparison c = compareRankSets(analyseDir(a), analyseDir(b));
  EXPECT_EQ(c.runs[0].stepTimeNs, jobStepTimeFromJson(a));
  EXPECT_EQ(c.runs[1].stepTimeNs, jobStepTimeFromJson(b));
  EXPECT_EQ(c.runs[0].steps, 15u);
  EXPECT_EQ(c.runs[1].steps, 15u);
  EXPECT_EQ(c.runs[0].stepMark, "each " + std::string(testing::kDataLoaderNext) + " to the next");
  EXPECT_NE(c.verdict.find("rank 1 is still the straggler: in A straggling in 2 of 15 steps"), std::string::npos)
      << c.verdict;
  // Each run's torchrun agent (pid-N) and warm-up are its own notes.
  for (const auto& n : c.notes) EXPECT_TRUE(n.rfind("A: ", 0) == 0 || n.rfind("B: ", 0) == 0) << n;
}

// The same script before and after its straggler's fix (the 40 ms stall of
// rank 1 in iterations 6 and 11 removed), both recorded by gapscope.
TEST(SetCompare, RealStragglerFixed) {
  const auto before = kData / "h100-user-ddp-fix" / "before";
  const auto after = kData / "h100-user-ddp-fix" / "after";
  const RanksAnalysis a = analyseDir(before);
  const RanksAnalysis b = analyseDir(after);
  const RankSetComparison c = compareRankSets(a, b);
  const std::vector<TimeNs> stepsA = jobStepTimesFromJson(before);
  const std::vector<TimeNs> stepsB = jobStepTimesFromJson(after);
  EXPECT_EQ(c.runs[0].stepTimes, stepsA);
  EXPECT_EQ(c.runs[1].stepTimes, stepsB);
  const TimeNs countedA = lowerMedianOf(stepsA);
  const TimeNs countedB = lowerMedianOf(stepsB);
  EXPECT_EQ(c.runs[0].stepTimeNs, countedA);
  EXPECT_EQ(c.runs[1].stepTimeNs, countedB);
  EXPECT_EQ(c.runs[0].collectivePerStepNs, collectivePerRankStepFromJson(before));
  EXPECT_EQ(c.runs[1].collectivePerStepNs, collectivePerRankStepFromJson(after));
  // The job's GPU busy and its idle a rank and step (by cause, summed):
  // from the steps' GPU windows counted in the JSON.
  for (const auto& [run, dir] : {std::pair{0, before}, std::pair{1, after}}) {
    const StepWindowSums counted = stepWindowsFromJson(dir);
    EXPECT_DOUBLE_EQ(c.runs[run].gpuBusyPct, 100.0 * static_cast<double>(counted.busy) / static_cast<double>(counted.active));
    TimeNs idlePerStep = 0;
    for (TimeNs ns : c.runs[run].idlePerStep.ns) idlePerStep += ns;
    const TimeNs countedIdle = (counted.active - counted.busy) / static_cast<TimeNs>(c.runs[run].rankSteps);
    EXPECT_LE(countedIdle - idlePerStep, static_cast<TimeNs>(analysis::kGapCauseCount)) << run;  // each cause rounds down
    EXPECT_GE(countedIdle - idlePerStep, 0) << run;
  }
  // B's steps are told apart from A's: U counted over the pairs of steps,
  // where A's was the longer in 168 of the 225 (ties half).
  double pairsALonger = 0;
  for (TimeNs x : stepsA)
    for (TimeNs y : stepsB) pairsALonger += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  EXPECT_DOUBLE_EQ(c.stepSpread.u, pairsALonger);
  EXPECT_DOUBLE_EQ(pairsALonger, 168.0);
  // p from an implementation of scipy's formulas written apart (Python,
  // over the same 15 and 15 step times), to 1e-12.
  EXPECT_NEAR(c.stepSpread.pValue, 0.02253107159485841, 1e-12);
  EXPECT_TRUE(c.stepSpread.beyondSpread());
  EXPECT_EQ(c.verdict.rfind(compare::speedPhrase(countedA, countedB, c.stepSpread) + "; ", 0), 0u) << c.verdict;
  EXPECT_EQ(c.verdict.rfind("B is 7.7% faster per step (27.829 ms -> 25.683 ms median), beyond the steps' spread (p = "
                            "0.023 over 15 and 15 steps); ",
                            0),
            0u)
      << c.verdict;
  std::map<std::int64_t, std::int64_t> stragglingBefore;
  for (const StepChange& s : c.steps) {
    ASSERT_TRUE(s.a && s.b);
    if (s.a->straggling) stragglingBefore[s.step] = s.a->slowestRank;
    EXPECT_FALSE(s.b->straggling) << s.step;
  }
  EXPECT_EQ(stragglingBefore, (std::map<std::int64_t, std::int64_t>{{6, 1}, {11, 1}}));
  EXPECT_EQ(c.runs[0].stragglingSteps, 2u);
  EXPECT_EQ(c.runs[1].stragglingSteps, 0u);
  // The stall is gone; rank 1 still reaches the all-reduce after rank 0 in
  // a typical step of the run after (consistently slower), so it stays named.
  EXPECT_NE(c.verdict.find("rank 1 no longer straggles in single steps (2 of 15 in A, none in B)"), std::string::npos)
      << c.verdict;
  EXPECT_LT(c.runs[1].waitPerStepNs, c.runs[0].waitPerStepNs);
}

TEST(SetCompareCli, TwoDirectoriesAreTwoRunsOfAJob) {
  TempDir dir;
  const RankSetSpec before = withLateRank(2, 7);
  const auto a = dir.path() / "a";
  const auto b = dir.path() / "b";
  bench::writeRankSet(a.string(), before);
  bench::writeRankSet(b.string(), plain());
  const RankSetComparison expected = compareRankSets(analyzeRanks(loadRankSet(rankFiles({a.string()})).tables),
                                                     analyzeRanks(loadRankSet(rankFiles({b.string()})).tables));

  const auto json = runCli({"diff", a.string(), b.string(), "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("verdict"), expected.verdict);
  EXPECT_EQ(j.at("runs")[0].at("path"), a.string());
  EXPECT_EQ(j.at("runs")[0].at("step_time_ns"), jobStepTime(before));
  double pairsALonger = 0;
  for (TimeNs x : jobStepTimes(before))
    for (TimeNs y : jobStepTimes(plain())) pairsALonger += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  EXPECT_EQ(j.at("step_time_test").at("u"), pairsALonger);
  EXPECT_EQ(j.at("step_time_test").at("steps_a"), 10);
  EXPECT_EQ(j.at("step_time_test").at("p_value"), expected.stepSpread.pValue);
  EXPECT_EQ(j.at("step_time_test").at("beyond_spread"), expected.stepSpread.beyondSpread());
  EXPECT_EQ(j.at("runs")[0].at("wait_per_step_ns"), expected.runs[0].waitPerStepNs);
  EXPECT_EQ(j.at("runs")[0].at("stragglers"), nlohmann::json({2}));
  EXPECT_EQ(j.at("runs")[1].at("stragglers"), nlohmann::json::array());
  ASSERT_EQ(j.at("ranks").size(), 8u);
  EXPECT_EQ(j["ranks"][2].at("a").at("straggling_steps"), 1);
  EXPECT_EQ(j["ranks"][2].at("b").at("straggling_steps"), 0);
  EXPECT_EQ(j["ranks"][2].at("a").at("counted_steps"), 10);
  ASSERT_EQ(j.at("steps").size(), 10u);
  EXPECT_EQ(j["steps"][6].at("a").at("slowest_rank"), 2);

  const auto text = runCli({"diff", a.string(), b.string()});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Verdict: " + expected.verdict), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Straggling steps"), std::string::npos) << text.out;

  const auto ranksCsv = runCli({"diff", a.string(), b.string(), "--format", "csv"});
  ASSERT_EQ(ranksCsv.status, 0) << ranksCsv.err;
  EXPECT_EQ(std::count(ranksCsv.out.begin(), ranksCsv.out.end(), '\n'), 9);  // header and 8 ranks
  EXPECT_EQ(ranksCsv.out.rfind("rank,in_a,in_b,step_time_a_ns", 0), 0u) << ranksCsv.out;
  const auto stepsCsv = runCli({"diff", a.string(), b.string(), "--format", "csv", "--table", "steps"});
  ASSERT_EQ(stepsCsv.status, 0) << stepsCsv.err;
  EXPECT_EQ(std::count(stepsCsv.out.begin(), stepsCsv.out.end(), '\n'), 11);  // header and 10 steps
  EXPECT_NE(stepsCsv.out.find("\n7,1,1," + std::to_string(bench::stepTime(before, 7)) + ","), std::string::npos)
      << stepsCsv.out;
}

// Markdown for a pull request: the job table with the generator's step
// times, a row per rank and step, the verdict and every name escaped (a
// run's folder named with Markdown's own characters stays text).
TEST(SetCompareCli, MarkdownHasTheTablesAndEscapesTheNames) {
  TempDir dir;
  const RankSetSpec before = withLateRank(2, 7);
  const auto a = dir.path() / "run_*1*|a";
  const auto b = dir.path() / "b";
  bench::writeRankSet(a.string(), before);
  bench::writeRankSet(b.string(), plain());
  const auto md = runCli({"diff", a.string(), b.string(), "--format", "md"});
  ASSERT_EQ(md.status, 0) << md.err;
  const std::string escapedA = format::escapeMarkdown(a.string());
  EXPECT_NE(escapedA.find("run\\_\\*1\\*\\|a"), std::string::npos) << escapedA;
  EXPECT_NE(md.out.find("- **A**: " + escapedA + " (8 ranks, 10 steps compared; a step: ProfilerStep\\#N)\n"),
            std::string::npos)
      << md.out;
  const RankSetComparison expected = compareRankSets(analyzeRanks(loadRankSet(rankFiles({a.string()})).tables),
                                                     analyzeRanks(loadRankSet(rankFiles({b.string()})).tables));
  EXPECT_NE(md.out.find("**Verdict**: " + format::escapeMarkdown(expected.verdict) + "\n"), std::string::npos) << md.out;
  const auto ms = [](TimeNs t) { return format::formatDuration(t, format::DurationStyle::TorchTable); };
  EXPECT_NE(md.out.find("| Step time (median) | " + ms(jobStepTime(before)) + " | " + ms(jobStepTime(plain())) + " |\n"),
            std::string::npos)
      << md.out;
  // A table row per rank and per step, between the alignment row and the next heading.
  const auto rowsUnder = [&](const std::string& heading) {
    std::size_t at = md.out.find("\n## " + heading + "\n");
    at = md.out.find("| ---: |", at);
    std::size_t rows = 0;
    for (at = md.out.find('\n', at) + 1; md.out.compare(at, 2, "| ") == 0; at = md.out.find('\n', at) + 1) ++rows;
    return rows;
  };
  EXPECT_EQ(rowsUnder("Ranks"), 8u);
  EXPECT_EQ(rowsUnder("Steps"), 10u);
  EXPECT_NE(md.out.find("| 7 | " + ms(bench::stepTime(before, 7)) + " | " + ms(bench::stepTime(plain(), 7)) + " | 2 |"),
            std::string::npos)
      << md.out;
}

// Each run of the job recorded four times (docs/compare.md, "Several
// recordings of each side"): A's runs launch 20, 23, 18 and 25 kernels a
// step, B's 10, 12, 9 and 14, so every B run's job step is below every A
// run's: U = 16 of 16, p = 2 / C(8, 4). The typical runs are A's 20 and B's
// 10 (the lower medians); the second of A's is its ranks document.
TEST(SetCompareCli, SeveralRecordingsOfEachSide) {
  TempDir dir;
  const std::array<std::vector<int>, 2> kernels{std::vector<int>{20, 23, 18, 25}, std::vector<int>{10, 12, 9, 14}};
  std::array<std::vector<std::string>, 2> paths;
  std::array<std::vector<RankSetSpec>, 2> specs;
  std::array<std::vector<RanksAnalysis>, 2> analyses;
  for (std::size_t side = 0; side < 2; ++side) {
    for (std::size_t i = 0; i < 4; ++i) {
      RankSetSpec spec = plain(4, 6);
      spec.kernelsPerStep = kernels[side][i];
      const std::string name = std::string(side == 0 ? "a" : "b") + std::to_string(i + 1);
      analyses[side].push_back(analyse(dir, name, spec));
      paths[side].push_back((dir.path() / name).string());
      specs[side].push_back(spec);
    }
  }
  const auto document = runCli({"ranks", paths[0][1], "--format", "json"});
  ASSERT_EQ(document.status, 0) << document.err;
  paths[0][1] = (dir.path() / "a2.json").string();
  std::ofstream(paths[0][1]) << document.out;
  std::array<std::vector<const RanksAnalysis*>, 2> runs;
  for (std::size_t side = 0; side < 2; ++side)
    for (const RanksAnalysis& a : analyses[side]) runs[side].push_back(&a);
  const RankSetComparison expected = compareRankSetRecordings(runs, paths);

  std::vector<std::string> args{"diff"};
  args.insert(args.end(), paths[0].begin(), paths[0].end());
  args.push_back("vs");
  args.insert(args.end(), paths[1].begin(), paths[1].end());
  std::vector<std::string> jsonArgs = args;
  for (const char* a : {"--format", "json"}) jsonArgs.push_back(a);
  const auto json = runCli(jsonArgs);
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("verdict"), expected.verdict);
  EXPECT_NE(expected.verdict.find("middle recordings of 4 and 4), beyond the run-to-run spread (p = 0.029 over 4 "
                                  "and 4 recordings);"),
            std::string::npos)
      << expected.verdict;
  std::array<std::vector<TimeNs>, 2> medians;
  for (std::size_t side = 0; side < 2; ++side) {
    const auto& recordings = j.at("recordings").at(side == 0 ? "a" : "b");
    ASSERT_EQ(recordings.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
      medians[side].push_back(jobStepTime(specs[side][i]));
      EXPECT_EQ(recordings[i].at("file"), paths[side][i]);
      EXPECT_EQ(recordings[i].at("step_time_ns"), medians[side][i]) << side << " " << i;
      EXPECT_EQ(recordings[i].at("steps"), 6);
      EXPECT_EQ(recordings[i].at("typical"), i == 0) << side << " " << i;
    }
    EXPECT_EQ(j.at("runs")[side].at("path"), paths[side][0]);
  }
  double pairsALonger = 0;
  for (TimeNs x : medians[0])
    for (TimeNs y : medians[1]) pairsALonger += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  EXPECT_EQ(j.at("run_to_run_test").at("u"), pairsALonger);
  EXPECT_EQ(pairsALonger, 16.0);
  EXPECT_NEAR(j.at("run_to_run_test").at("p_value").get<double>(), 2.0 / 70.0, 1e-12);
  EXPECT_EQ(j.at("run_to_run_test").at("recordings_b"), 4);

  const auto text = runCli(args);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("A: " + paths[0][0] + " (4 ranks, 6 steps compared; a step: ProfilerStep#N), the middle of 4 "
                          "recordings\n"),
            std::string::npos)
      << text.out;
  std::vector<std::string> csvArgs = args;
  for (const char* a : {"--format", "csv", "--table", "recordings"}) csvArgs.push_back(a);
  const auto csv = runCli(csvArgs);
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 9);  // header and 8 runs
  for (std::size_t side = 0; side < 2; ++side) {
    for (std::size_t i = 0; i < 4; ++i) {
      const std::string us = gapscope::testing::microsecondsText(medians[side][i]);
      EXPECT_NE(csv.out.find(std::string(side == 0 ? "A," : "B,") + paths[side][i] + ",6," + us + (i == 0 ? ",yes" : ",")),
                std::string::npos)
          << csv.out;
    }
  }

  const auto missing = runCli({"diff", paths[0][0], (dir.path() / "a9").string(), "vs", paths[1][0]});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("run A: " + (dir.path() / "a9").string() + ": cannot open"), std::string::npos)
      << missing.err;
  const auto files = bench::writeRankSet((dir.path() / "c").string(), plain(2, 3));
  const auto mixed = runCli({"diff", paths[0][0], files[0], "vs", paths[1][0]});
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find(paths[0][0] + " is a run of a distributed job (a directory of rank traces) and " + files[0] +
                           " is a trace"),
            std::string::npos)
      << mixed.err;
}

TEST(SetCompareCli, ADirectoryAndATraceOrAnotherFormatAreRefused) {
  TempDir dir;
  const auto a = dir.path() / "a";
  const auto files = bench::writeRankSet(a.string(), plain(2, 3));
  const auto mixed = runCli({"diff", a.string(), files[0]});
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find("run A is a directory of rank traces and run B is a trace"), std::string::npos) << mixed.err;
  const auto html = runCli({"diff", a.string(), a.string(), "--format", "html"});
  EXPECT_EQ(html.status, 2);
  EXPECT_NE(html.err.find("two rank sets are compared in text, json, csv or md, not 'html'"), std::string::npos)
      << html.err;
  std::filesystem::create_directories(dir.path() / "empty");
  const auto empty = runCli({"diff", a.string(), (dir.path() / "empty").string()});
  EXPECT_EQ(empty.status, 1);
  EXPECT_NE(empty.err.find("gapscope-cli diff: run B: "), std::string::npos) << empty.err;
}

}  // namespace
}  // namespace gapscope::ranks
