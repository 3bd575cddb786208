// `gapscope-cli memory` as a process on generated traces: the JSON, CSV
// and text of the pattern in memory_trace_json.h, --device, and a trace
// without memory events.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli/cli_run.h"
#include "memory_trace_json.h"

namespace gapscope::memory {
namespace {

using testing::CliResult;
using testing::runCli;

class MemoryCli : public ::testing::Test {
 protected:
  std::string write(const testing::MemoryTraceJson& trace, const std::string& name = "trace.json") {
    const std::string path = (dir_.path() / name).string();
    std::ofstream(path) << trace.text();
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(MemoryCli, JsonOfThePattern) {
  const std::string path = write(testing::peakLeakNestedTrace());
  const CliResult r = runCli({"memory", path, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["memory_events"], 8);
  ASSERT_EQ(j["devices"].size(), 2u);
  const nlohmann::json& gpu = j["devices"][1];
  EXPECT_EQ(gpu["device"], 0);
  EXPECT_EQ(gpu["events"], 7);
  EXPECT_EQ(gpu["allocs"], 4);
  EXPECT_EQ(gpu["peak_allocated_bytes"], 1500);
  EXPECT_EQ(gpu["peak_allocated_ts_ns"], 130250);
  EXPECT_EQ(gpu["peak_reserved_bytes"], 4096);
  EXPECT_EQ(gpu["allocated_basis"], "stated");
  EXPECT_EQ(gpu["leaked_allocs"], 2);
  EXPECT_EQ(gpu["leaked_bytes"], 250);
  EXPECT_EQ(gpu["unmatched_frees"], 1);
  EXPECT_EQ(gpu["unmatched_free_bytes"], 300);
  EXPECT_EQ(j["leaks"], (nlohmann::json{{"count", 3}, {"bytes", 266}}));
  EXPECT_EQ(j["unmatched_frees"], (nlohmann::json{{"count", 1}, {"bytes", 300}}));
  ASSERT_EQ(j["by_op"].size(), 5u);  // four on the GPU, outer on the CPU
  EXPECT_EQ(j["by_op"][0], (nlohmann::json{{"device", 0}, {"name", "inner"}, {"alloc_bytes", 400}, {"allocs", 1},
                                           {"free_bytes", 400}, {"frees", 1}, {"peak_increment_bytes", 400}}));
}

TEST_F(MemoryCli, DeviceCsvAndText) {
  const std::string path = write(testing::peakLeakNestedTrace());
  const CliResult cpu = runCli({"memory", path, "--device", "-1", "--format", "json"});
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  const nlohmann::json j = nlohmann::json::parse(cpu.out);
  ASSERT_EQ(j["devices"].size(), 1u);
  EXPECT_EQ(j["leaks"]["count"], 1);
  EXPECT_EQ(j["leaks"]["bytes"], 16);

  const CliResult csv = runCli({"memory", path, "--device", "0", "--format", "csv"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  const auto rows = testing::parseCsv(csv.out);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"device", "name", "alloc_bytes", "allocs", "free_bytes", "frees",
                                               "peak_increment_bytes"}));
  EXPECT_EQ(rows[3], (std::vector<std::string>{"0", "outer", "150", "2", "0", "0", "500"}));

  const CliResult text = runCli({"memory", path});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("GPU 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("1.5 KiB"), std::string::npos) << text.out;  // the peak
  EXPECT_NE(text.out.find("2 (250 B)"), std::string::npos) << text.out;  // never freed

  const CliResult missing = runCli({"memory", path, "--device", "3"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("no memory events on device 3"), std::string::npos) << missing.err;
}

TEST_F(MemoryCli, WithoutAddressesLeaksAreUnknown) {
  testing::MemoryTraceJson t;
  t.memory(10, {100}).memory(20, {-100});
  const CliResult r = runCli({"memory", write(t), "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["devices"][0]["allocated_basis"], "net_since_trace_start");
  EXPECT_TRUE(j["devices"][0]["leaked_allocs"].is_null());
  EXPECT_TRUE(j["leaks"]["count"].is_null());
  EXPECT_TRUE(j["unmatched_frees"]["bytes"].is_null());
  EXPECT_NE(runCli({"memory", write(t)}).out.find("unknown: 2 without Addr"), std::string::npos);
}

TEST_F(MemoryCli, NoMemoryEvents) {
  testing::MemoryTraceJson t;
  t.slice("op", 0, 10);
  const std::string path = write(t);
  const CliResult text = runCli({"memory", path});
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("no memory events"), std::string::npos) << text.out;
  const CliResult json = runCli({"memory", path, "--format", "json"});
  EXPECT_EQ(json.status, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["memory_events"], 0);
  EXPECT_TRUE(j["devices"].empty());
  EXPECT_TRUE(j["by_op"].empty());
}

}  // namespace
}  // namespace gapscope::memory
