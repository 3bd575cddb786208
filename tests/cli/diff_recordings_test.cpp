// gapscope-cli diff A1 A2 ... vs B1 B2 ...: each side recorded several
// times. On real recordings (tests/data/h200-user-repeat: the unmarked
// training script under torch.profiler, eager 8 times and compiled 4
// times, in turns): each recording's median step against its iterations
// counted from the JSON (the data loader's next() calls), the typical
// recording, and the run-to-run test against U counted pair by pair and p
// over every split of the medians.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../compare/u_count.h"
#include "../support/unmarked_loop.h"
#include "cli_run.h"

namespace gapscope::testing {
namespace {

const std::string kDir = GAPSCOPE_TEST_DATA_DIR "/h200-user-repeat/";

std::vector<std::string> files(const std::string& variant, int from, int to) {
  std::vector<std::string> out;
  for (int k = from; k <= to; ++k) out.push_back(kDir + variant + "-" + std::to_string(k) + ".json.gz");
  return out;
}

// A recording's median step from its JSON: the periods from one next() of
// the data loader to the next, the first (start-up, compilation) left out,
// the lower median.
TimeNs medianStep(const UnmarkedLoop& loop) {
  std::vector<TimeNs> periods;
  for (std::size_t i = 2; i < loop.nextStarts.size(); ++i) periods.push_back(loop.nextStarts[i] - loop.nextStarts[i - 1]);
  std::sort(periods.begin(), periods.end());
  return periods.empty() ? 0 : periods[(periods.size() - 1) / 2];
}

std::vector<std::string> diffArgs(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                  const std::vector<std::string>& options) {
  std::vector<std::string> args{"diff"};
  args.insert(args.end(), a.begin(), a.end());
  args.push_back("vs");
  args.insert(args.end(), b.begin(), b.end());
  args.insert(args.end(), options.begin(), options.end());
  return args;
}

struct Checked {
  nlohmann::json json;
  std::vector<TimeNs> mediansA, mediansB;
};

// The JSON of the comparison with each recording's figures checked against
// the counts from its own JSON, and the typical recording of each side.
Checked diffChecked(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  Checked c;
  const CliResult r = runCli(diffArgs(a, b, {"--format", "json"}));
  EXPECT_EQ(r.status, 0) << r.err;
  c.json = nlohmann::json::parse(r.out);
  for (std::size_t side = 0; side < 2; ++side) {
    const auto& paths = side == 0 ? a : b;
    auto& medians = side == 0 ? c.mediansA : c.mediansB;
    const auto& recordings = c.json["recordings"][side == 0 ? "a" : "b"];
    EXPECT_EQ(recordings.size(), paths.size());
    for (std::size_t i = 0; i < paths.size() && i < recordings.size(); ++i) {
      const UnmarkedLoop loop = unmarkedLoopFromJson(paths[i]);
      medians.push_back(medianStep(loop));
      EXPECT_EQ(recordings[i]["file"], paths[i]);
      EXPECT_EQ(recordings[i]["step_time_ns"].get<TimeNs>(), medians.back()) << paths[i];
      EXPECT_EQ(recordings[i]["steps"], loop.nextStarts.size() - 2) << paths[i];
    }
    // The typical one: its median the lower median of the side's.
    std::vector<TimeNs> sorted = medians;
    std::sort(sorted.begin(), sorted.end());
    const TimeNs middle = sorted[(sorted.size() - 1) / 2];
    const std::size_t typical = static_cast<std::size_t>(std::find(medians.begin(), medians.end(), middle) - medians.begin());
    for (std::size_t i = 0; i < recordings.size(); ++i) EXPECT_EQ(recordings[i]["typical"], i == typical) << i;
    EXPECT_EQ(c.json["runs"][side]["file"], paths[typical]);
    EXPECT_EQ(c.json["runs"][side]["step_time_ns"].get<TimeNs>(), middle);
  }
  const auto& test = c.json["run_to_run_test"];
  EXPECT_EQ(test["recordings_a"], a.size());
  EXPECT_EQ(test["recordings_b"], b.size());
  EXPECT_DOUBLE_EQ(test["u"].get<double>(), compare::pairCount(c.mediansA, c.mediansB));
  EXPECT_NEAR(test["p_value"].get<double>(), compare::enumeratedPValue(c.mediansA, c.mediansB), 1e-12);
  return c;
}

// Eight eager recordings against four compiled: every compiled median
// below every eager one but one (eager-2 ran as fast as compiled-4), U = 31
// of 32, p = 2 x 2 / C(12, 4).
TEST(CliDiffRecordings, EagerAgainstCompiledIsBeyondTheRunToRunSpread) {
  const Checked c = diffChecked(files("eager", 1, 8), files("compiled", 1, 4));
  EXPECT_DOUBLE_EQ(c.json["run_to_run_test"]["u"].get<double>(), 31.0);
  EXPECT_NEAR(c.json["run_to_run_test"]["p_value"].get<double>(), 4.0 / 495.0, 1e-12);
  const std::string verdict = c.json["verdict"];
  EXPECT_NE(verdict.find("middle recordings of 8 and 4), beyond the run-to-run spread (p = 0.0081 over 8 and 4 "
                         "recordings);"),
            std::string::npos)
      << verdict;
}

// Four of each are not enough here: eager-2's median lies among the
// compiled ones, and the same 1.4x is within the recordings' spread.
TEST(CliDiffRecordings, FourOfEachCannotTellThisChangeFromTheRunsOwnSpread) {
  const Checked c = diffChecked(files("eager", 1, 4), files("compiled", 1, 4));
  EXPECT_DOUBLE_EQ(c.json["run_to_run_test"]["u"].get<double>(), 15.0);
  EXPECT_FALSE(c.json["run_to_run_test"]["beyond_spread"].get<bool>());
  const std::string verdict = c.json["verdict"];
  EXPECT_NE(verdict.find("within the run-to-run spread (p = 0.057 over 4 and 4 recordings): record more runs of "
                         "each to tell;"),
            std::string::npos)
      << verdict;
}

// The same eager script, recordings 1-4 against 5-8: no change, and the
// test says the difference of the middle pair is the runs' own.
TEST(CliDiffRecordings, TheSameProgramRecordedAgainIsWithinTheRunToRunSpread) {
  const Checked c = diffChecked(files("eager", 1, 4), files("eager", 5, 8));
  EXPECT_FALSE(c.json["run_to_run_test"]["beyond_spread"].get<bool>());
  EXPECT_TRUE(c.json["run_to_run_test"]["can_tell"].get<bool>());
  const std::string verdict = c.json["verdict"];
  EXPECT_NE(verdict.find("within the run-to-run spread (p = "), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("over 4 and 4 recordings): record more runs of each to tell;"), std::string::npos) << verdict;
}

TEST(CliDiffRecordings, TextAndCsvListTheRecordings) {
  const auto a = files("eager", 1, 3);
  const auto b = files("compiled", 1, 3);
  const CliResult text = runCli(diffArgs(a, b, {}));
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find(", the middle of 3 recordings\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("too few recordings (3 and 3) to tell from their spread: record at least 4 of each"),
            std::string::npos);
  EXPECT_NE(text.out.find("Every recording of each side"), std::string::npos);
  const CliResult csv = runCli(diffArgs(a, b, {"--format", "csv", "--table", "recordings"}));
  ASSERT_EQ(csv.status, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string line;
  const auto next = [&] {
    if (!std::getline(lines, line)) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CSV rows end in CRLF
    return true;
  };
  next();
  EXPECT_EQ(line, "run,file,steps,step_time_us,typical");
  int rows = 0;
  while (next()) {
    const std::string& path = (rows < 3 ? a : b)[static_cast<std::size_t>(rows % 3)];
    EXPECT_EQ(line.rfind(std::string(rows < 3 ? "A" : "B") + "," + path + ",5," + microsecondsText(medianStep(unmarkedLoopFromJson(path))) + ",",
                         0),
              0u)
        << line;
    ++rows;
  }
  EXPECT_EQ(rows, 6);
}

TEST(CliDiffRecordings, BadArgumentsAreNamed) {
  const std::string one = kDir + "eager-1.json.gz";
  CliResult r = runCli({"diff", one, "vs"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no recording of run B after \"vs\""), std::string::npos) << r.err;
  r = runCli({"diff", one, "vs", one, "vs", one});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("\"vs\" given twice"), std::string::npos) << r.err;
  r = runCli({"diff", one, one, one});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("got 3 arguments"), std::string::npos) << r.err;
  const std::string other = kDir + "compiled-1.json.gz";
  r = runCli({"diff", one, GAPSCOPE_TEST_DATA_DIR "/h100-user-ddp-fix/before", "vs", other});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is a run of a distributed job (a directory of rank traces)"), std::string::npos) << r.err;
  r = runCli({"diff", one, kDir + "eager-2.json.gz", "vs", kDir + "./eager-1.json.gz"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is given twice: each recording counts once"), std::string::npos) << r.err;
  r = runCli({"diff", kDir + "eager-2.json.gz", kDir + "eager-3.json.gz", "vs", one});
  EXPECT_EQ(r.status, 0) << r.err;
  r = runCli({"diff", one, kDir + "missing.json", "vs", other});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("run A: " + kDir + "missing.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gapscope::testing
