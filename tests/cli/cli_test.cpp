// gapscope-cli summary|ops|kernels, run as a separate process on real traces:
// outputs parsed back and compared with the library, exit codes and messages.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "../support/unmarked_loop.h"
#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/summary.h"
#include "gapscope/io/chrome_reader.h"

namespace gapscope::analysis {
namespace {

using gapscope::testing::CliResult;
using gapscope::testing::parseCsv;
using gapscope::testing::readFile;
using gapscope::testing::runCli;
using gapscope::testing::TempDir;
using gapscope::testing::usTextToNs;

const std::string kH200 = GAPSCOPE_TEST_DATA_DIR "/h200/";
const std::string kMlp = kH200 + "mlp_eager.json";
const std::string kAlexnet =
    GAPSCOPE_TEST_DATA_DIR "/public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz";

Trace load(const std::string& path) {
  io::LoadResult r = io::loadChromeTrace(path);
  if (!r.ok()) throw std::runtime_error(r.error);
  return std::move(*r.trace);
}

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

nlohmann::json runJson(const std::vector<std::string>& args) {
  CliResult r = runCli(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliOps, JsonMatchesTheLibrary) {
  const OpTable table = buildOpTable(load(kMlp));
  const auto json = runJson({"ops", kMlp, "--format", "json"});
  ASSERT_EQ(json.size(), table.rows.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    const auto& j = json[i];
    const OpRow& r = table.rows[i];
    SCOPED_TRACE(r.name);
    EXPECT_EQ(j.at("name"), r.name);
    EXPECT_EQ(j.at("device"), opDeviceName(r.device));
    EXPECT_EQ(j.at("calls"), r.calls);
    EXPECT_EQ(j.at("self_cpu_us").get<double>(), us(r.selfCpu));
    EXPECT_EQ(j.at("cpu_total_us").get<double>(), us(r.cpuTotal));
    EXPECT_EQ(j.at("self_device_us").get<double>(), us(r.selfDevice));
    EXPECT_EQ(j.at("device_total_us").get<double>(), us(r.deviceTotal));
    EXPECT_FALSE(j.contains("input_shapes"));
  }
}

TEST(CliOps, JsonNumbersAreExactDecimals) {
  CliResult r = runCli({"ops", kH200 + "split_stack_eager.json", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(std::regex_search(r.out, std::regex("[0-9]\\.[0-9]{4,}"))) << r.out;
}

TEST(CliOps, CsvMatchesTheLibrary) {
  const OpTable table = buildOpTable(load(kMlp));
  CliResult r = runCli({"ops", kMlp, "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parseCsv(r.out);
  ASSERT_EQ(rows.size(), table.rows.size() + 1);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "device", "calls", "self_cpu_us", "cpu_total_us",
                                               "self_device_us", "device_total_us"}));
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& f = rows[i + 1];
    const OpRow& row = table.rows[i];
    ASSERT_EQ(f.size(), 7u);
    EXPECT_EQ(f[0], row.name);  // names with commas come back whole
    EXPECT_EQ(f[1], opDeviceName(row.device));
    EXPECT_EQ(std::stoll(f[2]), row.calls);
    EXPECT_EQ(usTextToNs(f[3]), row.selfCpu);
    EXPECT_EQ(usTextToNs(f[4]), row.cpuTotal);
    EXPECT_EQ(usTextToNs(f[5]), row.selfDevice);
    EXPECT_EQ(usTextToNs(f[6]), row.deviceTotal);
  }
}

TEST(CliOps, GroupByShapes) {
  OpTableOptions byShapes;
  byShapes.groupByShapes = true;
  const OpTable table = buildOpTable(load(kMlp), byShapes);
  const auto json = runJson({"ops", kMlp, "--format", "json", "--group-by-shapes"});
  ASSERT_EQ(json.size(), table.rows.size());
  for (std::size_t i = 0; i < json.size(); ++i) EXPECT_EQ(json[i].at("input_shapes"), table.rows[i].inputShapes);
}

TEST(CliOps, SortAndLimit) {
  const auto json = runJson({"ops", kMlp, "--format", "json", "--sort", "self_cpu", "--limit", "4"});
  ASSERT_EQ(json.size(), 4u);
  for (std::size_t i = 1; i < json.size(); ++i) {
    EXPECT_GE(json[i - 1].at("self_cpu_us").get<double>(), json[i].at("self_cpu_us").get<double>());
  }
  OpTable table = buildOpTable(load(kMlp));
  sortOpRows(table.rows, OpSortKey::SelfCpu);
  EXPECT_EQ(json[0].at("name"), table.rows[0].name);
}

TEST(CliOps, TextFooterEqualsPyTorchs) {
  for (const std::string name : {"mlp_eager", "combined_eager", "split_stack_eager"}) {
    CliResult r = runCli({"ops", kH200 + name + ".json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string pytorch = readFile(kH200 + name + ".table.txt");
    for (const std::string label : {"Self CPU time total: ", "Self CUDA time total: "}) {
      const auto at = pytorch.find(label);
      ASSERT_NE(at, std::string::npos);
      const std::string line = pytorch.substr(at, pytorch.find('\n', at) - at);
      EXPECT_NE(r.out.find(line + "\n"), std::string::npos) << name << ": expected '" << line << "' in\n" << r.out;
    }
    EXPECT_NE(r.out.find("Self CPU %"), std::string::npos);
    EXPECT_NE(r.out.find("# of Calls"), std::string::npos);
  }
}

TEST(CliKernels, JsonMatchesTheLibrary) {
  const KernelTable table = buildKernelTable(load(kAlexnet));
  const auto json = runJson({"kernels", kAlexnet, "--format", "json"});
  ASSERT_EQ(json.size(), table.rows.size());
  bool sawMemcpy = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const auto& j = json[i];
    const KernelRow& r = table.rows[i];
    SCOPED_TRACE(r.name);
    EXPECT_EQ(j.at("name"), r.name);
    EXPECT_EQ(j.at("calls"), r.calls);
    EXPECT_EQ(j.at("total_us").get<double>(), us(r.total));
    EXPECT_EQ(j.at("avg_us").get<double>(), us(r.avg()));
    EXPECT_EQ(j.at("min_us").get<double>(), us(r.min));
    EXPECT_EQ(j.at("max_us").get<double>(), us(r.max));
    EXPECT_NEAR(j.at("std_us").get<double>(), r.stdDevNs / 1000.0, 0.0005);
    EXPECT_DOUBLE_EQ(j.at("pct_gpu").get<double>(), r.pctGpu);
    if (r.kind == SliceKind::Kernel && r.grid[0] > 0) {
      EXPECT_EQ(j.at("grid"), nlohmann::json(std::vector<int>{r.grid[0], r.grid[1], r.grid[2]}));
      EXPECT_EQ(j.at("block"), nlohmann::json(std::vector<int>{r.block[0], r.block[1], r.block[2]}));
    }
    if (r.kind == SliceKind::Memcpy) {
      sawMemcpy = true;
      EXPECT_EQ(j.at("kind"), "memcpy");
      EXPECT_TRUE(j.at("grid").is_null());
      EXPECT_TRUE(j.at("registers_per_thread").is_null());
    }
    for (const char* key : {"registers_per_thread", "shared_memory", "occupancy_pct"}) EXPECT_TRUE(j.contains(key));
  }
  EXPECT_TRUE(sawMemcpy) << "the alexnet trace has memcpy activity";
}

TEST(CliKernels, CsvMatchesTheLibrary) {
  const KernelTable table = buildKernelTable(load(kMlp));
  CliResult r = runCli({"kernels", kMlp, "--format", "csv", "--sort", "calls"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = parseCsv(r.out);
  ASSERT_EQ(rows.size(), table.rows.size() + 1);
  EXPECT_EQ(rows[0][0], "name");
  EXPECT_EQ(rows[0][3], "total_us");
  TimeNs total = 0;
  long long previousCalls = 1LL << 62;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    total += usTextToNs(rows[i][3]);
    const long long calls = std::stoll(rows[i][2]);
    EXPECT_LE(calls, previousCalls);
    previousCalls = calls;
  }
  EXPECT_EQ(total, table.gpuTotal);
}

TEST(CliSummary, JsonMatchesTheLibrary) {
  const TraceSummary s = summarizeTrace(load(kAlexnet));
  const auto j = runJson({"summary", kAlexnet, "--format", "json"});
  EXPECT_EQ(j.at("events"), s.events);
  EXPECT_EQ(j.at("tracks"), s.tracks);
  EXPECT_EQ(j.at("slices"), s.slices);
  EXPECT_EQ(j.at("kernels"), s.kernels);
  EXPECT_EQ(j.at("flows"), s.flows);
  EXPECT_EQ(j.at("span_us").get<double>(), us(s.span()));
  const GpuBusy busy = computeGpuBusy(load(kAlexnet));
  EXPECT_EQ(j.at("gpu_busy_us").get<double>(), us(busy.total()));
  EXPECT_GT(busy.total(), 0);
  ASSERT_EQ(j.at("gpu_busy_per_device").size(), busy.devices.size());
  ASSERT_EQ(j.at("import_issues").size(), s.issues.size());
  for (std::size_t i = 0; i < s.issues.size(); ++i) {
    const auto& issue = j.at("import_issues")[i];
    EXPECT_EQ(issue.at("name"), s.issues[i].name);
    EXPECT_EQ(issue.at("severity"), severityName(s.issues[i].severity));
    EXPECT_EQ(issue.at("count"), s.issues[i].count);
    EXPECT_EQ(issue.at("first_offset"), s.issues[i].firstOffset);
  }
}

TEST(CliSummary, TextAndCsv) {
  const TraceSummary s = summarizeTrace(load(kMlp));
  CliResult text = runCli({"summary", kMlp});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Slices:       " + std::to_string(s.slices)), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GPU 0"), std::string::npos) << text.out;
  CliResult csv = runCli({"summary", kMlp, "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  bool sawSpan = false;
  for (const auto& row : parseCsv(csv.out)) {
    ASSERT_EQ(row.size(), 2u);
    if (row[0] == "span_us") {
      sawSpan = true;
      EXPECT_EQ(usTextToNs(row[1]), s.span());
    }
  }
  EXPECT_TRUE(sawSpan);
}

// What a step is, as summary says it: ProfilerStep#N, or for a script with
// no step marks (h100-user/) the data loader's next() to the next, the
// first a warm-up; the figures counted here from the JSON.
TEST(CliSummary, StepsSayWhatAStepIs) {
  CliResult marked = runCli({"summary", kMlp});
  ASSERT_EQ(marked.status, 0) << marked.err;
  EXPECT_NE(marked.out.find("Steps:        3 ProfilerStep#N, median "), std::string::npos) << marked.out;
  const std::string user = GAPSCOPE_TEST_DATA_DIR "/h100-user/eager-torch.json.gz";
  const testing::UnmarkedLoop loop = testing::unmarkedLoopFromJson(user);
  ASSERT_EQ(loop.nextStarts.size(), 13u);
  std::vector<TimeNs> periods;
  for (std::size_t k = 1; k < 12; ++k) periods.push_back(loop.nextStarts[k + 1] - loop.nextStarts[k]);
  std::sort(periods.begin(), periods.end());
  const auto j = runJson({"summary", user, "--format", "json"});
  EXPECT_EQ(j.at("steps"), 12);
  EXPECT_EQ(j.at("step_source"), "annotation");
  EXPECT_EQ(j.at("step_name"), testing::kDataLoaderNext);
  EXPECT_EQ(j.at("median_step_us").get<double>(), us(periods[5]));
  EXPECT_EQ(j.at("warm_up_step_us").get<double>(), us(loop.nextStarts[1] - loop.nextStarts[0]));
  CliResult text = runCli({"summary", user});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find(std::string("Steps:        12, each from one ") + testing::kDataLoaderNext +
                          " to the next (no ProfilerStep#N), median "),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(" after the first, a warm-up of "), std::string::npos) << text.out;
  // Steps annotated but no GPU work: no steps are counted, and none are claimed.
  TempDir dir;
  const std::string cpuOnly = (dir.path() / "cpu_only.json").string();
  std::ofstream(cpuOnly) << R"({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 10, "dur": 10}]})";
  CliResult none = runCli({"summary", cpuOnly});
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_NE(none.out.find("Steps:        none ("), std::string::npos) << none.out;
}

TEST(CliErrors, MissingFile) {
  for (const std::string command : {"summary", "ops", "kernels"}) {
    CliResult r = runCli({command, "/nonexistent/trace.json"});
    EXPECT_NE(r.status, 0) << command;
    EXPECT_TRUE(r.out.empty()) << command;
    EXPECT_NE(r.err.find("gapscope-cli " + command + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("/nonexistent/trace.json"), std::string::npos) << r.err;
  }
}

TEST(CliErrors, MalformedFile) {
  TempDir dir;
  const auto path = (dir.path() / "bad.json").string();
  std::ofstream(path) << "{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": 1, \"dur\": 2 \"name\": \"x\"}\n]}\n";
  CliResult r = runCli({"ops", path});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
}

TEST(CliErrors, TruncatedFileLoadsWithAWarning) {
  TempDir dir;
  const std::string whole = readFile(kMlp);
  const auto cut = whole.find("\"cat\": \"kernel\"");  // mid-way through the events
  ASSERT_NE(cut, std::string::npos);
  const auto path = (dir.path() / "cut.json").string();
  std::ofstream(path) << whole.substr(0, cut);
  CliResult r = runCli({"summary", path, "--format", "json"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_GT(nlohmann::json::parse(r.out).at("slices").get<int>(), 0);
}

TEST(CliErrors, BadUsage) {
  CliResult format = runCli({"ops", kMlp, "--format", "xml"});
  EXPECT_EQ(format.status, 2);
  EXPECT_NE(format.err.find("--format"), std::string::npos) << format.err;
  CliResult sort = runCli({"kernels", kMlp, "--sort", "bogus"});
  EXPECT_EQ(sort.status, 2);
  EXPECT_NE(sort.err.find("bogus"), std::string::npos) << sort.err;
  CliResult limit = runCli({"ops", kMlp, "--limit", "-3"});
  EXPECT_EQ(limit.status, 2);
  CliResult noTrace = runCli({"summary"});
  EXPECT_EQ(noTrace.status, 2);
  EXPECT_NE(noTrace.err.find("TRACE"), std::string::npos) << noTrace.err;
}

}  // namespace
}  // namespace gapscope::analysis
