// The recorded program's environment: the injection variables replace any
// the user had, --torch-ops puts its sitecustomize first on PYTHONPATH and
// keeps the user's path after it, and nothing is injected without a GPU;
// the program does not inherit gapscope's hold on huge pages.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gapscope/io/heap_setup.h"
#include "launch.h"

using namespace gapscope::gpu;

namespace {

std::string valueOf(const std::vector<std::string>& env, const std::string& key) {
  std::string found;
  int count = 0;
  for (const auto& e : env) {
    if (e.rfind(key + "=", 0) == 0) {
      found = e.substr(key.size() + 1);
      ++count;
    }
  }
  EXPECT_LE(count, 1) << key << " set twice";
  return count ? found : "<unset>";
}

}  // namespace

TEST(ProgramEnvironment, InjectionVariablesReplaceTheUsersAndTheRestStays) {
  ::setenv("CUDA_INJECTION64_PATH", "/old/lib.so", 1);
  ::setenv("GAPSCOPE_TEST_KEEP", "kept", 1);
  ProgramOptions o;
  o.captureRange = CaptureRange::Nvtx;
  o.captureNvtxName = "train step";
  o.cuptiPoolBytes = 1234;
  auto env = program::programEnvironment(o, "/tmp/s/socket", "/lib/inject.so", "/py");
  EXPECT_EQ(valueOf(env, "CUDA_INJECTION64_PATH"), "/lib/inject.so");
  EXPECT_EQ(valueOf(env, "NVTX_INJECTION64_PATH"), "/lib/inject.so");
  EXPECT_EQ(valueOf(env, program::kSocketEnv), "/tmp/s/socket");
  EXPECT_EQ(valueOf(env, program::kCaptureEnv), "nvtx:train step");
  EXPECT_EQ(valueOf(env, program::kPoolEnv), "1234");
  EXPECT_EQ(valueOf(env, "GAPSCOPE_TEST_KEEP"), "kept");
  EXPECT_EQ(valueOf(env, "GAPSCOPE_TORCH_OPS"), "<unset>");
  ::unsetenv("CUDA_INJECTION64_PATH");
  ::unsetenv("GAPSCOPE_TEST_KEEP");
}

TEST(ProgramEnvironment, TorchOpsComeFirstOnThePythonPath) {
  ::setenv("PYTHONPATH", "/mine", 1);
  ProgramOptions o;
  o.torchOps = true;
  auto env = program::programEnvironment(o, "/s", "/lib.so", "/gapscope/python");
  EXPECT_EQ(valueOf(env, "PYTHONPATH"), "/gapscope/python:/mine");
  EXPECT_EQ(valueOf(env, "GAPSCOPE_TORCH_OPS"), "1");
  ::unsetenv("PYTHONPATH");
  env = program::programEnvironment(o, "/s", "/lib.so", "/gapscope/python");
  EXPECT_EQ(valueOf(env, "PYTHONPATH"), "/gapscope/python");
}

TEST(ProgramEnvironment, NothingIsInjectedWhenTheGpuIsNotRecorded) {
  ProgramOptions o;
  o.inject = false;
  o.torchOps = true;
  auto env = program::programEnvironment(o, "", "", "");
  EXPECT_EQ(valueOf(env, "CUDA_INJECTION64_PATH"), "<unset>");
  EXPECT_EQ(valueOf(env, program::kSocketEnv), "<unset>");
  EXPECT_EQ(valueOf(env, "GAPSCOPE_TORCH_OPS"), "<unset>");
}

TEST(ShellStatus, CodesAndSignalsAsAShellReportsThem) {
  EXPECT_EQ(program::shellStatus(7 << 8), 7);  // exited with 7
  EXPECT_EQ(program::shellStatus(9), 128 + 9);  // killed by SIGKILL
}

