// gapscope-cli record -- CMD, as a user runs it: bad options are usage
// errors (exit 2) and start nothing; without a GPU the reason is printed
// and CMD does not run, unless --allow-no-gpu, which runs it and returns
// its exit status; with a GPU, a small program is recorded for real.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_output.h"
#include "gapscope/gpu/recorder.h"

namespace {

using gapscope::testing::cli;
using gapscope::testing::CliOutput;

// record ARGS -- a command that leaves `file` behind when it runs and exits 3.
std::vector<std::string> recordMarking(std::vector<std::string> args, const std::filesystem::path& file) {
  args.insert(args.begin(), "record");
  for (std::string w : {"--", "sh", "-c"}) args.push_back(w);
  args.push_back("touch '" + file.string() + "'; exit 3");
  return args;
}

std::filesystem::path tempFile(const std::string& name) {
  auto f = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::filesystem::remove(f);
  return f;
}

}  // namespace

TEST(CliRecordProgram, BadOptionsAreUsageErrorsAndRunNothing) {
  auto ran = tempFile("gapscope_cli_ran_");
  const std::vector<std::vector<std::string>> bad = {
      {"--duration", "soon"}, {"--delay", "-1"}, {"--capture-range", "everything"}, {"--capture-range", "nvtx:"},
      {"--torch-ops", "--no-torch-ops"}, {"--workload", "mlp"}, {"stray"}, {"--frobnicate"}};
  for (const auto& options : bad) {
    CliOutput r = cli(recordMarking(options, ran));
    EXPECT_EQ(r.status, 2) << options.front() << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists(ran)) << options.front();
  }
  CliOutput r = cli({"record", "--"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no program after --"), std::string::npos) << r.out;
}

TEST(CliRecordProgram, TheProgramsOwnOptionsAreLeftAlone) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  CliOutput r = cli({"record", "--allow-no-gpu", "--", "sh", "-c", "echo \"$@\"", "sh", "--help", "--duration", "-o", "x"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("--help --duration -o x"), std::string::npos) << r.out;
}

TEST(CliRecordProgram, WithoutAGpuTheReasonComesAndTheProgramDoesNotRun) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  auto ran = tempFile("gapscope_cli_ran_");
  auto trace = tempFile("gapscope_cli_trace_");
  CliOutput r = cli(recordMarking({"-o", trace.string()}, ran));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(a.reason), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("was not run"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(ran));
  EXPECT_FALSE(std::filesystem::exists(trace));
}

TEST(CliRecordProgram, AllowNoGpuRunsTheProgramAndReturnsItsStatus) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  auto ran = tempFile("gapscope_cli_ran_");
  CliOutput r = cli(recordMarking({"--allow-no-gpu"}, ran));
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_TRUE(std::filesystem::exists(ran));
  EXPECT_NE(r.out.find("without recording the GPU"), std::string::npos) << r.out;
  std::filesystem::remove(ran);
}

TEST(CliRecordProgram, AMissingProgramIsAnError) {
  CliOutput r = cli({"record", "--allow-no-gpu", "--", "/nonexistent/gapscope-no-such-program"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("cannot start /nonexistent/gapscope-no-such-program"), std::string::npos) << r.out;
}

