// The rank tables written as gzip CSV and read back: the same tables, the
// same analysis; malformed files named with line and column.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>

#include "../support/read_text.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"
#include "gapscope/ranks/tables_csv.h"
#include "rank_set_generator.h"

namespace gapscope::ranks {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("gapscope-tables-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

void writeGzip(const fs::path& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
}

// Reading the tables in `dir` fails: `part` when the message holds it,
// else the message itself ("no error" when nothing failed).
std::string readError(const fs::path& dir, const std::string& part = "steps.csv.gz:2:") {
  try {
    readRankTables(dir.string());
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    return what.find(part) != std::string::npos ? part : what;
  }
  return "no error";
}

std::vector<RankTables> plantedTables(const fs::path& dir) {
  bench::RankSetSpec spec;
  spec.ranks = 4;
  spec.steps = 6;
  spec.lateRank = 3;
  spec.lateStep = 2;
  bench::writeRankSet((dir / "traces").string(), spec);
  return loadRankSet(rankFiles({(dir / "traces").string()})).tables;
}

TEST(TablesCsv, RoundTripGivesTheSameAnalysis) {
  const fs::path dir = scratch("roundtrip");
  std::vector<RankTables> original = plantedTables(dir);
  ASSERT_EQ(original.size(), 4u);
  std::vector<RankTables> back;
  for (const auto& t : original) {
    const std::string out = (dir / ("tables-" + std::to_string(t.rank))).string();
    writeRankTables(t, out);
    for (const auto& name : tableNames()) EXPECT_TRUE(fs::exists(fs::path(out) / (name + ".csv.gz"))) << name;
    back.push_back(readRankTables(out));
  }
  for (std::size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(back[i].rank, original[i].rank);
    EXPECT_EQ(back[i].file, original[i].file);
    EXPECT_EQ(back[i].worldSize, 4);
    ASSERT_EQ(back[i].steps.size(), original[i].steps.size());
    EXPECT_EQ(back[i].steps[1].timeNs, original[i].steps[1].timeNs);
    EXPECT_EQ(back[i].steps[1].idle.ns, original[i].steps[1].idle.ns);
    ASSERT_EQ(back[i].collectives.size(), original[i].collectives.size());
    EXPECT_EQ(back[i].collectives[0].name, original[i].collectives[0].name);
    EXPECT_EQ(back[i].collectives[0].cpuOp, "nccl:all_reduce");
    EXPECT_EQ(back[i].kernels.size(), original[i].kernels.size());
    EXPECT_EQ(back[i].ops.size(), original[i].ops.size());
    EXPECT_EQ(back[i].gaps.size(), original[i].gaps.size());
  }
  const RanksAnalysis a = analyzeRanks(original);
  const RanksAnalysis b = analyzeRanks(back);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.stragglers, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(b.stragglers, a.stragglers);
  fs::remove_all(dir);
}

TEST(TablesCsv, QuotedNamesSurvive) {
  const fs::path dir = scratch("quotes");
  RankTables t;
  t.rank = 7;
  t.file = "a \"quoted\", file.json";
  t.kernels.push_back({"void k<1, 2>(int, \"x\")\nsecond line", 3, 42});
  writeRankTables(t, dir.string());
  const RankTables back = readRankTables(dir.string());
  EXPECT_EQ(back.file, t.file);
  ASSERT_EQ(back.kernels.size(), 1u);
  EXPECT_EQ(back.kernels[0].name, t.kernels[0].name);
  EXPECT_EQ(back.kernels[0].totalNs, 42);
  fs::remove_all(dir);
}

TEST(TablesCsv, MalformedFilesAreNamedWithLineAndColumn) {
  const fs::path dir = scratch("bad");
  RankTables t;
  t.rank = 1;
  RankStep s;
  s.step = 1;
  t.steps.push_back(s);
  writeRankTables(t, dir.string());
  const std::string header = "rank,step,start_ns,time_ns,busy_ns,active_ns,idle_launch_overhead_ns,"
                             "idle_synchronization_ns,idle_queued_ns,idle_other_ns,kernels,launches,collectives,"
                             "collective_ns,warm_up\n";
  writeGzip(dir / "steps.csv.gz", header + "1,1,0,12x,0,0,0,0,0,0,0,0,0,0,0\n");
  EXPECT_EQ(readError(dir), "steps.csv.gz:2:");
  EXPECT_EQ(readError(dir, "'12x' is not an integer"), "'12x' is not an integer");
  writeGzip(dir / "steps.csv.gz", header + "1,1,0\n");
  EXPECT_THROW(readRankTables(dir.string()), std::runtime_error);
  writeGzip(dir / "steps.csv.gz", header + "1,1,0,12,0,0,0,0,0,0,0,0,0,0,2\n");
  EXPECT_EQ(readError(dir, "warm_up is 2, not 0 or 1"), "warm_up is 2, not 0 or 1");
  writeGzip(dir / "meta.csv.gz", "schema_version,rank,world_size,file,step_source,step_name\n3,1,0,x,whole_trace,\n");
  EXPECT_EQ(readError(dir, "schema version 3, this gapscope reads 2"), "schema version 3, this gapscope reads 2");
  // Version 1's tables (no step_name, no warm_up) are named as another version's.
  writeGzip(dir / "meta.csv.gz", "schema_version,rank,world_size,file,step_source\n1,1,0,x,whole_trace\n");
  EXPECT_EQ(readError(dir, "not the one of schema version 2"), "not the one of schema version 2");
  fs::remove_all(dir);
}

TEST(RankFiles, DirectoriesPatternsAndFiles) {
  const fs::path dir = scratch("files");
  fs::create_directories(dir / "sub");
  for (const char* name : {"rank-0.json", "rank-1.json.gz", "notes.txt", "sub/rank-2.json"}) {
    std::ofstream(dir / name) << "{}";
  }
  EXPECT_EQ(rankFiles({dir.string()}),
            (std::vector<std::string>{(dir / "rank-0.json").string(), (dir / "rank-1.json.gz").string()}));
  EXPECT_EQ(rankFiles({(dir / "rank-*.json").string(), (dir / "sub/rank-2.json").string()}),
            (std::vector<std::string>{(dir / "rank-0.json").string(), (dir / "sub/rank-2.json").string()}));
  EXPECT_THROW(rankFiles({(dir / "missing-*.json").string()}), std::runtime_error);
  EXPECT_THROW(rankFiles({(dir / "sub" / "none").string()}), std::runtime_error);
  fs::remove_all(dir);
}

TEST(MemoryBudget, Parsed) {
  EXPECT_EQ(parseMemoryBudget("512M"), 512ull << 20);
  EXPECT_EQ(parseMemoryBudget("8G"), 8ull << 30);
  EXPECT_EQ(parseMemoryBudget("1000"), 1000u);
  EXPECT_GT(parseMemoryBudget("25%"), 0u);
  EXPECT_THROW(parseMemoryBudget("lots"), std::invalid_argument);
  EXPECT_THROW(parseMemoryBudget("-1G"), std::invalid_argument);
  EXPECT_THROW(parseMemoryBudget("200%"), std::invalid_argument);
}

}  // namespace
}  // namespace gapscope::ranks