// The kernel keeps PR_SET_THP_DISABLE through fork and exec: a program
// started while gapscope holds huge pages back would run without them.
TEST(ProgramLaunch, TheProgramRunsWithoutGapscopesHoldOnHugePages) {
  // A kernel built without huge pages says THP_enabled: 0 to every process.
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) GTEST_SKIP() << "no transparent huge pages";
  gapscope::io::holdBackHugePages();
  ASSERT_TRUE(gapscope::io::hugePagesHeldBackNow());
  const std::string out = testing::TempDir() + "program_thp_status";
  std::string error;
  const pid_t pid = program::spawnProgram({"sh", "-c", "grep THP_enabled /proc/self/status > " + out}, {}, "", &error);
  ASSERT_GT(pid, 0) << error;
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  std::ifstream in(out);
  const std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  EXPECT_EQ(line, "THP_enabled:\t1\n");
  EXPECT_FALSE(gapscope::io::hugePagesHeldBackNow());
}

namespace {

// An executable file `name` in a fresh folder, starting with `firstLine`.
std::string scriptIn(const std::string& dir, const std::string& name, const std::string& firstLine) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << firstLine << "\nprint('hello')\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

}  // namespace

TEST(LooksLikePython, ByTheProgramsNameOrItsShebangLine) {
  EXPECT_TRUE(looksLikePython("python3"));
  EXPECT_TRUE(looksLikePython("/usr/bin/python3.12"));
  const std::string dir = ::testing::TempDir() + "/looks-like-python";
  EXPECT_TRUE(looksLikePython(scriptIn(dir, "train.py", "#!/usr/bin/env python3")));
  EXPECT_TRUE(looksLikePython(scriptIn(dir, "torchrun", "#!/opt/venv/bin/python3.12")));
  EXPECT_TRUE(looksLikePython(scriptIn(dir, "env-s", "#!/usr/bin/env -S PYTHONUNBUFFERED=1 python3 -u\r")));
  EXPECT_TRUE(looksLikePython(scriptIn(dir, "pypy", "#!/usr/bin/pypy3")));
  EXPECT_FALSE(looksLikePython(scriptIn(dir, "run.sh", "#!/bin/sh")));
  EXPECT_FALSE(looksLikePython(scriptIn(dir, "tools", "#!/home/me/python-tools/bin/bash")));
  EXPECT_FALSE(looksLikePython(scriptIn(dir, "notes", "python is named here, but not on a #! line")));
  EXPECT_FALSE(looksLikePython(dir + "/missing"));
  // pip's launcher where the interpreter's path is too long or spaced for a #! line.
  EXPECT_TRUE(looksLikePython(scriptIn(dir, "long-torchrun", "#!/bin/sh\n'''exec' \"/opt/my envs/x/bin/python3.12\" \"$0\" \"$@\"\n' '''")));
  EXPECT_FALSE(looksLikePython(scriptIn(dir, "plain-sh", "#!/bin/sh\nexec python3 \"$@\"")));
}

TEST(LooksLikePython, ARelativePathIsFoundInTheWorkingDirectory) {
  const std::string dir = ::testing::TempDir() + "/looks-like-python-cwd";
  scriptIn(dir, "train.py", "#!/usr/bin/env python3");
  EXPECT_TRUE(looksLikePython("./train.py", dir));
  EXPECT_FALSE(looksLikePython("./train.py", dir + "/elsewhere"));
}

TEST(LooksLikePython, ALaunchersNameIsLookedUpOnPathAsTheShellWould) {
  const std::string dir = ::testing::TempDir() + "/looks-like-python-path";
  scriptIn(dir, "torchrun", "#!/usr/bin/python3");
  scriptIn(dir, "launch-sh", "#!/bin/bash");
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", ("/nonexistent:" + dir).c_str(), 1);
  const bool torchrun = looksLikePython("torchrun");
  const bool shell = looksLikePython("launch-sh");
  const bool absent = looksLikePython("no-such-launcher");
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_TRUE(torchrun);
  EXPECT_FALSE(shell);
  EXPECT_FALSE(absent);
}
