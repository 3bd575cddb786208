// Rank sets with planted stragglers: the analysis must name them, their
// steps and every figure exactly, as worked out from the generator's timing
// functions (bench/ranks/rank_set_generator.h), not from gapscope.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"
#include "rank_set_generator.h"

namespace gapscope::ranks {
namespace {

using bench::RankSetSpec;

class PlantedSet : public ::testing::Test {
 protected:
  static std::filesystem::path freshDir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("gapscope-ranks-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir;
  }
  static RankSetSpec plantedSpec() {
    RankSetSpec spec;
    spec.ranks = 8;
    spec.steps = 10;
    spec.gapRank = 5;
    spec.gapStep = 3;
    spec.lateRank = 2;
    spec.lateStep = 7;
    return spec;
  }
  static RanksAnalysis analyse(const RankSetSpec& spec, const std::string& name, RankSetOptions options = {}) {
    const auto dir = freshDir(name);
    bench::writeRankSet(dir.string(), spec);
    RankSet set = loadRankSet(rankFiles({dir.string()}), options);
    EXPECT_TRUE(set.errors.empty());
    std::filesystem::remove_all(dir);
    return analyzeRanks(std::move(set.tables));
  }
  // The latest all-reduce start of a step over all ranks.
  static TimeNs latestStart(const RankSetSpec& spec, int step) {
    TimeNs latest = 0;
    for (int r = 0; r < spec.ranks; ++r) latest = std::max(latest, bench::allReduceStart(spec, r, step));
    return latest;
  }
};

TEST_F(PlantedSet, NamesBothStragglersMostSevereFirst) {
  const RankSetSpec spec = plantedSpec();
  const RanksAnalysis a = analyse(spec, "planted");
  // The late rank's excess (2 ms of CPU work) is larger than the gap rank's.
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{2, 5}));
  ASSERT_EQ(a.steps.size(), 10u);
  for (const auto& s : a.steps) {
    SCOPED_TRACE(s.step);
    EXPECT_EQ(s.ranks, 8u);
    EXPECT_EQ(s.straggling, s.step == 3 || s.step == 7);
    EXPECT_EQ(s.stepTimeMedianNs, bench::stepTime(spec, static_cast<int>(s.step)));
    if (s.step == 3) {
      EXPECT_EQ(s.slowestRank, 5);
    }
    if (s.step == 7) {
      EXPECT_EQ(s.slowestRank, 2);
    }
    // The slowest rank waited for nobody: its own time is the step time;
    // a punctual rank's own time is the step less its wait for the last one.
    const int punctual = s.step == 3 ? 0 : 1;
    const TimeNs wait = latestStart(spec, static_cast<int>(s.step)) - bench::allReduceStart(spec, punctual, static_cast<int>(s.step));
    EXPECT_EQ(s.medianNs, bench::stepTime(spec, static_cast<int>(s.step)) - wait);
    EXPECT_EQ(s.maxWaitNs, wait);
  }
  EXPECT_NE(a.verdict.find("rank 2 is the straggler"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("in step 7"), std::string::npos) << a.verdict;
  EXPECT_NE(a.verdict.find("Also slow: rank 5 (1 step; its GPU sat idle for launch overhead"), std::string::npos) << a.verdict;
}

TEST_F(PlantedSet, WaitTransferAndCollectiveTimesPerRank) {
  const RankSetSpec spec = plantedSpec();
  const RanksAnalysis a = analyse(spec, "waits");
  ASSERT_EQ(a.ranks.size(), 8u);
  for (const auto& row : a.ranks) {
    SCOPED_TRACE(row.rank);
    TimeNs collective = 0;
    TimeNs wait = 0;
    for (int s = 1; s <= spec.steps; ++s) {
      const TimeNs start = bench::allReduceStart(spec, static_cast<int>(row.rank), s);
      collective += bench::allReduceEnd(spec, s) - start;
      wait += latestStart(spec, s) - start;
    }
    EXPECT_EQ(row.steps, 10u);
    EXPECT_EQ(row.collectives, 10u);
    EXPECT_EQ(row.collectiveNs, collective);
    EXPECT_EQ(row.waitNs, wait);
    EXPECT_EQ(row.transferNs, 10 * spec.transferNs);
    EXPECT_EQ(row.stragglingSteps, row.rank == 2 || row.rank == 5 ? 1u : 0u);
  }
}

TEST_F(PlantedSet, TheCauseOfEachStraggler) {
  const RankSetSpec spec = plantedSpec();
  const RanksAnalysis a = analyse(spec, "causes");
  ASSERT_EQ(a.causes.size(), 2u);
  // The late rank: its GPU idled while the CPU did lateNs of work before
  // the all-reduce, less the time the compute kernels still ran.
  const auto& late = a.causes[0];
  EXPECT_EQ(late.rank, 2);
  EXPECT_EQ(late.worstStep, 7);
  EXPECT_EQ(late.excessNs, bench::allReduceStart(spec, 2, 7) - bench::allReduceStart(spec, 0, 7));
  EXPECT_EQ(late.extraIdle[analysis::GapCause::LaunchOverhead], late.excessNs);
  EXPECT_EQ(late.othersWaitedNs, 7 * late.excessNs);
  const auto& gaps = a.causes[1];
  EXPECT_EQ(gaps.rank, 5);
  EXPECT_EQ(gaps.worstStep, 3);
  EXPECT_EQ(gaps.excessNs, bench::allReduceStart(spec, 5, 3) - bench::allReduceStart(spec, 0, 3));
  EXPECT_GT(gaps.extraIdle[analysis::GapCause::LaunchOverhead], 0);
}

TEST_F(PlantedSet, NoStragglerWhenNothingIsPlanted) {
  RankSetSpec spec;
  spec.ranks = 4;
  spec.steps = 5;
  const RanksAnalysis a = analyse(spec, "none");
  EXPECT_TRUE(a.stragglers.empty());
  for (const auto& s : a.steps) EXPECT_FALSE(s.straggling);
  EXPECT_EQ(a.verdict.rfind("no straggler", 0), 0u) << a.verdict;
}

TEST_F(PlantedSet, ATightMemoryBudgetReadsOneRankAtATimeAndGivesTheSameAnswer) {
  const RankSetSpec spec = plantedSpec();
  RankSetOptions tight;
  tight.memoryBudget = 1;  // smaller than any rank: one at a time
  tight.threads = 4;
  const auto dir = freshDir("budget");
  bench::writeRankSet(dir.string(), spec);
  RankSet set = loadRankSet(rankFiles({dir.string()}), tight);
  EXPECT_EQ(set.concurrency, 1);
  const RanksAnalysis slow = analyzeRanks(std::move(set.tables));
  std::filesystem::remove_all(dir);
  const RanksAnalysis fast = analyse(spec, "budget2");
  EXPECT_EQ(slow.stragglers, fast.stragglers);
  EXPECT_EQ(slow.verdict, fast.verdict);
}

TEST_F(PlantedSet, RanksComeFromFileNamesWithoutDistributedInfo) {
  RankSetSpec spec = plantedSpec();
  spec.distributedInfo = false;
  spec.gzip = true;
  const RanksAnalysis a = analyse(spec, "names");
  ASSERT_EQ(a.ranks.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(a.ranks[i].rank, static_cast<std::int64_t>(i));
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{2, 5}));
  EXPECT_TRUE(a.notes.empty());
}

