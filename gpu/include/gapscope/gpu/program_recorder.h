// Recording the user's own program: `gapscope-cli record -- CMD ARGS...`.
// CMD runs with the injection library (libgapscope_inject.so) named in
// CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH; the CUDA driver loads it
// into every process of CMD that initialises CUDA (children too, as they
// inherit the environment), and each such process streams its records to
// this recorder over a Unix socket. Qt-free and CUDA-free: the recorder
// only listens, decodes and merges (program_trace.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu {

enum class CaptureRange : std::uint8_t {
  None,             // record from start (after --delay) to the end (or --duration)
  CudaProfilerApi,  // only between cudaProfilerStart and cudaProfilerStop
  Nvtx,             // only inside NVTX ranges with a given name
};

struct ProgramOptions {
  std::vector<std::string> command;  // CMD ARGS...
  std::string workingDirectory;      // empty: the recorder's
  // NAME=VALUE entries set for CMD on top of the recorder's environment
  // (the injection's own variables still win; a PYTHONPATH given here is
  // kept behind the torch-ops folder).
  std::vector<std::string> environment;
  double delaySeconds = 0;           // records before start + delay are left out
  double durationSeconds = 0;        // > 0: stop recording after this long (after the delay)
  CaptureRange captureRange = CaptureRange::None;
  std::string captureNvtxName;  // CaptureRange::Nvtx
  bool killOnStop = false;      // when recording stops before CMD ends, SIGTERM it
  bool torchOps = false;        // PyTorch operators as NVTX ranges (sitecustomize)
  // false: run CMD without the injection (no GPU here and --allow-no-gpu).
  bool inject = true;
  std::size_t cuptiPoolBytes = std::size_t{64} << 20;  // per process
  std::size_t channelBytes = std::size_t{64} << 20;    // per process
  // One RecordSet per process (ProgramRecordingResult::processRecords)
  // instead of one merged: each rank of a distributed job is a process.
  bool traceEachProcess = false;
  // Paths; empty: found beside the executable, in the install or build tree.
  std::string injectionLibrary;
  std::string torchOpsDir;
  // Seconds to wait for a process's last records after CMD has ended or
  // after an interrupt.
  double graceSeconds = 5;
};

// One process that connected.
struct RecordedProcess {
  std::uint32_t processId = 0;
  std::string name;
  std::string commandLine;
  DistributedRank distributed;      // its RANK, WORLD_SIZE, LOCAL_RANK
  std::uint64_t records = 0;        // received
  std::uint64_t cuptiDropped = 0;   // lost inside the process: CUPTI's buffer pool was empty
  std::uint64_t channelDropped = 0; // lost inside the process: the channel to the recorder was full
  std::uint64_t outsideCapture = 0; // received, but outside the capture window or range
  bool cleanEnd = false;            // said goodbye after its final flush
  std::string error;                // its byte stream was malformed (what came before is kept)
};

// Interrupted: Ctrl-C or a signal; Stopped: `StopRequest::now` (the app's
// Stop with the program left running).
enum class StopReason : std::uint8_t { ProgramEnded, Duration, Interrupted, Stopped };

struct ProgramRecordingResult {
  // Merged (mergeProcesses), filtered to the capture windows. With
  // traceEachProcess it holds no records, only the command and the issues
  // of the whole recording: those are in processRecords.
  RecordSet records;
  // With traceEachProcess: one per process, as `processes` (singleProcess),
  // each with the issues that concern it.
  std::vector<RecordSet> processRecords;
  std::vector<RecordedProcess> processes;
  std::vector<std::string> warnings;
  StopReason stopReason = StopReason::ProgramEnded;
  bool inProgress = false;  // a live snapshot: the recording goes on
};

