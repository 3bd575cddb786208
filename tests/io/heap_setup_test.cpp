// io::setUpHeap: the restart that gives glibc's heap huge pages happens
// exactly where the kernel gives them only on request, leaves the
// environment as the user had it, and is skipped when the user chose; huge
// pages are held back until a load of kHugePagesFromBytes asks for them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include <gnu/libc-version.h>

namespace {

std::map<std::string, std::string> runProbe(const std::string& environment) {
  const std::string command = environment + " " GAPSCOPE_BINARY_DIR "/tests/io/heap_setup_probe";
  std::map<std::string, std::string> out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    std::string text(line);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    const auto eq = text.find('=');
    if (eq != std::string::npos) out[text.substr(0, eq)] = text.substr(eq + 1);
  }
  EXPECT_EQ(pclose(pipe), 0) << command;
  return out;
}

// Read from the kernel here, not from gapscope: huge pages on request only.
bool kernelGivesHugePagesOnRequest() {
  std::ifstream modes("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(modes, line) && line.find("[madvise]") != std::string::npos;
}

bool glibcHasHugePagesTunable() {
  int major = 0;
  int minor = 0;
  return std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 &&
         (major > 2 || (major == 2 && minor >= 35));
}

bool underSanitizer() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

// Under AddressSanitizer or ThreadSanitizer their allocator stands in for
// glibc's, so there is nothing to restart for (the checked build, CI); the
// optimised build's io_tests check the restart itself.
const std::string kRestart =
    kernelGivesHugePagesOnRequest() && glibcHasHugePagesTunable() && !underSanitizer() ? "1" : "0";

TEST(HeapSetup, RestartsWithoutTunablesAndLeavesThemUnset) {
  auto out = runProbe("env -u GLIBC_TUNABLES");
  EXPECT_EQ(out["restarted"], kRestart);
  EXPECT_EQ(out["tunables"], "(unset)");
  EXPECT_EQ(out["saved"], "(unset)");
  EXPECT_EQ(out["touched"], "2");
  EXPECT_EQ(out["held"], "1");
  EXPECT_EQ(out["held_after_small"], "1");
  EXPECT_EQ(out["held_after_big"], "0");
  if (kRestart == "1") {
    EXPECT_EQ(out["held_huge_kb"], "0") << "huge pages while held back";
    EXPECT_GE(std::stol(out["huge_kb"]), 2048) << "a touched 64 MiB block without a single huge page";
  }
}

TEST(HeapSetup, KeepsTheUsersOtherTunablesExactly) {
  auto out = runProbe("env GLIBC_TUNABLES=glibc.malloc.tcache_count=7");
  EXPECT_EQ(out["restarted"], kRestart);
  EXPECT_EQ(out["tunables"], "glibc.malloc.tcache_count=7");
  EXPECT_EQ(out["saved"], "(unset)");
  EXPECT_EQ(out["held"], "1");
}

TEST(HeapSetup, TheUsersOwnHugePagesChoiceWins) {
  auto out = runProbe("env GLIBC_TUNABLES=glibc.malloc.hugetlb=0");
  EXPECT_EQ(out["restarted"], "0");
  EXPECT_EQ(out["tunables"], "glibc.malloc.hugetlb=0");
  EXPECT_EQ(out["held"], "0");
  if (!underSanitizer()) {
    EXPECT_EQ(out["huge_kb"], "0");
  }
}

}  // namespace
