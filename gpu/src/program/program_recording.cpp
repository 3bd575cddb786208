// The recorder's side of `record -- CMD`: start CMD, accept a connection
// from every process the injection library loads into, decode what each
// sends, and merge it when recording is over.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <thread>

#include "gapscope/gpu/program_recorder.h"
#include "gapscope/gpu/program_trace.h"
#include "gapscope/gpu/recorder.h"
#include "gapscope/gpu/wire.h"
#include "launch.h"

namespace gapscope::gpu {

namespace program {

// One process's connection: a named namespace, not an anonymous one, since
// ProgramRecording::Impl holds them (GCC warns about an anonymous type in a
// field when the sources are compiled in batches).
struct Connection {
  int fd = -1;
  wire::Decoder decoder;
  bool open = true;
};

}  // namespace program

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t wallNow() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

std::string commandLine(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// Devices the records use but no process described (the injection library
// leaves that to the recorder, so the program never calls the CUDA runtime
// for it), from this process's view of the machine.
void describeDevices(RecordSet& r, std::optional<std::vector<DeviceInfo>>& local) {
  std::set<std::uint32_t> used;
  for (const auto& k : r.kernels) used.insert(k.deviceId);
  for (const auto& m : r.memcpys) used.insert(m.deviceId);
  for (const auto& m : r.memsets) used.insert(m.deviceId);
  for (const auto& d : r.devices) used.erase(static_cast<std::uint32_t>(d.id));
  if (used.empty()) return;
  if (!local) local = localDevices();  // once: live snapshots ask again and again
  for (const DeviceInfo& d : *local)
    if (used.count(static_cast<std::uint32_t>(d.id))) r.devices.push_back(d);
}

}  // namespace

struct ProgramRecording::Impl {
  ProgramOptions options;
  program::ListenSocket socket;
  pid_t child = -1;
  bool childDone = false;
  int childStatus = 0;
  std::int64_t startWall = 0;
  Clock::time_point startTime{};
  std::vector<std::unique_ptr<program::Connection>> connections;
  std::optional<std::vector<DeviceInfo>> localDeviceCache;

