// A stand-in for a CUDA program run under `record -- CMD` on machines
// without a GPU: where the injection library would parse CUPTI buffers, this
// fabricates the records and sends them through the same channel and frame
// format (RecordChannel, wire.h) to the recorder named in
// GAPSCOPE_RECORD_SOCKET. Modes:
//   kernels N CODE  N launches + kernels on stream 7 in one ProfilerStep#1, exit CODE
//   parent          starts two children "kernels 3 0" and waits for both
//   ranks           starts three children as torchrun starts ranks: RANK 0 and
//                   1 of 2 ("kernels 2 0", "kernels 3 0") and one without RANK
//                   ("kernels 1 0"); waits for all
//   killed N        sends N kernels, then SIGKILLs itself before its goodbye
//   capture         6 kernels; a cudaProfilerStart/Stop range around kernels 3..4
//   forever         sends a kernel every 10 ms until a signal ends it
//   environment F   writes its working directory, $GAPSCOPE_TEST_VALUE and
//                   $PYTHONPATH to F (a line each), then as "kernels 1 0"
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "gapscope/gpu/record_channel.h"
#include "gapscope/gpu/wire.h"

using namespace gapscope::gpu;

namespace {

#include <time.h>

constexpr std::uint64_t kAnchor = 1'000'000'000;

// Fake CUPTI timestamps: kAnchor at start-up, then the real time elapsed,
// so the recorder's --delay/--duration windows (wall clock) apply to them.
std::int64_t gWallAtAnchor = 0;
std::uint64_t gSteadyAtAnchor = 0;

std::int64_t clockNs(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

std::uint64_t fakeNow() { return kAnchor + static_cast<std::uint64_t>(clockNs(CLOCK_MONOTONIC)) - gSteadyAtAnchor; }

std::unique_ptr<RecordChannel> connectToRecorder() {
  const char* path = std::getenv("GAPSCOPE_RECORD_SOCKET");
  if (!path) std::exit(90);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) std::exit(91);
  auto ch = std::make_unique<RecordChannel>(fd, 1 << 20);
  wire::ProcessHello h;
  h.processId = static_cast<std::uint32_t>(getpid());
  h.name = "fake_cuda_program";
  h.commandLine = "fake_cuda_program";
  h.clockAnchor = kAnchor;
  gSteadyAtAnchor = static_cast<std::uint64_t>(clockNs(CLOCK_MONOTONIC));
  gWallAtAnchor = clockNs(CLOCK_REALTIME);
  h.wallClockAtAnchor = gWallAtAnchor;
  h.distributed = wire::distributedRankFromEnvironment();
  std::string f;
  wire::encode(f, h);
  DeviceInfo d;
  d.id = 0;
  d.name = "Fake GPU";
  d.numSms = 10;
  wire::encode(f, d);
  ch->pushControl(std::move(f));
  return ch;
}

// Launch i: a cudaLaunchKernel at `at` (default: 10 us * i after the
// anchor) and its kernel 2 us later.
void sendLaunch(RecordChannel& ch, std::uint32_t i, std::uint64_t at = 0) {
  RecordSet r;
  ApiCallRecord a;
  a.name = "cudaLaunchKernel";
  a.start = at ? at : kAnchor + 10000ull * i;
  a.end = a.start + 3000;
  a.processId = static_cast<std::uint32_t>(getpid());
  a.threadId = a.processId;
  a.correlationId = i + 1;
  r.apiCalls.push_back(a);
  KernelRecord k;
  k.name = "fake_kernel";
  k.start = a.start + 2000;
  k.end = k.start + 5000;
  k.streamId = 7;
  k.contextId = 1;
  k.correlationId = i + 1;
  r.kernels.push_back(k);
  std::string frames;
  std::uint64_t n = wire::encodeRecords(frames, r);
  ch.tryPush(std::move(frames), n);
}

void sendStep(RecordChannel& ch, std::uint32_t launches) {
  HostRange h;
  h.kind = HostRangeKind::Annotation;
  h.name = "ProfilerStep#1";
  h.start = kAnchor;
  h.end = kAnchor + 10000ull * launches;
  h.threadId = static_cast<std::uint32_t>(getpid());
  std::string f;
  wire::encode(f, h);
  ch.tryPush(std::move(f), 1);
}

void bye(RecordChannel& ch) {
  std::string f;
  wire::encode(f, wire::ChannelStats{0, ch.droppedRecords()});
  wire::encodeBye(f);
  ch.pushControl(std::move(f));
  ch.close(std::chrono::seconds(5));
}

int kernels(int n, int code) {
  auto ch = connectToRecorder();
  for (int i = 0; i < n; ++i) sendLaunch(*ch, static_cast<std::uint32_t>(i));
  sendStep(*ch, static_cast<std::uint32_t>(n));
  bye(*ch);
  return code;
}

// "self kernels N 0" as a child; with `rank`, RANK, LOCAL_RANK (both
// `rank`) and WORLD_SIZE 2 set as torchrun sets them, else all three unset.
pid_t startChild(const char* self, const char* n, const char* rank = nullptr) {
  pid_t k = fork();
  if (k != 0) return k;
  for (const char* v : {"RANK", "LOCAL_RANK", "WORLD_SIZE"}) {
    if (rank) {
      ::setenv(v, rank, 1);
    } else {
      ::unsetenv(v);
    }
  }
  if (rank) ::setenv("WORLD_SIZE", "2", 1);
  execl(self, self, "kernels", n, "0", static_cast<char*>(nullptr));
  _exit(92);
}

int waitAll(std::initializer_list<pid_t> kids) {
  int worst = 0;
  for (pid_t k : kids) {
    int st = 0;
    waitpid(k, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) worst = 93;
  }
  return worst;
}

int parent(const char* self) {
  pid_t a = startChild(self, "3");
  pid_t b = startChild(self, "3");
  return waitAll({a, b});
}

int ranks(const char* self) {
  pid_t a = startChild(self, "2", "0");
  pid_t b = startChild(self, "3", "1");
  pid_t c = startChild(self, "1");
  return waitAll({a, b, c});
}

int killed(int n) {
  auto ch = connectToRecorder();
  for (int i = 0; i < n; ++i) sendLaunch(*ch, static_cast<std::uint32_t>(i));
  ch->close(std::chrono::seconds(5));  // delivered, as a periodic flush would have
  raise(SIGKILL);
  return 94;
}

int capture() {
  auto ch = connectToRecorder();
  for (std::uint32_t i = 0; i < 6; ++i) {
    if (i == 3 || i == 5) {
      std::string f;
      wire::encode(f, wire::CaptureMark{i == 3, kAnchor + 10000ull * i});
      ch->pushControl(std::move(f));
    }
    sendLaunch(*ch, i);
  }
  bye(*ch);
  return 0;
}

int forever() {
  auto ch = connectToRecorder();
  for (std::uint32_t i = 0;; ++i) {
    sendLaunch(*ch, i, fakeNow());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Where it ran and what it was given, for the recorder's working
// directory and environment options.
int environment(const char* path) {
  char cwd[4096] = {};
  if (!::getcwd(cwd, sizeof cwd)) return 3;
  const char* value = std::getenv("GAPSCOPE_TEST_VALUE");
  const char* pythonPath = std::getenv("PYTHONPATH");
  FILE* f = std::fopen(path, "w");
  if (!f) return 4;
  std::fprintf(f, "%s\n%s\n%s\n", cwd, value ? value : "(unset)", pythonPath ? pythonPath : "(unset)");
  std::fclose(f);
  return kernels(1, 0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "kernels" && argc > 3) return kernels(std::atoi(argv[2]), std::atoi(argv[3]));
  if (mode == "parent") return parent(argv[0]);
  if (mode == "ranks") return ranks(argv[0]);
  if (mode == "killed" && argc > 2) return killed(std::atoi(argv[2]));
  if (mode == "capture") return capture();
  if (mode == "forever") return forever();
  if (mode == "environment" && argc > 2) return environment(argv[2]);
  return 2;
}
