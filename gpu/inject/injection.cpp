// libgapscope_inject.so: loaded by the CUDA driver into a program that
// `gapscope-cli record -- CMD` started (CUDA_INJECTION64_PATH; the driver
// calls InitializeInjection during cuInit, as CUPTI's injection samples and
// Nsight Systems use it). It connects to the recorder, turns on CUPTI
// activity tracing and streams the records (activity_stream.cpp); NVTX
// ranges come through nvtx_injection.cpp.
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>

#include <cuda.h>
#include <cupti.h>

#include "gapscope/gpu/wire.h"
#include "session.h"

namespace gapscope::gpu::inject {

namespace {

std::size_t sizeFromEnv(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  return end && *end == '\0' && n > 0 ? static_cast<std::size_t>(n) : fallback;
}

std::string readFile(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

wire::ProcessHello hello() {
  wire::ProcessHello h;
  h.processId = static_cast<std::uint32_t>(getpid());
  std::string args = readFile("/proc/self/cmdline");
  for (char& c : args)
    if (c == '\0') c = ' ';
  while (!args.empty() && args.back() == ' ') args.pop_back();
  h.commandLine = args;
  // argv[0]'s file name: /proc/self/comm cuts names at 15 characters.
  std::string argv0 = args.substr(0, args.find(' '));
  h.name = argv0.substr(argv0.rfind('/') + 1);
  if (h.name.empty()) h.name = "pid " + std::to_string(h.processId);
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  h.clockAnchor = Session::now();
  h.wallClockAtAnchor = std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
  int v = 0;
  if (cuDriverGetVersion(&v) == CUDA_SUCCESS) h.cudaDriverVersion = v;
  std::uint32_t cupti = 0;
  if (cuptiGetVersion(&cupti) == CUPTI_SUCCESS) h.cuptiVersion = static_cast<std::int32_t>(cupti);
  // torchrun's RANK etc.: the recorder names this process's trace after it.
  h.distributed = wire::distributedRankFromEnvironment();
  return h;
}

int connectTo(const char* path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof addr.sun_path) return -1;
  std::strcpy(addr.sun_path, path);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void atExit() {
  if (Session* s = Session::get()) s->finish();
}

}  // namespace

std::uint64_t Session::now() {
  std::uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

bool Session::connect() {
  const char* path = std::getenv("GAPSCOPE_RECORD_SOCKET");
  if (!path || !*path) return false;
  int fd = connectTo(path);
  if (fd < 0) {
    std::fprintf(stderr, "gapscope: cannot reach the recorder at %s: %s (this process is not recorded)\n", path,
                 std::strerror(errno));
    return false;
  }
  poolBytes_ = sizeFromEnv("GAPSCOPE_RECORD_POOL_BYTES", poolBytes_);
  channel_ = std::make_unique<RecordChannel>(fd, sizeFromEnv("GAPSCOPE_RECORD_CHANNEL_BYTES", std::size_t{64} << 20));
  std::string capture = std::getenv("GAPSCOPE_RECORD_CAPTURE") ? std::getenv("GAPSCOPE_RECORD_CAPTURE") : "";
  captureProfilerApi_ = capture == "cudaProfilerApi";
  if (capture.rfind("nvtx:", 0) == 0) captureNvtxName_ = capture.substr(5);
  std::string frame;
  wire::encode(frame, hello());
  channel_->pushControl(std::move(frame));
  std::atexit(atExit);
  return true;
}

Session* Session::get() {
  static std::once_flag once;
  static Session* session = nullptr;
  std::call_once(once, [] {
    auto* s = new Session();  // lives as long as the process: CUPTI keeps calling into it
    if (s->connect()) {
      session = s;
    } else {
      delete s;
    }
  });
  return session;
}

void Session::mark(bool open, std::uint64_t at) {
  std::string frame;
  wire::encode(frame, wire::CaptureMark{open, at});
  channel_->pushControl(std::move(frame));
}

void Session::note(const std::string& text) {
  std::string frame;
  wire::encodeNote(frame, text);
  channel_->pushControl(std::move(frame));
}

void Session::finish() {
  std::call_once(finished_, [this] {
    flushActivityStream(*this, true);
    stopActivityStream();
    stopped_ = true;
    std::string frame;
    wire::encodeBye(frame);
    channel_->pushControl(std::move(frame));
    channel_->close(std::chrono::seconds(10));
  });
}

}  // namespace gapscope::gpu::inject

// Called by the CUDA driver when CUDA_INJECTION64_PATH names this library.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using gapscope::gpu::inject::Session;
  Session* s = Session::get();
  if (!s) return 1;  // not started by a recorder: stay out of the way
  std::string error;
  if (!gapscope::gpu::inject::startActivityStream(*s, &error)) {
    s->note("CUDA activity is not recorded: " + error);
    std::fprintf(stderr, "gapscope: %s\n", error.c_str());
  }
  gapscope::gpu::inject::flushOnTerminatingSignals(*s);
  return 1;
}