  void acceptAll() {
    while (true) {
      int fd = ::accept4(socket.fd(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0) return;
      auto c = std::make_unique<program::Connection>();
      c->fd = fd;
      connections.push_back(std::move(c));
    }
  }

  // Reads what is there; closes the connection at its end or on bad bytes.
  void readFrom(program::Connection& c) {
    char buf[1 << 16];
    while (c.open) {
      ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
      if (n > 0) {
        if (!c.decoder.feed(buf, static_cast<std::size_t>(n))) closeConnection(c);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      closeConnection(c);  // end of stream or error
    }
  }

  static void closeConnection(program::Connection& c) {
    if (!c.open) return;
    ::close(c.fd);
    c.open = false;
  }

  bool anyOpen() const {
    return std::any_of(connections.begin(), connections.end(), [](const auto& c) { return c->open; });
  }

  void reapChild() {
    if (childDone || child <= 0) return;
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) {
      childDone = true;
      childStatus = status;
    }
  }

  // CMD and every process that connected (they may have left CMD's tree).
  void signalAll(int sig) {
    if (child > 0 && !childDone) ::kill(child, sig);
    for (const auto& c : connections) {
      const auto& s = c->decoder.stream();
      if (c->open && s.saidHello && static_cast<pid_t>(s.hello.processId) != child)
        ::kill(static_cast<pid_t>(s.hello.processId), sig);
    }
  }

  // Polls once for at most `timeout`.
  void pollOnce(std::chrono::milliseconds timeout) {
    std::vector<pollfd> fds;
    fds.push_back(pollfd{socket.fd(), POLLIN, 0});
    std::vector<program::Connection*> polled;
    for (auto& c : connections) {
      if (!c->open) continue;
      fds.push_back(pollfd{c->fd, POLLIN, 0});
      polled.push_back(c.get());
    }
    int n = ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
    if (n <= 0) return;
    if (fds[0].revents & POLLIN) acceptAll();
    for (std::size_t i = 0; i < polled.size(); ++i)
      if (fds[i + 1].revents) readFrom(*polled[i]);
  }

  StopReason receive(const StopRequest* stop, const LiveUpdates* live);
  // What arrived so far; a snapshot copies, the final result takes the records.
  ProgramRecordingResult result(StopReason why, bool snapshot);
  void eachProcess(ProgramRecordingResult& out, std::vector<RecordSet> sets, const std::vector<ProcessInfo>& info,
                   const std::vector<std::vector<std::string>>& notes);
  std::vector<TimeWindow> recordingWindow(const wire::ProcessHello& h) const;
};

ProgramRecording::ProgramRecording(ProgramOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
}

ProgramRecording::~ProgramRecording() {
  for (auto& c : impl_->connections) Impl::closeConnection(*c);
}

int ProgramRecording::childPid() const { return impl_->child; }

bool ProgramRecording::start() {
  Impl& m = *impl_;
  if (m.options.command.empty()) {
    error_ = "no program to record: give it after --, e.g. record -- python3 train.py";
    return false;
  }
  std::string lib = m.options.injectionLibrary;
  std::string torchDir = m.options.torchOpsDir;
  if (m.options.inject) {
    if (lib.empty() && (lib = findInjectionLibrary(&error_)).empty()) return false;
    if (m.options.torchOps && torchDir.empty() && (torchDir = findTorchOpsDir(&error_)).empty()) return false;
    if (!m.socket.open(&error_)) return false;
  }
  auto env = program::programEnvironment(m.options, m.socket.path(), lib, torchDir);
  m.startWall = wallNow();
  m.startTime = Clock::now();
  m.child = program::spawnProgram(m.options.command, env, m.options.workingDirectory, &error_);
  return m.child > 0;
}

StopReason ProgramRecording::Impl::receive(const StopRequest* stop, const LiveUpdates* live) {
  const bool timed = options.durationSeconds > 0;
  const Clock::time_point stopAt = startTime + seconds(options.delaySeconds + options.durationSeconds);
  Clock::time_point endedAt{};   // CMD ended, or the user interrupted
  bool interrupted = false;
  Clock::time_point nextSnapshot = startTime + (live ? live->interval : Clock::duration{});
  while (true) {
    pollOnce(std::chrono::milliseconds(live ? 20 : 50));
    reapChild();
    Clock::time_point now = Clock::now();
    if (stop && stop->now.load()) return StopReason::Stopped;
    if (live && live->deliver && now >= nextSnapshot) {
      live->deliver(result(StopReason::ProgramEnded, true));
      const Clock::time_point done = Clock::now();
      const auto cost = std::chrono::duration_cast<Clock::duration>((done - now) * live->costFactor);
      nextSnapshot = done + std::max<Clock::duration>(live->interval, cost);
      now = done;
    }
    if (stop && stop->count.load() > 0 && !interrupted) {
      interrupted = true;
      endedAt = now;
      if (int sig = stop->forward.load(); sig > 0) signalAll(sig);
    }
    if (childDone && endedAt == Clock::time_point{}) endedAt = now;
    bool graceOver = endedAt != Clock::time_point{} && now - endedAt > seconds(options.graceSeconds);
    bool again = interrupted && stop->count.load() > 1;  // a second Ctrl-C: no more waiting
    if (interrupted && ((childDone && !anyOpen()) || graceOver || again)) return StopReason::Interrupted;
    if (childDone && (!anyOpen() || graceOver)) return StopReason::ProgramEnded;
    if (timed && now >= stopAt) return StopReason::Duration;
  }
}

// --delay and --duration as a window on the process's CUPTI clock.
std::vector<TimeWindow> ProgramRecording::Impl::recordingWindow(const wire::ProcessHello& h) const {
  if (options.delaySeconds <= 0 && options.durationSeconds <= 0) return {};
  auto toCupti = [&h](std::int64_t wall) {
    return h.clockAnchor + static_cast<std::uint64_t>(wall - h.wallClockAtAnchor);
  };
  auto ns = [](double s) { return static_cast<std::int64_t>(s * 1e9); };
  TimeWindow w;
  w.from = toCupti(startWall + ns(options.delaySeconds));
  if (options.durationSeconds > 0) w.until = toCupti(startWall + ns(options.delaySeconds + options.durationSeconds));
  return {w};
}

ProgramRecordingResult ProgramRecording::Impl::result(StopReason why, bool snapshot) {
  ProgramRecordingResult out;
  out.stopReason = why;
  out.inProgress = snapshot;
  std::vector<RecordSet> sets;
  std::vector<ProcessInfo> info;
  std::vector<std::vector<std::string>> notes;  // per process
  for (auto& c : connections) {
    wire::ProcessStream& s = c->decoder.stream();
    if (!s.saidHello) continue;
    RecordSet copy;
    if (snapshot) copy = s.records;
    RecordSet& records = snapshot ? copy : s.records;
    RecordedProcess p;
    p.processId = s.hello.processId;
    p.name = s.hello.name;
    p.commandLine = s.hello.commandLine;
    p.distributed = s.hello.distributed;
    p.records = s.frames;
    p.cuptiDropped = s.stats.cuptiDropped;
    p.channelDropped = s.stats.channelDropped;
    p.cleanEnd = s.saidBye;
    p.error = c->decoder.error();
    if (auto w = recordingWindow(s.hello); !w.empty()) p.outsideCapture += keepInside(records, w);
    if (options.captureRange != CaptureRange::None)
      p.outsideCapture += keepInside(records, captureWindows(s.captureMarks));
    std::vector<std::string>& said = notes.emplace_back();
    for (const auto& n : s.notes) said.push_back("process " + std::to_string(p.processId) + " (" + p.name + "): " + n);
    out.warnings.insert(out.warnings.end(), said.begin(), said.end());
    info.push_back(ProcessInfo{p.processId, p.name, p.commandLine, p.distributed});
    sets.push_back(std::move(records));
    out.processes.push_back(std::move(p));
  }
  if (options.traceEachProcess && !snapshot) {  // a live view shows one trace: snapshots stay merged
    eachProcess(out, std::move(sets), info, notes);
    out.records.processes = info;
  } else {
    out.records = mergeProcesses(std::move(sets), info);
    describeDevices(out.records, localDeviceCache);
  }
  out.records.command = commandLine(options.command);
  out.records.issues = recordingIssues(out);
  if (!options.traceEachProcess) {
    for (ImportIssue& issue : mergedRanksIssues(out)) out.records.issues.push_back(std::move(issue));
  }
  return out;
}

// One RecordSet per process, each carrying only the issues that concern it
// (its drops, its end, its notes, the recording's stop).
void ProgramRecording::Impl::eachProcess(ProgramRecordingResult& out, std::vector<RecordSet> sets,
                                         const std::vector<ProcessInfo>& info,
                                         const std::vector<std::vector<std::string>>& notes) {
  for (std::size_t k = 0; k < sets.size(); ++k) {
    RecordSet one = singleProcess(std::move(sets[k]), info[k]);
    describeDevices(one, localDeviceCache);
    one.command = commandLine(options.command);
    ProgramRecordingResult alone;
    alone.stopReason = out.stopReason;
    alone.processes = {out.processes[k]};
    alone.warnings = notes[k];
    one.issues = recordingIssues(alone);
    out.processRecords.push_back(std::move(one));
  }
  shareTimeBase(out.processRecords);
}

ProgramRecordingResult ProgramRecording::collect(const StopRequest* stop, const LiveUpdates* live) {
  Impl& m = *impl_;
  StopReason why = StopReason::ProgramEnded;
  if (m.options.inject) {
    why = m.receive(stop, live);
    for (auto& c : m.connections) {  // recording is over: what is left in the socket, then close
      if (c->open) m.readFrom(*c);
      Impl::closeConnection(*c);
    }
  }
  return m.result(why, false);
}

void ProgramRecording::releaseProgram() {
  Impl& m = *impl_;
  m.reapChild();
  if (m.child <= 0 || m.childDone) return;
  std::thread([pid = m.child] {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }).detach();
  m.childDone = true;  // no longer ours to wait for
}

int ProgramRecording::waitForExit(const StopRequest* stop, double killAfterSeconds) {
  Impl& m = *impl_;
  if (m.child <= 0) return 1;
  if (!m.childDone && m.options.killOnStop) m.signalAll(SIGTERM);
  int seen = stop ? stop->count.load() : 0;
  const Clock::time_point killAt = Clock::now() + seconds(std::max(killAfterSeconds, 0.0));
  bool killed = false;
  while (!m.childDone) {
    m.reapChild();
    if (m.childDone) break;
    int now = stop ? stop->count.load() : 0;
    const bool late = killAfterSeconds >= 0 && !killed && Clock::now() >= killAt;
    if (now != seen || late) {  // interrupted again while waiting, or out of time: stop it for good
      m.signalAll(SIGKILL);
      seen = now;
      killed = killed || late;
    }
    ::usleep(20000);
  }
  return program::shellStatus(m.childStatus);
}

}  // namespace gapscope::gpu
