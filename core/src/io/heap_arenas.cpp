#include "gapscope/io/heap_arenas.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gapscope::io {

int usableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void limitHeapArenasToCores() {
#if defined(__GLIBC__)
  // The environment's MALLOC_ARENA_MAX, when set, is the user's choice.
  if (std::getenv("MALLOC_ARENA_MAX")) return;
  mallopt(M_ARENA_MAX, usableCores());
#endif
}

}  // namespace gapscope::io
