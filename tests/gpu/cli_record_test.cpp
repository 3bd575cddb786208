// gapscope-cli workloads and record, run as a user would. Without a GPU,
// record exits 1 with the reason on stderr; with one it writes the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "cli_output.h"
#include "gapscope/gpu/recorder.h"

#ifdef GAPSCOPE_CLI_PATH

namespace {

using gapscope::testing::cliLine;
using CliRun = gapscope::testing::CliOutput;

}  // namespace

TEST(CliRecord, WorkloadsListsOneLineEach) {
  CliRun r = cliLine("workloads");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 8) << r.out;
  EXPECT_EQ(r.out.rfind("matmul_add ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nsync_every_step "), std::string::npos) << r.out;
}

TEST(CliRecord, BadUsageExitsTwo) {
  EXPECT_EQ(cliLine("record -o /tmp/x.json").status, 2);
  EXPECT_EQ(cliLine("record --workload nope -o /tmp/x.json").status, 2);
  EXPECT_EQ(cliLine("record --workload matmul_add --size 9 -o /tmp/x.json").status, 2);
  EXPECT_EQ(cliLine("record --workload matmul_add").status, 2);  // no -o
  CliRun r = cliLine("record --workload mlp --variant fp8 -o /tmp/x.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no variant 'fp8'"), std::string::npos) << r.out;
}

TEST(CliRecord, WithoutAGpuExitsOneWithTheReason) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  auto file = std::filesystem::temp_directory_path() / "gapscope_cli_nogpu.json";
  std::filesystem::remove(file);
  CliRun r = cliLine("record --workload split_stack -o " + file.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(a.reason), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST(CliRecord, RecordsWhereAGpuIs) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (!a.available) GTEST_SKIP() << a.reason;
  auto file = std::filesystem::temp_directory_path() / "gapscope_cli_gpu.json.gz";
  CliRun r = cliLine("record --workload matmul_add --size 64 --steps 3 --check -o " + file.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_NE(r.out.find("Verdict:"), std::string::npos) << r.out;
  std::filesystem::remove(file);
}

#endif
