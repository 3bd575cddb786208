// heap_setup_probe: starts as gapscope and gapscope-cli do (io::setUpHeap),
// then prints what a test checks: whether the process restarted, the
// environment it was left with, whether huge pages are held back before and
// after loads of either side of kHugePagesFromBytes, and how much of a
// touched 64 MiB block the kernel backs with huge pages (AnonHugePages of
// /proc/self/smaps_rollup) while they are held back and once they are not.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gapscope/io/heap_setup.h"

namespace {

long anonHugePagesKb() {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string key;
  long kb = 0;
  while (rollup >> key) {
    if (key == "AnonHugePages:" && rollup >> kb) return kb;
  }
  return -1;
}

}  // namespace

int main(int, char** argv) {
  namespace io = gapscope::io;
  io::setUpHeap(argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("restarted=%d\n", io::heapRestartedForHugePages() ? 1 : 0);
  std::printf("tunables=%s\n", tunables ? tunables : "(unset)");
  std::printf("saved=%s\n", std::getenv("GAPSCOPE_SAVED_GLIBC_TUNABLES") ? "set" : "(unset)");
  std::printf("held=%d\n", io::hugePagesHeldBackNow() ? 1 : 0);
  const std::vector<char> smallLoads(64 << 20, 1);  // written: every page faulted in
  std::printf("held_huge_kb=%ld\n", anonHugePagesKb());
  io::allowHugePagesFor(io::kHugePagesFromBytes - 1);
  std::printf("held_after_small=%d\n", io::hugePagesHeldBackNow() ? 1 : 0);
  io::allowHugePagesFor(io::kHugePagesFromBytes);
  std::printf("held_after_big=%d\n", io::hugePagesHeldBackNow() ? 1 : 0);
  const std::vector<char> bigLoad(64 << 20, 1);
  std::printf("huge_kb=%ld\n", anonHugePagesKb());
  std::printf("touched=%d\n", smallLoads[smallLoads.size() / 2] + bigLoad[bigLoad.size() / 2]);
  return 0;
}