// A start-up on one rank makes every rank's first step long (the others
// wait for it in the all-reduce): a warm-up, marked and left out, so the
// rank it happened on is not a straggler and the planted late rank still is.
TEST_F(PlantedSet, AWarmUpStepIsMarkedAndLeftOutOfTheStragglerAnalysis) {
  RankSetSpec spec = plantedSpec();
  spec.gapRank = -1;
  spec.warmUpRank = 6;
  spec.warmUpNs = 20'000'000;
  const RanksAnalysis a = analyse(spec, "warm-up");
  ASSERT_EQ(a.steps.size(), 10u);
  EXPECT_TRUE(a.steps[0].warmUp);
  EXPECT_FALSE(a.steps[0].straggling);
  EXPECT_EQ(a.steps[0].slowestRank, 6);  // still shown as it was
  for (std::size_t i = 1; i < a.steps.size(); ++i) EXPECT_FALSE(a.steps[i].warmUp) << a.steps[i].step;
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{2}));
  ASSERT_EQ(a.ranks.size(), 8u);
  for (const auto& row : a.ranks) {
    SCOPED_TRACE(row.rank);
    EXPECT_EQ(row.steps, 10u);  // every step is counted as a step
    std::vector<TimeNs> times;
    TimeNs collective = 0;
    for (int s = 2; s <= spec.steps; ++s) {
      times.push_back(bench::stepTime(spec, s));
      collective += bench::allReduceEnd(spec, s) - bench::allReduceStart(spec, static_cast<int>(row.rank), s);
    }
    std::sort(times.begin(), times.end());
    EXPECT_EQ(row.stepTimeNs, times[(times.size() - 1) / 2]);  // the lower median of steps 2..10
    EXPECT_EQ(row.collectives, 9u);
    EXPECT_EQ(row.collectiveNs, collective);
  }
  EXPECT_NE(a.verdict.find("straggling in 1 of 9 steps after the warm-up (7)"), std::string::npos) << a.verdict;
  char longest[64];
  std::snprintf(longest, sizeof longest, "%.3f ms against", static_cast<double>(bench::stepTime(spec, 1)) / 1e6);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_EQ(a.notes[0].rfind("step 1 is a warm-up (start-up or compilation): " + std::string(longest), 0), 0u)
      << a.notes[0];
  EXPECT_NE(a.notes[0].find(", rank 6 the slowest in it;"), std::string::npos) << a.notes[0];
}

