// How the process's heap is set up for loading traces on threads.
//
// glibc gives each new thread a malloc arena of its own, up to eight per
// core. Each arena keeps free memory at its top after the large blocks of a
// loaded trace are freed, and malloc_trim cannot return it while the
// arena's last block is in use. Loading a set of ranks two at a time, each
// with reader threads, left the heap 2.8 to 4.6 times the size of the
// tables kept (2 cores); with one arena per usable core it is 1.03 to 1.04
// times, for the same load time on one trace and on the set
// (docs/ranks.md, "Speed and memory").
#pragma once

namespace gapscope::io {

// The cores this process may run on (taskset, cgroups' cpusets), which
// std::thread::hardware_concurrency does not see; at least 1.
int usableCores();

// At most one malloc arena per usable core (glibc; elsewhere nothing).
// Call at start-up, before other threads exist: arenas made before stay.
void limitHeapArenasToCores();

}  // namespace gapscope::io
