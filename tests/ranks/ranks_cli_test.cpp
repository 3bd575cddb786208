// gapscope-cli ranks and export-tables as processes, on a generated set.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../cli/cli_run.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"
#include "gapscope/ranks/tables_csv.h"
#include "rank_set_generator.h"

namespace gapscope::ranks {
namespace {

using gapscope::testing::runCli;
using gapscope::testing::TempDir;

bench::RankSetSpec planted() {
  bench::RankSetSpec spec;
  spec.ranks = 6;
  spec.steps = 8;
  spec.gapRank = 4;
  spec.gapStep = 2;
  spec.lateRank = 1;
  spec.lateStep = 6;
  return spec;
}

TEST(RanksCli, JsonCarriesTheAnalysis) {
  TempDir dir;
  const auto files = bench::writeRankSet((dir.path() / "set").string(), planted());
  const auto r = runCli({"ranks", (dir.path() / "set").string(), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const RanksAnalysis a = analyzeRanks(loadRankSet(files).tables);
  ASSERT_EQ(j.at("ranks").size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& row = j["ranks"][i];
    EXPECT_EQ(row.at("rank"), a.ranks[i].rank);
    EXPECT_EQ(row.at("file"), files[i]);
    EXPECT_EQ(row.at("step_time_ns"), a.ranks[i].stepTimeNs);
    EXPECT_EQ(row.at("collective_wait_ns"), a.ranks[i].waitNs);
    EXPECT_EQ(row.at("idle_by_cause_ns").at("launch_overhead"), a.ranks[i].idle[analysis::GapCause::LaunchOverhead]);
    EXPECT_DOUBLE_EQ(row.at("gpu_busy_pct").get<double>(), a.ranks[i].gpuBusyPct);
  }
  EXPECT_EQ(j.at("stragglers"), nlohmann::json({1, 4}));
  ASSERT_EQ(j.at("steps").size(), 8u);
  EXPECT_EQ(j["steps"][1].at("slowest_rank"), 4);
  EXPECT_EQ(j["steps"][1].at("straggling"), true);
  EXPECT_EQ(j["steps"][5].at("slowest_rank"), 1);
  EXPECT_EQ(j.at("verdict"), a.verdict);
  EXPECT_TRUE(j.at("errors").empty());
}

TEST(RanksCli, ABadRankIsListedAndTheOthersAnalysed) {
  TempDir dir;
  bench::writeRankSet((dir.path() / "set").string(), planted());
  std::ofstream(dir.path() / "set" / "rank-9.json") << "{\"traceEvents\": [ {\"ph\": ";
  std::ofstream(dir.path() / "set" / "rank-8.json") << "not json at all";
  const auto r = runCli({"ranks", (dir.path() / "set").string(), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("ranks").size(), 7u);  // the cut file keeps what came before the cut (nothing but a rank)
  ASSERT_EQ(j.at("errors").size(), 1u);
  EXPECT_NE(j["errors"][0].at("file").get<std::string>().find("rank-8.json"), std::string::npos);
  EXPECT_NE(r.err.find("rank-8.json"), std::string::npos) << r.err;
  // The cut file's warning says where, as `summary` does.
  EXPECT_NE(r.err.find("rank-9.json: truncated at byte 25"), std::string::npos) << r.err;
  EXPECT_EQ(j.at("stragglers"), nlohmann::json({1, 4}));
}

TEST(RanksCli, NothingReadableFailsWithAReason) {
  TempDir dir;
  std::ofstream(dir.path() / "rank-0.json") << "nope";
  const auto r = runCli({"ranks", dir.path().string()});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no rank could be read"), std::string::npos) << r.err;
  // A path that is not there is said so, as `summary` says it; a directory
  // or a pattern with no traces, that.
  const auto missing = runCli({"ranks", (dir.path() / "missing").string()});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("missing: cannot open: No such file or directory"), std::string::npos) << missing.err;
  fs::create_directory(dir.path() / "empty");
  const auto empty = runCli({"ranks", (dir.path() / "empty").string()});
  EXPECT_EQ(empty.status, 1);
  EXPECT_NE(empty.err.find("empty: no trace files (.json, .json.gz) there"), std::string::npos) << empty.err;
  const auto none = runCli({"ranks", (dir.path() / "rank-*.json.gz").string()});
  EXPECT_EQ(none.status, 1);
  EXPECT_NE(none.err.find("rank-*.json.gz: no trace files (.json, .json.gz) match"), std::string::npos) << none.err;
  EXPECT_EQ(runCli({"ranks", dir.path().string(), "--memory-budget", "lots"}).status, 2);
}

TEST(RanksCli, ExportTablesWritesEveryTable) {
  TempDir dir;
  const auto files = bench::writeRankSet((dir.path() / "set").string(), planted());
  const auto out = dir.path() / "tables";
  const auto r = runCli({"export-tables", files[1], "-o", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("rank 1: 8 steps, 8 collectives"), std::string::npos) << r.out;
  const RankTables t = readRankTables(out.string());
  const RankTables direct = loadRankSet({files[1]}).tables.at(0);
  EXPECT_EQ(t.rank, 1);
  EXPECT_EQ(t.steps.size(), direct.steps.size());
  EXPECT_EQ(t.collectives.size(), direct.collectives.size());
  EXPECT_EQ(t.gaps.size(), direct.gaps.size());
  EXPECT_EQ(runCli({"export-tables", files[1]}).status, 2);
}

TEST(RanksCli, TextNamesTheVerdictAndTheStragglingSteps) {
  TempDir dir;
  bench::writeRankSet((dir.path() / "set").string(), planted());
  const auto r = runCli({"ranks", (dir.path() / "set").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Verdict: rank 1 is the straggler", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("Straggling"), std::string::npos);
  const auto csv = runCli({"ranks", (dir.path() / "set").string(), "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 7);  // header + 6 ranks
}

}  // namespace
}  // namespace gapscope::ranks
