// gapscope-cli diff, run as a process on a real pair: the documented JSON,
// its per-run figures against what `gaps --per-step` and `summary` print for
// each file, the other formats, and bad input naming the run and the file.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "../support/unmarked_loop.h"

namespace gapscope::testing {
namespace {

const std::string kSplit = GAPSCOPE_TEST_DATA_DIR "/h200/split_stack_eager.json";
const std::string kCombined = GAPSCOPE_TEST_DATA_DIR "/h200/combined_eager.json";

nlohmann::json jsonOf(const std::vector<std::string>& args) {
  CliResult r = runCli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliDiff, JsonHasTheDocumentedFields) {
  const auto j = jsonOf({"diff", kSplit, kCombined, "--format", "json"});
  ASSERT_EQ(j.at("runs").size(), 2u);
  for (const char* field : {"file", "steps", "step_time_ns", "kernels_per_step", "launches_per_step", "gpu_busy_pct",
                            "idle_by_cause_ns_per_step"})
    EXPECT_TRUE(j["runs"][0].contains(field)) << field;
  for (const char* cause : {"launch_overhead", "synchronization", "queued", "other"})
    EXPECT_TRUE(j["runs"][1]["idle_by_cause_ns_per_step"].contains(cause)) << cause;
  EXPECT_EQ(j["runs"][0]["file"], kSplit);
  EXPECT_EQ(j["runs"][1]["file"], kCombined);
  ASSERT_FALSE(j.at("kernels").empty());
  for (const auto& k : j["kernels"])
    for (const char* field : {"name", "count_a", "count_b", "time_a_ns", "time_b_ns", "matched_by"})
      EXPECT_TRUE(k.contains(field)) << field;
  ASSERT_FALSE(j.at("ops").empty());
  for (const auto& o : j["ops"])
    for (const char* field : {"name", "calls_a", "calls_b", "self_cpu_a_ns", "self_cpu_b_ns", "device_a_ns",
                              "device_b_ns"})
      EXPECT_TRUE(o.contains(field)) << field;
  EXPECT_TRUE(j.at("verdict").is_string());
  EXPECT_EQ(j["rows"]["kernels"].get<std::size_t>(), j["kernels"].size());
  const auto& test = j.at("step_time_test");
  EXPECT_EQ(test.at("test"), "mann_whitney_u");
  EXPECT_EQ(test.at("steps_a"), j["runs"][0]["steps"]);
  EXPECT_EQ(test.at("steps_b"), j["runs"][1]["steps"]);
  for (const char* field : {"p_from", "u", "p_value", "can_tell", "beyond_spread"}) EXPECT_TRUE(test.contains(field)) << field;
}

// A warm-up first step is named and left out of the run's per-step figures
// (tests/data/h100-user: a script with no step marks, eager and compiled,
// its first iteration CUDA's start-up and the compilation); its length
// from the JSON, the data loader's first next() to its second.
TEST(CliDiff, AWarmUpStepIsNamedAndLeftOut) {
  const std::string dir = GAPSCOPE_TEST_DATA_DIR "/h100-user/";
  const auto j = jsonOf({"diff", dir + "eager-torch.json.gz", dir + "compiled-torch.json.gz", "--format", "json"});
  for (std::size_t i = 0; i < 2; ++i) {
    const testing::UnmarkedLoop loop =
        testing::unmarkedLoopFromJson(dir + (i == 0 ? "eager-torch.json.gz" : "compiled-torch.json.gz"));
    ASSERT_EQ(loop.nextStarts.size(), 13u);
    EXPECT_EQ(j["runs"][i]["warm_up_step_ns"].get<std::int64_t>(), loop.nextStarts[1] - loop.nextStarts[0]);
    EXPECT_EQ(j["runs"][i]["steps"], 11);
  }
  const auto noWarmUp = jsonOf({"diff", kSplit, kCombined, "--format", "json"});
  EXPECT_EQ(noWarmUp["runs"][0]["warm_up_step_ns"], 0);
  ASSERT_EQ(j.at("warnings").size(), 2u);
  EXPECT_NE(j["warnings"][1].get<std::string>().find("is left out of its per-step figures"), std::string::npos);
}

TEST(CliDiff, RunsEqualWhatGapsAndSummaryPrintForEachFile) {
  const auto diff = jsonOf({"diff", kSplit, kCombined, "--format", "json"});
  const std::vector<std::string> files{kSplit, kCombined};
  for (std::size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(files[i]);
    const auto& run = diff["runs"][i];
    const auto gaps = jsonOf({"gaps", files[i], "--per-step", "--format", "json"});
    EXPECT_EQ(gaps["step_source"], "profiler_step");
    const auto& steps = gaps["steps"];
    ASSERT_EQ(run["steps"].get<std::size_t>(), steps.size());
    double kernels = 0, launches = 0;
    long long launchIdle = 0, busy = 0, active = 0;
    for (const auto& s : steps) {
      kernels += s["kernels"].get<double>();
      launches += s["launches"].get<double>();
      for (const auto& d : s["devices"]) {
        launchIdle += usTextToNs(d["idle_us"]["launch_overhead"].dump());
        busy += usTextToNs(d["busy_us"].dump());
        active += usTextToNs(d["active_us"].dump());
      }
    }
    const auto n = static_cast<double>(steps.size());
    EXPECT_DOUBLE_EQ(run["kernels_per_step"].get<double>(), kernels / n);
    EXPECT_DOUBLE_EQ(run["launches_per_step"].get<double>(), launches / n);
    EXPECT_EQ(run["idle_by_cause_ns_per_step"]["launch_overhead"].get<long long>(),
              std::llround(static_cast<double>(launchIdle) / n));
    // GPU busy of the steps' GPU windows, as the per-step columns beside it.
    ASSERT_GT(active, 0);
    EXPECT_NEAR(run["gpu_busy_pct"].get<double>(), 100.0 * static_cast<double>(busy) / static_cast<double>(active),
                0.0005);
  }
}

TEST(CliDiff, ARunWithoutStepsIsBusyAsItsSummarySays) {
  const std::string noSteps = GAPSCOPE_TEST_DATA_DIR "/public/hta-event-sync-multistream/event_sync_trace.json.gz";
  const auto diff = jsonOf({"diff", noSteps, kSplit, "--format", "json"});
  const auto& run = diff["runs"][0];
  ASSERT_EQ(run["steps"].get<int>(), 1);
  const auto summary = jsonOf({"summary", noSteps, "--format", "json"});
  EXPECT_NEAR(run["gpu_busy_pct"].get<double>(), 100.0 * summary["utilization"].get<double>(), 0.0005);
}

TEST(CliDiff, TextMarkdownAndCsv) {
  CliResult text = runCli({"diff", kSplit, kCombined});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Verdict: B is "), std::string::npos);
  EXPECT_NE(text.out.find("GPU idle per step by cause"), std::string::npos);
  CliResult md = runCli({"diff", kSplit, kCombined, "--format", "md"});
  ASSERT_EQ(md.status, 0) << md.err;
  EXPECT_EQ(md.out.rfind("# gapscope comparison: split\\_stack\\_eager.json vs combined\\_eager.json", 0), 0u);
  CliResult csv = runCli({"diff", kSplit, kCombined, "--format", "csv", "--table", "runs"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = parseCsv(csv.out);
  ASSERT_EQ(rows.size(), 3u);  // header, A, B
  EXPECT_EQ(rows[0][0], "run");
  EXPECT_EQ(rows[1][0], "A");
  EXPECT_EQ(rows[2][1], "combined_eager.json");
  CliResult badTable = runCli({"diff", kSplit, kCombined, "--format", "csv", "--table", "nope"});
  EXPECT_EQ(badTable.status, 2);
}

TEST(CliDiff, BadInputNamesTheRunAndTheFile) {
  TempDir dir;
  const std::string bad = (dir.path() / "broken.json").string();
  std::ofstream(bad) << "{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": }\n]}";
  CliResult b = runCli({"diff", kSplit, bad});
  EXPECT_EQ(b.status, 1);
  EXPECT_NE(b.err.find("run B"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(bad + ":2:"), std::string::npos) << b.err;
  EXPECT_EQ(b.err.find("run A"), std::string::npos) << b.err;
  CliResult a = runCli({"diff", (dir.path() / "missing.json").string(), kCombined});
  EXPECT_EQ(a.status, 1);
  EXPECT_NE(a.err.find("run A"), std::string::npos) << a.err;
  EXPECT_NE(a.err.find("missing.json"), std::string::npos) << a.err;
  EXPECT_EQ(runCli({"diff", kSplit}).status, 2);
}

}  // namespace
}  // namespace gapscope::testing
