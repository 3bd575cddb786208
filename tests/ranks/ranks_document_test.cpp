// A `ranks --format json` document read back (ranks/ranks_document.h): it
// gives back every figure that was written, `diff` of two documents says
// what `diff` of the two directories says, and a document that is not one
// of ours is refused naming the value that is wrong.
#include <gtest/gtest.h>

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli/cli_run.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/ranks_document.h"
#include "gapscope/ranks/ranks_json.h"
#include "gapscope/ranks/set_compare.h"
#include "rank_set_generator.h"

namespace gapscope::ranks {
namespace {

using bench::RankSetSpec;
using gapscope::testing::readFile;
using gapscope::testing::runCli;
using gapscope::testing::TempDir;
namespace fs = std::filesystem;

// Every kind of row and figure: a late rank (a straggling step), a rank with
// launch gaps (a cause with idle over the median), a warm-up, a load error.
RankSetSpec plantedSpec() {
  RankSetSpec spec;
  spec.ranks = 6;
  spec.steps = 9;
  spec.lateRank = 4;
  spec.lateStep = 6;
  spec.gapRank = 1;
  spec.gapStep = 3;
  spec.warmUpRank = 0;
  return spec;
}

RankSet loadSet(const fs::path& dir) { return loadRankSet(rankFiles({dir.string()})); }

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string dump(const nlohmann::ordered_json& j) { return j.dump(2); }

void expectSameFigures(const SetFigures& x, const SetFigures& y) {
  EXPECT_EQ(x.ranks, y.ranks);
  EXPECT_EQ(x.steps, y.steps);
  EXPECT_EQ(x.rankSteps, y.rankSteps);
  EXPECT_EQ(x.stepTimeNs, y.stepTimeNs);
  EXPECT_EQ(x.gpuBusyPct, y.gpuBusyPct);
  EXPECT_EQ(x.collectivePerStepNs, y.collectivePerStepNs);
  EXPECT_EQ(x.waitPerStepNs, y.waitPerStepNs);
  EXPECT_EQ(x.idlePerStep.ns, y.idlePerStep.ns);
  EXPECT_EQ(x.stragglingSteps, y.stragglingSteps);
  EXPECT_EQ(x.stragglers, y.stragglers);
  EXPECT_EQ(x.stepMark, y.stepMark);
}

TEST(RanksDocument, ReadBackGivesEveryFigureThatWasWritten) {
  TempDir dir;
  const RankSetSpec spec = plantedSpec();
  bench::writeRankSet((dir.path() / "set").string(), spec);
  RankSet set = loadSet(dir.path() / "set");
  const RanksAnalysis written = analyzeRanks(std::move(set.tables));
  ASSERT_FALSE(written.causes.empty());
  ASSERT_TRUE(std::any_of(written.steps.begin(), written.steps.end(), [](const StepRow& s) { return s.warmUp; }));
  const std::vector<RankLoadError> errors = {{"rank-9.json", "rank-9.json:3:1 (byte 40): cut"}};
  const std::string text = dump(ranksDocumentJson(written, {"rank-8.json: truncated at byte 7"}, errors));
  writeText(dir.path() / "run.json", text);

  const RanksDocument read = readRanksDocument((dir.path() / "run.json").string());
  // Written again, the document read back is the same bytes: no figure lost.
  EXPECT_EQ(dump(ranksDocumentJson(read.analysis, read.warnings, read.errors)), text);
  EXPECT_EQ(read.analysis.ranks.size(), 6u);
  EXPECT_EQ(read.analysis.ranks[4].stragglingSteps, 1u);
  EXPECT_EQ(read.analysis.steps[5].slowestRank, 4);
  EXPECT_EQ(read.analysis.steps[5].stepTimeMedianNs, written.steps[5].stepTimeMedianNs);
  EXPECT_EQ(read.analysis.stragglers, written.stragglers);
  EXPECT_EQ(read.errors.size(), 1u);
  expectSameFigures(setFigures(read.analysis), setFigures(written));
  // Against itself: as fast, nothing moved.
  const RankSetComparison c = compareRankSets(read.analysis, written);
  EXPECT_EQ(c.speedup, 1.0);
  EXPECT_EQ(c.verdict.rfind("B takes as long per step as A", 0), 0u) << c.verdict;
}

// A document written by `ranks`, plain or gzipped, is the run `diff` reads
// from its directory: the same text but for the runs' names.
TEST(RanksDocument, DiffOfDocumentsSaysWhatDiffOfTheDirectoriesSays) {
  TempDir dir;
  RankSetSpec before = plantedSpec();
  RankSetSpec after = plantedSpec();
  after.lateRank = -1;
  after.gapRank = -1;
  after.kernelNs = 15000;
  const fs::path a = dir.path() / "a";
  const fs::path b = dir.path() / "b";
  bench::writeRankSet(a.string(), before);
  bench::writeRankSet(b.string(), after);
  const auto docA = runCli({"ranks", a.string(), "--format", "json"});
  const auto docB = runCli({"ranks", b.string(), "--format", "json"});
  ASSERT_EQ(docA.status, 0) << docA.err;
  ASSERT_EQ(docB.status, 0) << docB.err;
  const fs::path jsonA = dir.path() / "a.json";
  const fs::path gzB = dir.path() / "b.json.gz";
  writeText(jsonA, docA.out);
  gzFile gz = gzopen(gzB.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzwrite(gz, docB.out.data(), static_cast<unsigned>(docB.out.size()));
  gzclose(gz);
  ASSERT_TRUE(looksLikeRanksDocument(jsonA.string()));
  ASSERT_TRUE(looksLikeRanksDocument(gzB.string()));
  ASSERT_FALSE(looksLikeRanksDocument((a / "rank-0.json").string()));

  for (const char* format : {"text", "json", "csv"}) {
    const auto ofDirs = runCli({"diff", a.string(), b.string(), "--format", format});
    const auto ofDocs = runCli({"diff", jsonA.string(), gzB.string(), "--format", format});
    ASSERT_EQ(ofDocs.status, 0) << ofDocs.err;
    std::string renamed = ofDocs.out;
    for (const auto& [doc, run] : {std::pair{jsonA.string(), a.string()}, std::pair{gzB.string(), b.string()}}) {
      for (std::size_t p; (p = renamed.find(doc)) != std::string::npos;) renamed.replace(p, doc.size(), run);
    }
    EXPECT_EQ(renamed, ofDirs.out) << format;
  }
  const auto text = runCli({"diff", jsonA.string(), gzB.string()});
  EXPECT_NE(text.out.find("the straggler is gone: rank 4 was straggling in 1 of 8 steps in A"), std::string::npos)
      << text.out;
}

// The document of a set as `ranks` wrote it beside its traces is not taken
// for a rank: it is named for what it is and the ranks are read.
TEST(RanksDocument, ADocumentBesideTheRanksIsNamedNotReadAsARank) {
  TempDir dir;
  RankSetSpec spec = plantedSpec();
  const fs::path set = dir.path() / "set";
  bench::writeRankSet(set.string(), spec);
  const auto doc = runCli({"ranks", set.string(), "--format", "json"});
  ASSERT_EQ(doc.status, 0) << doc.err;
  writeText(set / "ranks.json", doc.out);
  const auto again = runCli({"ranks", set.string()});
  EXPECT_EQ(again.status, 0) << again.err;
  const std::string expected = (set / "ranks.json").string() + ": a ranks document (the JSON `gapscope-cli ranks` writes), not a rank's trace";
  EXPECT_NE(again.out.find("Not read: " + expected + "\n"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("rank 4 is the straggler"), std::string::npos) << again.out;
}

// What a document says, changed one value at a time.
class BadDocument : public ::testing::Test {
 protected:
  void SetUp() override {
    bench::writeRankSet((dir_.path() / "set").string(), plantedSpec());
    RankSet set = loadSet(dir_.path() / "set");
    good_ = nlohmann::ordered_json::parse(dump(ranksDocumentJson(analyzeRanks(std::move(set.tables)), {}, {})));
  }
  // The message reading `document` gives ("" when it reads).
  std::string refusal(const std::string& text) {
    const fs::path path = dir_.path() / "doc.json";
    writeText(path, text);
    try {
      readRanksDocument(path.string());
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path.string() + ":", 0), 0u) << what;
      return what;
    }
    return "";
  }
  std::string refusal(const nlohmann::ordered_json& j) { return refusal(j.dump(2)); }

  TempDir dir_;
  nlohmann::ordered_json good_;
};

TEST_F(BadDocument, TheGoodOneReads) { EXPECT_EQ(refusal(good_), ""); }

TEST_F(BadDocument, BadJsonIsPlacedByLineColumnAndByte) {
  const std::string message = refusal(std::string("{\"ranks\": [\n  {\"rank\": 1,\n  x"));
  // The 'x' at line 3, column 3: byte 28 from 0.
  EXPECT_NE(message.find(":3:3 (byte 28): not valid JSON: "), std::string::npos) << message;
}

// fuzz_ranks_document's first find (regressions/ranks_document/number_past_a_double):
// a number past a double is nlohmann's out_of_range, not a parse error, and
// went uncaught.
TEST_F(BadDocument, ANumberPastADoubleIsRefusedNotThrownThrough) {
  auto text = good_.dump(2);
  text.replace(text.find("\"step_time_ns\": ") + 16, 1, "1e999,");
  const std::string message = refusal(text);
  EXPECT_NE(message.find(": not valid JSON: number overflow parsing '1e999"), std::string::npos) << message;
}

TEST_F(BadDocument, AMissingOrWrongValueIsNamed) {
  const auto expectRefused = [&](nlohmann::ordered_json j, const std::string& words) {
    const std::string message = refusal(j);
    EXPECT_NE(message.find("not a ranks document as `gapscope-cli ranks --format json` writes it: " + words),
              std::string::npos)
        << message;
  };
  auto j = good_;
  j["ranks"][1].erase("counted_steps");
  expectRefused(j, "ranks[1]: no \"counted_steps\"");
  j = good_;
  j["ranks"][0]["step_time_ns"] = -5;
  expectRefused(j, "ranks[0].step_time_ns: expected a non-negative integer of nanoseconds");
  j = good_;
  j["ranks"][2]["gpu_busy_pct"] = 150.0;
  expectRefused(j, "ranks[2].gpu_busy_pct: expected a percentage from 0 to 100");
  j = good_;
  j["ranks"][3]["busy_ns"] = j["ranks"][3]["active_ns"].get<std::int64_t>() + 1;
  expectRefused(j, "ranks[3].busy_ns: more than its active_ns");
  j = good_;
  j["ranks"][4]["rank"] = 2;
  expectRefused(j, "ranks: rank 2 given twice");
  j = good_;
  j["steps"][0]["straggling"] = "yes";
  expectRefused(j, "steps[0].straggling: expected true or false");
  j = good_;
  j["ranks"][0]["idle_by_cause_ns"].erase("queued");
  expectRefused(j, "ranks[0].idle_by_cause_ns: no \"queued\"");
  j = good_;
  j["stragglers"][0] = "four";
  expectRefused(j, "stragglers[0]: expected a rank number");
  j = good_;
  j.erase("step_mark");
  expectRefused(j, "the document: no \"step_mark\"");
  expectRefused(nlohmann::ordered_json::array(), "the document: expected an object");
}

// Times each in range but whose sum over the ranks is not are refused
// rather than wrapped round into a negative job figure.
TEST_F(BadDocument, SumsPastTheModelsRangeAreRefused) {
  auto j = good_;
  for (auto& r : j["ranks"]) r["active_ns"] = 2'000'000'000'000'000'000;
  const std::string message = refusal(j);
  EXPECT_NE(message.find("ranks: active_ns summed over the ranks is out of range"), std::string::npos) << message;
}

// Large values the reader accepts still give sane sentences: a straggler
// consistently slower by twice a typical step, and a straggler the rank
// table does not have.
TEST_F(BadDocument, ExtremeButValidValuesGiveSaneSentences) {
  auto j = good_;
  auto& r = j["ranks"][5];
  r["consistently_slow"] = true;
  r["typical_excess_ns"] = 2'000'000'000'000'000'000;
  r["typical_median_ns"] = 1'000'000'000'000'000'000;
  j["stragglers"] = {5};
  ASSERT_EQ(refusal(j), "");
  const fs::path path = dir_.path() / "doc.json";
  const RanksDocument slow = readRanksDocument(path.string());
  j["stragglers"] = {77};
  ASSERT_EQ(refusal(j), "");
  const RanksDocument unknown = readRanksDocument(path.string());
  const RankSetComparison c = compareRankSets(unknown.analysis, slow.analysis);
  EXPECT_NE(c.verdict.find("B has a straggler A had not: rank 5, consistently slower (by 200% of a typical step)"),
            std::string::npos)
      << c.verdict;
}

TEST(RanksDocumentCli, ADocumentBesideATraceIsRefused) {
  TempDir dir;
  const auto files = bench::writeRankSet((dir.path() / "set").string(), plantedSpec());
  const auto doc = runCli({"ranks", (dir.path() / "set").string(), "--format", "json"});
  writeText(dir.path() / "run.json", doc.out);
  const auto mixed = runCli({"diff", files[0], (dir.path() / "run.json").string()});
  EXPECT_EQ(mixed.status, 2);
  EXPECT_NE(mixed.err.find("run B is a ranks document and run A is a trace"), std::string::npos) << mixed.err;
  writeText(dir.path() / "cut.json", doc.out.substr(0, doc.out.size() / 2));
  const auto cut = runCli({"diff", (dir.path() / "run.json").string(), (dir.path() / "cut.json").string()});
  EXPECT_EQ(cut.status, 1);
  EXPECT_NE(cut.err.find("gapscope-cli diff: run B: " + (dir.path() / "cut.json").string() + ":"), std::string::npos)
      << cut.err;
  EXPECT_NE(cut.err.find("not valid JSON"), std::string::npos) << cut.err;
}

}  // namespace
}  // namespace gapscope::ranks
