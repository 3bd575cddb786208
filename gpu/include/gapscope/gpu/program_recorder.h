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
  std::uint64_t records = 0;        // received
  std::uint64_t cuptiDropped = 0;   // lost inside the process: CUPTI's buffer pool was empty
  std::uint64_t channelDropped = 0; // lost inside the process: the channel to the recorder was full
  std::uint64_t outsideCapture = 0; // received, but outside the capture window or range
  bool cleanEnd = false;            // said goodbye after its final flush
  std::string error;                // its byte stream was malformed (what came before is kept)
};

enum class StopReason : std::uint8_t { ProgramEnded, Duration, Interrupted };

struct ProgramRecordingResult {
  RecordSet records;  // merged (mergeProcesses), filtered to the capture windows
  std::vector<RecordedProcess> processes;
  std::vector<std::string> warnings;
  StopReason stopReason = StopReason::ProgramEnded;
};

// The user asked the recorder to stop (Ctrl-C). Written from a signal
// handler, read by the recording loop.
struct StopRequest {
  std::atomic<int> count{0};    // how many times
  // A signal to pass on to the program: set when the recorder alone got it
  // (`kill -INT` of the recorder); 0 when the program got its own (Ctrl-C at
  // a terminal reaches the whole foreground process group).
  std::atomic<int> forward{0};
};

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
  ProgramRecordingResult collect(const StopRequest* stop);

  // Waits for CMD to end (sending SIGTERM first with killOnStop when it is
  // still running; SIGKILL when the user asks to stop again). Returns its
  // exit status as a shell gives it: the code, or 128 + the signal.
  int waitForExit(const StopRequest* stop);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string error_;
};

}  // namespace gapscope::gpu