// The user asked the recorder to stop (Ctrl-C). Written from a signal
// handler, read by the recording loop.
struct StopRequest {
  std::atomic<int> count{0};    // how many times
  // A signal to pass on to the program: set when the recorder alone got it
  // (`kill -INT` of the recorder); 0 when the program got its own (Ctrl-C at
  // a terminal reaches the whole foreground process group).
  std::atomic<int> forward{0};
  // Stop recording at once, without waiting for the program's last records
  // and without signalling it (the app's Stop when the program runs on).
  std::atomic<bool> now{false};
};

// Snapshots of a recording in progress, for a live view: `deliver` gets
// what every process has sent so far, merged and filtered as the final
// result would be, on the recording thread, at most every `interval`. A
// snapshot costs time in proportion to what was recorded, so the next one
// waits at least `costFactor` times as long as the last took: the recorder
// never spends more than 1 / costFactor of its time on snapshots.
struct LiveUpdates {
  std::chrono::milliseconds interval{200};
  double costFactor = 3;
  std::function<void(ProgramRecordingResult&&)> deliver;
};

// A process without its goodbye when recording stopped before the program
// ended (by --duration or the app's Stop), or in a live snapshot: it is
// still running, so what it records later is not wanted and nothing is missing.
bool stillRunning(const ProgramRecordingResult& result, const RecordedProcess& process);

// What the recorder says about a recording, as import issues the trace
// carries (RecordSet::issues): processes that ended before their final
// flush, records dropped in a process or on the way, a stream that broke,
// a recording stopped early, no process that used CUDA.
std::vector<ImportIssue> recordingIssues(const ProgramRecordingResult& result);
// A merged recording of two or more ranks of a distributed job says that
// `record -o DIR/` gives the per-rank traces the straggler analysis reads
// (an Info issue, "recording_ranks_merged"); nothing otherwise.
std::vector<ImportIssue> mergedRanksIssues(const ProgramRecordingResult& result);

// python, python3, /usr/bin/python3.12, pypy3 ..., and scripts that run
// Python: a #! line naming it (directly or through env), or pip's /bin/sh
// trampoline for a long interpreter path (torchrun, accelerate, deepspeed,
// ./train.py), found as the program will be (a relative path under the
// working directory, a bare name on PATH): programs that get PyTorch
// operator ranges unless the user says otherwise.
bool looksLikePython(const std::string& program, const std::string& workingDirectory = {});

// Where the injection library and the torch-ops sitecustomize folder are;
// the error names where it looked.
std::string findInjectionLibrary(std::string* error);
std::string findTorchOpsDir(std::string* error);

class ProgramRecording {
 public:
  explicit ProgramRecording(ProgramOptions options);
  ~ProgramRecording();
  ProgramRecording(const ProgramRecording&) = delete;
  ProgramRecording& operator=(const ProgramRecording&) = delete;

  // Opens the socket and starts CMD. False, with the reason in error(), when
  // CMD could not be started (then nothing ran).
  bool start();
  const std::string& error() const { return error_; }
  int childPid() const;

  // Receives records until CMD and every connected process have ended, the
  // duration is over, or the user asks to stop (`stop`, set from a signal
  // handler). Processes then get `graceSeconds` to send their last records.
  // Afterwards recording is over: the connections are closed, so injected
  // processes stop tracing.
  // With `live`, snapshots of what arrived so far are delivered while it
  // records.
  ProgramRecordingResult collect(const StopRequest* stop, const LiveUpdates* live = nullptr);

  // Waits for CMD to end (sending SIGTERM first with killOnStop when it is
  // still running; SIGKILL when the user asks to stop again). Returns its
  // exit status as a shell gives it: the code, or 128 + the signal. With
  // `killAfterSeconds` >= 0, a program still running that long after the
  // wait began gets SIGKILL (an app that is closing cannot wait forever).
  int waitForExit(const StopRequest* stop, double killAfterSeconds = -1);

  // Leaves CMD running on its own (recording is over): it is reaped in the
  // background when it ends, so it never lingers as a zombie.
  void releaseProgram();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string error_;
};

}  // namespace gapscope::gpu
