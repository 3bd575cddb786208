// gapscope-cli record -- CMD, as a user runs it: bad options are usage
// errors (exit 2) and start nothing; without a GPU the reason is printed
// and CMD does not run, unless --allow-no-gpu, which runs it and returns
// its exit status; with a GPU, a small program is recorded for real.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "gapscope/gpu/recorder.h"

#ifdef GAPSCOPE_CLI_PATH

namespace {

struct CliOutput {
  int status = -1;
  std::string out;
};

CliOutput cli(const std::string& args) {
  CliOutput r;
  std::string cmd = std::string(GAPSCOPE_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// A command that leaves a file behind when it runs.
std::string marker(const std::filesystem::path& file) { return "-- sh -c 'touch " + file.string() + "; exit 3'"; }

std::filesystem::path tempFile(const std::string& name) {
  auto f = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::filesystem::remove(f);
  return f;
}

}  // namespace

TEST(CliRecordProgram, BadOptionsAreUsageErrorsAndRunNothing) {
  auto ran = tempFile("gapscope_cli_ran_");
  for (std::string bad : {"--duration soon", "--delay -1", "--capture-range everything", "--capture-range nvtx:",
                          "--torch-ops --no-torch-ops", "--workload mlp", "stray", "--frobnicate"}) {
    CliOutput r = cli("record " + bad + " " + marker(ran));
    EXPECT_EQ(r.status, 2) << bad << ": " << r.out;
    EXPECT_FALSE(std::filesystem::exists(ran)) << bad;
  }
  CliOutput r = cli("record --");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("no program after --"), std::string::npos) << r.out;
}

TEST(CliRecordProgram, TheProgramsOwnOptionsAreLeftAlone) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  CliOutput r = cli("record --allow-no-gpu -- sh -c 'echo \"$@\"' sh --help --duration -o x");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("--help --duration -o x"), std::string::npos) << r.out;
}

TEST(CliRecordProgram, WithoutAGpuTheReasonComesAndTheProgramDoesNotRun) {
  gapscope::gpu::Availability a = gapscope::gpu::recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here";
  auto ran = tempFile("gapscope_cli_ran_");
  auto trace = tempFile("gapscope_cli_trace_");
  CliOutput r = cli("record -o " + trace.string() + " " + marker(ran));
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
  CliOutput r = cli("record --allow-no-gpu " + marker(ran));
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_TRUE(std::filesystem::exists(ran));
  EXPECT_NE(r.out.find("without recording the GPU"), std::string::npos) << r.out;
  std::filesystem::remove(ran);
}

TEST(CliRecordProgram, AMissingProgramIsAnError) {
  CliOutput r = cli("record --allow-no-gpu -- /nonexistent/gapscope-no-such-program");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("cannot start /nonexistent/gapscope-no-such-program"), std::string::npos) << r.out;
}

#endif