// A rank whose steps are numbered one further than the others' has its
// warm-up at step 2: left out of its own figures and named, not taken for
// the set's; a rank that ended in its first step keeps that step's figures.
TEST_F(PlantedSet, ARanksOwnWarmUpAndARankWithNothingElse) {
  RankSetSpec spec = plantedSpec();
  spec.gapRank = -1;
  spec.warmUpRank = 6;
  const auto dir = freshDir("own-warm-up");
  bench::writeRankSet(dir.string(), spec);
  RankSet set = loadRankSet(rankFiles({dir.string()}));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(set.tables.size(), 8u);
  for (RankTables& t : set.tables) {
    if (t.rank == 5) {
      for (RankStep& s : t.steps) ++s.step;
      for (RankCollective& c : t.collectives) ++c.step;
    }
    if (t.rank == 7) t.steps.resize(1);
  }
  const TimeNs firstStep = set.tables[7].steps[0].timeNs;
  const RanksAnalysis a = analyzeRanks(std::move(set.tables));
  ASSERT_GE(a.steps.size(), 2u);
  EXPECT_TRUE(a.steps[0].warmUp);
  EXPECT_FALSE(a.steps[1].warmUp);  // a warm-up on rank 5 alone
  EXPECT_EQ(a.steps[1].ranks, 6u);   // rank 5's own warm-up is not judged there; rank 7 has no step 2
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{2}));
  EXPECT_EQ(a.ranks[7].stepTimeNs, firstStep);  // its one step, not 0
  EXPECT_EQ(a.ranks[5].stepTimeNs, bench::stepTime(spec, 2));
  std::string notes;
  for (const auto& n : a.notes) notes += n + " | ";
  EXPECT_NE(notes.find("step 2 is a warm-up on rank 5 but not on most ranks: left out of its figures"),
            std::string::npos) << notes;
  EXPECT_NE(notes.find("rank 7 has no step but a warm-up: its figures are of the warm-up"), std::string::npos) << notes;
}

// Without the rule the warm-up step would be the verdict: the same set with
// a start-up too short to be a warm-up names its rank as a straggler.
TEST_F(PlantedSet, AShortStartUpIsAStragglingStepLikeAnyOther) {
  RankSetSpec spec = plantedSpec();
  spec.gapRank = -1;
  spec.lateRank = -1;
  spec.warmUpRank = 6;
  spec.warmUpNs = 300'000;  // about twice a step: not over 5x
  const RanksAnalysis a = analyse(spec, "short-start-up");
  EXPECT_FALSE(a.steps[0].warmUp);
  EXPECT_TRUE(a.steps[0].straggling);
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{6}));
}

TEST_F(PlantedSet, StepsFromAnIterationMarkerAndRanksThatDisagree) {
  RankSetSpec spec = plantedSpec();
  spec.marker = "train_step";
  const RanksAnalysis marked = analyse(spec, "marker");
  EXPECT_EQ(marked.steps.size(), 9u);  // the last occurrence only ends the step before it
  EXPECT_EQ(marked.stragglers, (std::vector<std::int64_t>{2, 5}));
  EXPECT_TRUE(marked.notes.empty());

  const auto dir = freshDir("mixed-marks");
  bench::writeRankSet((dir / "plain").string(), plantedSpec());
  bench::writeRankSet((dir / "marked").string(), spec);
  std::vector<std::string> files = rankFiles({(dir / "plain").string()});
  files[3] = (dir / "marked" / "rank-3.json").string();
  files[4] = (dir / "marked" / "rank-4.json").string();
  RankSet set = loadRankSet(files);
  std::filesystem::remove_all(dir);
  const RanksAnalysis mixed = analyzeRanks(std::move(set.tables));
  ASSERT_EQ(mixed.notes.size(), 1u);
  EXPECT_EQ(mixed.notes[0], "the ranks' steps come from different marks (ranks 0, 1, 2, 5, 6, 7: ProfilerStep#N; "
                            "ranks 3, 4: each train_step to the next): a step number may not be the same iteration "
                            "on every rank");
}

}  // namespace
}  // namespace gapscope::ranks
