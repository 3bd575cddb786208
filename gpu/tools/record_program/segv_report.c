/* Diagnostic for the device runs: LD_PRELOAD=libsegv_report.so makes a
 * process print its stack (glibc backtrace) on SIGSEGV/SIGABRT before it
 * dies as it would have, so a crash at exit names the library and function.
 *   cc -shared -fPIC -O1 -g segv_report.c -o libsegv_report.so
 */
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void report(int sig) {
  void* frames[64];
  int n = backtrace(frames, 64);
  const char* head = sig == SIGSEGV ? "\n== SIGSEGV, stack:\n" : "\n== SIGABRT, stack:\n";
  write(2, head, strlen(head));
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  signal(SIGSEGV, report);
  signal(SIGABRT, report);
}
