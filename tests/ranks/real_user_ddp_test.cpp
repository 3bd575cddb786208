// A user's data-parallel training script with no step marks, on two H100s
// (tests/data/h100-user-ddp, PROVENANCE.md), recorded by `gapscope-cli
// record -o DIR/ -- torchrun ...` and by torch.profiler on each rank. Rank 1
// stalls 40 ms on the CPU in iterations 6 and 11. Each rank's steps must be
// its iterations (from one data loader next() to the next, counted here from
// the JSON and checked against the script's own clock), both ranks must
// take them from the same mark, the first (CUDA and NCCL start-up) must be
// a warm-up left out, and rank 1 must be the straggler in steps 6 and 11.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "../support/unmarked_loop.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks {
namespace {

const std::filesystem::path kUserDdpSet = std::filesystem::path(GAPSCOPE_TEST_DATA_DIR) / "h100-user-ddp";

class RealUserDdp : public ::testing::TestWithParam<const char*> {
 protected:
  static std::vector<RankTables> tables() {
    RankSet set = loadRankSet(rankFiles({(kUserDdpSet / GetParam()).string()}), {});
    EXPECT_TRUE(set.errors.empty());
    return std::move(set.tables);
  }
};

TEST_P(RealUserDdp, EachRanksStepsAreItsIterationsAndTheFirstIsAWarmUp) {
  int ranksSeen = 0;
  for (const RankTables& t : tables()) {
    if (t.rank == kUnknownRank) continue;  // torchrun's agent (pid-N.json.gz)
    SCOPED_TRACE(t.file);
    ++ranksSeen;
    EXPECT_EQ(t.stepSource, analysis::StepSource::RepeatedAnnotation);
    EXPECT_EQ(t.stepName, testing::kDataLoaderNext);
    const testing::UnmarkedLoop loop = testing::unmarkedLoopFromJson(t.file);
    ASSERT_EQ(loop.nextStarts.size(), 17u);  // 16 iterations, and the next() that ends the last
    ASSERT_EQ(t.steps.size(), 16u);
    const std::vector<double> programMs = testing::programIterationsMs(
        (kUserDdpSet / "iter_ms.txt").string(), std::string(GetParam()) + "-rank-" + std::to_string(t.rank));
    ASSERT_EQ(programMs.size(), 16u);
    for (std::size_t k = 0; k < t.steps.size(); ++k) {
      SCOPED_TRACE(k + 1);
      EXPECT_EQ(t.steps[k].step, static_cast<std::int64_t>(k + 1));
      EXPECT_EQ(t.steps[k].startNs, loop.nextStarts[k]);
      EXPECT_EQ(t.steps[k].timeNs, loop.nextStarts[k + 1] - loop.nextStarts[k]);
      EXPECT_EQ(t.steps[k].kernels, loop.kernels[k]);
      EXPECT_EQ(t.steps[k].warmUp, k == 0);
      // The script's clock runs from the top of one iteration to the next,
      // after next() returns: the two differ by how long next() took.
      if (k > 0 && k + 1 < t.steps.size()) {
        EXPECT_LT(std::abs(t.steps[k].timeNs / 1e6 - programMs[k]), 0.5);
      }
    }
  }
  EXPECT_EQ(ranksSeen, 2);
}

TEST_P(RealUserDdp, RankOneStragglesInThePlantedIterationsAndTheWarmUpIsLeftOut) {
  const RanksAnalysis a = analyzeRanks(tables());
  ASSERT_EQ(a.steps.size(), 16u);
  std::map<std::int64_t, std::int64_t> straggling;
  for (const StepRow& s : a.steps) {
    EXPECT_EQ(s.warmUp, s.step == 1) << s.step;
    if (s.straggling) straggling[s.step] = s.slowestRank;
  }
  EXPECT_EQ(straggling, (std::map<std::int64_t, std::int64_t>{{6, 1}, {11, 1}}));
  ASSERT_FALSE(a.stragglers.empty());
  EXPECT_EQ(a.stragglers.front(), 1);
  EXPECT_GT(a.causes.front().excessNs, 35'000'000);  // the 40 ms stall, less what overlapped it
  EXPECT_NE(a.verdict.find("straggling in 2 of 15 steps after the warm-up (6, 11)"), std::string::npos) << a.verdict;
  bool warmUpNoted = false;
  for (const auto& n : a.notes) {
    EXPECT_EQ(n.find("different marks"), std::string::npos) << n;
    warmUpNoted = warmUpNoted || n.rfind("step 1 is a warm-up", 0) == 0;
  }
  EXPECT_TRUE(warmUpNoted);
  for (const RankRow& r : a.ranks) EXPECT_EQ(r.steps, 16u);
}

INSTANTIATE_TEST_SUITE_P(RecordedBy, RealUserDdp, ::testing::Values("gapscope", "torch"));

}  // namespace
}  // namespace gapscope::ranks
