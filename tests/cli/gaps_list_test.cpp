// gapscope-cli gaps lists the whole device's gaps, largest first; --streams
// adds each stream's gaps ranked by the device idle inside them, a gap
// while another stream kept the device busy marked as such.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"

namespace gapscope::testing {
namespace {

std::string x(const char* name, const char* cat, int pid, int tid, double ts, double dur, int corr) {
  return std::string("{\"ph\":\"X\",\"name\":\"") + name + "\",\"cat\":\"" + cat + "\",\"pid\":" +
         std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(ts) +
         ",\"dur\":" + std::to_string(dur) + ",\"args\":{\"correlation\":" + std::to_string(corr) + "}}";
}

// Stream 8 runs a kernel 0..100 us; stream 7 runs 0..10, 50..60, 130..140.
std::string twoStreamsJson() {
  std::string e = x("cudaLaunchKernel", "cuda_runtime", 1, 1, 0, 1, 1) + "," +
                  x("long", "kernel", 0, 8, 0, 100, 1) + "," + x("cudaLaunchKernel", "cuda_runtime", 1, 1, 2, 1, 2) +
                  "," + x("a", "kernel", 0, 7, 0, 10, 2) + "," + x("cudaLaunchKernel", "cuda_runtime", 1, 1, 45, 1, 3) +
                  "," + x("b", "kernel", 0, 7, 50, 10, 3) + "," + x("cudaLaunchKernel", "cuda_runtime", 1, 1, 125, 1, 4) +
                  "," + x("c", "kernel", 0, 7, 130, 10, 4);
  return "{\"traceEvents\":[" + e + "]}";
}

TEST(CliGaps, DeviceGapsByDefaultStreamGapsOnDemand) {
  TempDir dir;
  const std::string path = (dir.path() / "two_streams.json").string();
  std::ofstream(path) << twoStreamsJson();
  CliResult plain = runCli({"gaps", path, "--format", "json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  const auto device = nlohmann::json::parse(plain.out)["gaps"];
  ASSERT_EQ(device.size(), 1u);
  EXPECT_TRUE(device[0]["stream"].is_null());
  EXPECT_EQ(device[0]["dur_us"], 30);
  EXPECT_EQ(device[0]["device_idle_us"], 30);

  CliResult streams = runCli({"gaps", path, "--streams", "--format", "json"});
  ASSERT_EQ(streams.status, 0) << streams.err;
  const auto all = nlohmann::json::parse(streams.out)["gaps"];
  ASSERT_EQ(all.size(), 3u);
  EXPECT_TRUE(all[0]["stream"].is_null());
  EXPECT_EQ(all[1]["stream"], 7);
  EXPECT_EQ(all[1]["dur_us"], 70);
  EXPECT_EQ(all[1]["device_idle_us"], 30);
  EXPECT_EQ(all[2]["dur_us"], 40);
  EXPECT_EQ(all[2]["device_idle_us"], 0);

  CliResult text = runCli({"gaps", path, "--streams"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("(device busy)"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace gapscope::testing

namespace gapscope::testing {
namespace {

// The JSON is streamed member by member and gap by gap; it must be, byte for
// byte, what pretty-printing the whole document at once gives (nlohmann's
// dump with indent 2, the CLI's JSON format), with and without gaps, steps
// and stream rows, and with names that need escaping.
void expectSameAsWholeDocument(const std::vector<std::string>& args) {
  CliResult r = runCli(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto whole = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(r.out, whole.dump(2) + "\n") << args[1];
}

TEST(CliGaps, StreamedJsonIsTheWholeDocumentPrettyPrinted) {
  TempDir dir;
  const std::string path = (dir.path() / "two_streams.json").string();
  std::ofstream(path) << twoStreamsJson();
  expectSameAsWholeDocument({"gaps", path, "--format", "json"});
  expectSameAsWholeDocument({"gaps", path, "--format", "json", "--streams", "--per-step"});
  const std::string empty = (dir.path() / "empty.json").string();
  std::ofstream(empty) << "{\"traceEvents\":[]}";
  expectSameAsWholeDocument({"gaps", empty, "--format", "json", "--per-step"});
  const std::string quoted = (dir.path() / "quoted.json").string();
  std::ofstream(quoted) << "{\"traceEvents\":[" << x("cudaLaunchKernel", "cuda_runtime", 1, 1, 0, 1, 1) << ","
                        << x("k\\\"\\\\\\n\\u0001\\u00e9", "kernel", 0, 7, 2, 1, 1) << ","
                        << x("cudaLaunchKernel", "cuda_runtime", 1, 1, 20, 1, 2) << "," << x("b", "kernel", 0, 7, 40, 1, 2)
                        << "]}";
  expectSameAsWholeDocument({"gaps", quoted, "--format", "json", "--streams"});
  for (const char* trace : {"h200/split_stack_eager.json", "h100/cudagraph_replay.json"})
    expectSameAsWholeDocument({"gaps", std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + trace, "--format", "json", "--per-step"});
}

}  // namespace
}  // namespace gapscope::testing

namespace gapscope::testing {
namespace {

// Rows are made a chunk of 32,768 at a time, on several threads, and
// printed in rank order: every gap of a trace of three chunks must come
// out once, largest first, with its own start.
TEST(CliGaps, EveryRowOfSeveralChunksInRankOrder) {
  constexpr std::int64_t kKernels = 70000;
  // Gap i (after kernel i) lasts 5 + (i * 7919 mod kKernels) us: all
  // different, so rank order is known, and far from time order.
  std::vector<std::pair<std::int64_t, std::int64_t>> expected;  // (dur us, start us)
  std::string json = "{\"traceEvents\":[";
  std::int64_t ts = 0;
  for (std::int64_t i = 0; i < kKernels; ++i) {
    if (i) json += ',';
    json += "{\"ph\":\"X\",\"name\":\"k\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(ts) +
            ",\"dur\":2}";
    ts += 2;
    if (i + 1 < kKernels) {
      const std::int64_t gap = 5 + (i * 7919) % kKernels;
      expected.push_back({gap, ts});
      ts += gap;
    }
  }
  json += "]}";
  std::sort(expected.rbegin(), expected.rend());
  TempDir dir;
  const std::string path = (dir.path() / "many_gaps.json").string();
  std::ofstream(path) << json;
  CliResult r = runCli({"gaps", path, "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream rows(r.out);
  std::string row;
  std::getline(rows, row);  // the header
  std::size_t n = 0;
  while (std::getline(rows, row)) {
    ASSERT_LT(n, expected.size());
    // device,stream,start_us,dur_us,...
    std::istringstream fields(row);
    std::string device, stream, start, dur;
    std::getline(fields, device, ',');
    std::getline(fields, stream, ',');
    std::getline(fields, start, ',');
    std::getline(fields, dur, ',');
    ASSERT_EQ(dur, std::to_string(expected[n].first)) << "row " << n;
    ASSERT_EQ(start, std::to_string(expected[n].second)) << "row " << n;
    ++n;
  }
  EXPECT_EQ(n, expected.size());
}

// With --per-step, CSV is the per-step table (one CSV, one table): a row
// per step and device with the figures `gaps --per-step` gives in JSON.
TEST(CliGaps, PerStepInCsvIsTheStepTable) {
  const std::string path = GAPSCOPE_TEST_DATA_DIR "/h200/split_stack_eager.json";
  const CliResult csv = runCli({"gaps", path, "--format", "csv", "--per-step"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = parseCsv(csv.out);
  const CliResult json = runCli({"gaps", path, "--format", "json", "--per-step", "--limit", "0"});
  const auto steps = nlohmann::json::parse(json.out).at("steps");
  ASSERT_FALSE(steps.empty());
  ASSERT_EQ(rows.size(), steps.size() + 1);  // one device
  const std::vector<std::string> header = rows.front();
  auto column = [&](const std::string& id) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), id) - header.begin());
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& row = rows[i + 1];
    const auto& step = steps[i];
    EXPECT_EQ(row.at(column("step")), step.at("step").get<std::string>());
    EXPECT_EQ(std::stod(row.at(column("cpu_us"))), step.at("cpu_dur_us").get<double>());
    EXPECT_EQ(std::stod(row.at(column("busy_us"))), step.at("devices")[0].at("busy_us").get<double>());
    EXPECT_EQ(std::stod(row.at(column("idle_launch_overhead_us"))),
              step.at("devices")[0].at("idle_us").at("launch_overhead").get<double>());
    EXPECT_EQ(std::stoull(row.at(column("kernels"))), step.at("kernels").get<std::uint64_t>());
  }
  // Without it, the gaps.
  EXPECT_EQ(parseCsv(runCli({"gaps", path, "--format", "csv"}).out).front().front(), "device");
  // A trace without steps: the header alone, and a word on stderr why.
  const CliResult none = runCli({"gaps", GAPSCOPE_TEST_DATA_DIR "/public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz",
                                 "--format", "csv", "--per-step"});
  EXPECT_EQ(none.status, 0);
  EXPECT_EQ(parseCsv(none.out).size(), 1u);
  EXPECT_NE(none.err.find("has no steps"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace gapscope::testing
