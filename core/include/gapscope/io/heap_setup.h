// How the process's heap is set up for loading traces on threads.
//
// Arenas: glibc gives each new thread a malloc arena of its own, up to eight
// per core. Each arena keeps free memory at its top after the large blocks
// of a loaded trace are freed, and malloc_trim cannot return it while the
// arena's last block is in use. Loading a set of ranks two at a time, each
// with reader threads, left the heap 2.8 to 4.6 times the size of the
// tables kept (2 cores); with one arena per usable core it is 1.03 to 1.04
// times, for the same load time on one trace and on the set
// (docs/ranks.md, "Speed and memory").
//
// Huge pages: a load writes its model into fresh memory, and every 4 KiB
// page of it is a page fault (expensive under virtual machines: a third of
// a 520 MB load's CPU time on the development VM). Where the kernel gives
// transparent huge pages only on request (the "madvise" mode, Debian's and
// Ubuntu's default), glibc asks for them for its heap when started with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which is read once, before main.
// So the process restarts itself once with it (docs/reader.md, "Huge
// pages"), and puts GLIBC_TUNABLES back as it was, so that programs it
// starts get the user's environment.
//
// Huge pages held back for small traces: a 2 MiB page is faulted in whole,
// so the heap's arenas and each big array's last page round up to 2 MiB,
// 3 to 6 MB in all, which at 100 MB of JSON is the difference between a
// peak of 0.30x and 0.36x of the file; the page faults they save are a few
// per cent of a load that small (docs/performance.md, "Huge pages from
// 192 MiB"). So setUpHeap holds them back for the whole process (prctl's
// PR_SET_THP_DISABLE; glibc still asks for them, the kernel then says no),
// and the first load of kHugePagesFromBytes of text or more lets them in
// for good. The hold is inherited by programs the process starts: release
// it before starting one (allowHugePages), so that it runs as the user
// would run it.
#pragma once

#include <cstdint>

namespace gapscope::io {

inline constexpr std::uint64_t kHugePagesFromBytes = std::uint64_t{192} << 20;

// The cores this process may run on (taskset, cgroups' cpusets), which
// std::thread::hardware_concurrency does not see; at least 1.
int usableCores();

// The first thing a program that loads traces does (`argv` as main got it):
// restarts the process with glibc's heap on huge pages where that helps
// (above), then allows at most one malloc arena per usable core (before
// other threads exist: arenas made before stay; the environment's
// MALLOC_ARENA_MAX wins). Returns only in the process that goes on. No
// restart where the user's GLIBC_TUNABLES already says glibc.malloc.hugetlb,
// the kernel gives huge pages always or never, or a sanitizer's allocator
// stands in for glibc's. Then holds huge pages back (above), unless the
// user's GLIBC_TUNABLES says glibc.malloc.hugetlb.
void setUpHeap(char** argv);

// Holds huge pages back from the process (done by setUpHeap).
void holdBackHugePages();

// Lets huge pages in again, for good; before starting another program.
void allowHugePages();

// Lets huge pages in for a load of `textBytes` of JSON at or above
// kHugePagesFromBytes (a trace, or a set of ranks read together).
void allowHugePagesFor(std::uint64_t textBytes);

// Whether the kernel holds huge pages back from this process now (tests).
bool hugePagesHeldBackNow();

// While it lives, freeing memory gives the free top of its malloc arena
// back to the system; at its end the free pages inside the arenas go too
// (malloc_trim). glibc trims a thread's arena only when its free top
// exceeds the trim threshold, which it raises to 64 MiB once large blocks
// are freed, and malloc_trim never trims another thread's arena top: a set
// of ranks loaded on worker threads left 1.9 to 2.0 times the tables
// resident in half the runs (docs/ranks.md, "Speed and memory"). Use it
// around freeing what worker threads made, once they are done, and have
// each worker call returnThisThreadsArenaTop() inside it before it ends.
class ArenaTopsReturned {
 public:
  ArenaTopsReturned();
  ~ArenaTopsReturned();
  ArenaTopsReturned(const ArenaTopsReturned&) = delete;
  ArenaTopsReturned& operator=(const ArenaTopsReturned&) = delete;
};

// Inside an ArenaTopsReturned: gives the calling thread's arena top back
// (glibc trims an arena's top only in a free of over 64 KiB into that
// arena, made by a thread attached to it). For worker threads, once their
// work is freed and before they end.
void returnThisThreadsArenaTop();

// Whether this process is the restarted one (for tests).
bool heapRestartedForHugePages();

}  // namespace gapscope::io
