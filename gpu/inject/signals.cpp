// A recorded program that leaves SIGINT or SIGTERM at their default action
// would die at once on Ctrl-C or `kill` (or --kill-on-stop), losing the
// records still in CUPTI's buffers and its NVTX batches. For those two
// signals, and only while the program has not set a handler of its own, the
// injection library catches the signal, finishes the recording (flush,
// drop counts, goodbye) on a thread of its own, then restores the default
// action and raises the signal again, so the program ends exactly as it
// would have (same signal, same exit status). A second signal while
// finishing ends it at once. Programs with their own handler (Python's
// SIGINT) are left alone: they exit through atexit, which flushes.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "session.h"

namespace gapscope::gpu::inject {

namespace {

int gPipe[2] = {-1, -1};
volatile sig_atomic_t gCaught = 0;

void onSignal(int sig) {
  if (gCaught) {  // again while finishing: as the default action would
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  gCaught = sig;
  unsigned char b = static_cast<unsigned char>(sig);
  ssize_t written = write(gPipe[1], &b, 1);
  (void)written;
}

void finishThenDie(Session* s) {
  unsigned char sig = 0;
  while (read(gPipe[0], &sig, 1) != 1) {
    if (errno != EINTR) return;
  }
  s->finish();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void flushOnTerminatingSignals(Session& s) {
  if (pipe2(gPipe, O_CLOEXEC) != 0) return;
  bool installed = false;
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old{};
    if (sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa{};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    installed = sigaction(sig, &sa, nullptr) == 0 || installed;
  }
  if (installed) std::thread(finishThenDie, &s).detach();
}

}  // namespace gapscope::gpu::inject
