#include "gapscope/io/heap_setup.h"

#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#include <malloc.h>
#endif

namespace gapscope::io {

namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
// Set only across the restart: "=" and the user's GLIBC_TUNABLES, or "-"
// when it was unset.
constexpr const char* kSavedTunables = "GAPSCOPE_SAVED_GLIBC_TUNABLES";
constexpr const char* kHugePagesTunable = "glibc.malloc.hugetlb";

bool restarted = false;
std::atomic<bool> hugePagesHeldBack{false};

// Under a sanitizer its own allocator replaces glibc's, which then never
// reads the tunable: a restart would only cost time.
constexpr bool kSanitizerAllocator =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

// "always [madvise] never": huge pages only where a program asks.
bool hugePagesOnRequest() {
  std::ifstream modes("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(modes, line) && line.find("[madvise]") != std::string::npos;
}

// glibc.malloc.hugetlb came with glibc 2.35.
bool glibcKnowsHugePagesTunable() {
#if defined(__GLIBC__)
  int major = 0;
  int minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 35);
#else
  return false;
#endif
}

// The user's GLIBC_TUNABLES as saved across the restart ("=" and its
// text, or "-" when it was unset); null when unset.
const char* savedUsersTunables(const char* saved) { return saved[0] == '=' ? saved + 1 : nullptr; }

void restoreTunables(const char* saved) {
  if (const char* users = savedUsersTunables(saved)) setenv(kTunables, users, 1);
  else unsetenv(kTunables);
  unsetenv(kSavedTunables);
}

// Whether the user's GLIBC_TUNABLES (null: unset) says glibc.malloc.hugetlb.
bool usersHugePagesChoice(const char* tunables) { return tunables && std::strstr(tunables, kHugePagesTunable); }

void restartWithHugePages(char** argv) {
  const char* current = std::getenv(kTunables);
  if (usersHugePagesChoice(current)) return;
  if (kSanitizerAllocator || !hugePagesOnRequest() || !glibcKnowsHugePagesTunable()) return;
  const std::string wanted = std::string(kHugePagesTunable) + "=1";
  const std::string saved = current ? "=" + std::string(current) : "-";
  setenv(kSavedTunables, saved.c_str(), 1);
  setenv(kTunables, current && *current ? (std::string(current) + ":" + wanted).c_str() : wanted.c_str(), 1);
  // The binary's own path rather than /proc/self/exe, whose name would
  // become the process's name in ps and top.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    execv(self, argv);
  }
  restoreTunables(saved.c_str());  // exec failed: go on with the heap as it is
}

// At most one malloc arena per usable core (glibc; elsewhere nothing).
void limitHeapArenasToCores() {
#if defined(__GLIBC__)
  // The environment's MALLOC_ARENA_MAX, when set, is the user's choice.
  if (std::getenv("MALLOC_ARENA_MAX")) return;
  mallopt(M_ARENA_MAX, usableCores());
#endif
}

}  // namespace

int usableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void setUpHeap(char** argv) {
  // After the restart the user's own GLIBC_TUNABLES is the saved one.
  const char* saved = std::getenv(kSavedTunables);
  const bool usersChoice = usersHugePagesChoice(saved ? savedUsersTunables(saved) : std::getenv(kTunables));
  if (saved) {
    restarted = true;
    restoreTunables(saved);
  } else if (argv && argv[0]) {
    restartWithHugePages(argv);
  }
  limitHeapArenasToCores();
  if (!usersChoice) holdBackHugePages();
}

void holdBackHugePages() {
  if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0) hugePagesHeldBack = true;
}

void allowHugePages() {
  // Once allowed, never held back again: a process that read a big trace
  // keeps huge pages, and no load has to agree with another on a flag.
  if (hugePagesHeldBack.exchange(false)) prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
}

void allowHugePagesFor(std::uint64_t textBytes) {
  if (textBytes >= kHugePagesFromBytes) allowHugePages();
}

bool hugePagesHeldBackNow() { return prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1; }

bool heapRestartedForHugePages() { return restarted; }

// 1 MiB while freeing; afterwards the 64 MiB glibc's own threshold reaches
// after the first large free, so later loads do not give memory back and
// fault it in again block by block. (Once set, glibc stops adjusting its
// trim and mmap thresholds to the blocks freed: they stay where they are.)
ArenaTopsReturned::ArenaTopsReturned() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 1 << 20);
#endif
}

ArenaTopsReturned::~ArenaTopsReturned() {
#if defined(__GLIBC__)
  malloc_trim(0);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

void returnThisThreadsArenaTop() {
#if defined(__GLIBC__)
  // volatile: a malloc and free of the same block may otherwise be elided.
  static thread_local void* volatile block;
  block = std::malloc(96 << 10);
  std::free(block);
#endif
}

}  // namespace gapscope::io
