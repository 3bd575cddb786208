// One-call live recording: run a bundled workload under CUPTI and get the
// same trace model a Chrome trace file gives. Qt-free; the desktop app calls
// this from a worker thread, the CLI from its main thread.
//
// The CUDA side (CUPTI, cuBLAS, the workload kernels) lives in a separate
// module that is loaded on first use, so gapscope starts and runs on machines
// without CUDA; recordingAvailability() says why recording is off there.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/gpu/records.h"
#include "gapscope/model/trace.h"

namespace gapscope::gpu {

enum class Unavailable : std::uint8_t {
  None = 0,             // recording is possible
  BuiltWithoutCuda,     // this gapscope was built without the CUDA toolkit
  BackendMissing,       // the CUDA module or its libraries (libcupti, libcublas, ...) failed to load
  NoDriver,             // no NVIDIA driver (libcuda) or it is too old for this build
  NoDevice,             // a driver, but no CUDA device
  InsufficientPrivileges,  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (profiling restricted to admins)
  CuptiFailed,          // any other CUPTI failure while probing
};

struct Availability {
  bool available = false;
  Unavailable why = Unavailable::BuiltWithoutCuda;
  // Empty when available. Otherwise one sentence for a tooltip or stderr,
  // naming the cause and, where there is one, the fix.
  std::string reason;
  std::string deviceName;  // device 0 when available, e.g. "NVIDIA H200"
};

// Probes once (loads the CUDA module, counts devices, tries to enable a CUPTI
// activity kind) and caches the answer; cheap to call again. Thread-safe.
// Never throws.
Availability recordingAvailability();

// The CUDA devices this process sees, described as the recorder describes
// them (records.h); empty where recording is unavailable. A recorded
// program's records name devices by these ordinals (unless it changes
// CUDA_VISIBLE_DEVICES for itself).
std::vector<DeviceInfo> localDevices();

struct RecordOptions {
  std::string workload;  // a name from workloads()
  std::string variant;   // empty: the workload's default variant
  int size = 0;          // 0: the workload's default size
  int steps = 0;         // recorded steps; 0: the workload's default
  int warmupSteps = -1;  // -1: the workload's default
  int device = 0;        // CUDA device ordinal
  // false: run the workload without CUPTI (step times only, no trace), for
  // measuring what recording costs.
  bool trace = true;
  // Synchronise with the GPU at the end of every step, as a training loop
  // with torch.cuda.synchronize() (or a loss.item()) per step does. Off by
  // default: the host runs ahead and only the last step is waited for.
  bool syncEachStep = false;
  // Also compare the results against a CPU reference (slow at large sizes;
  // the error message names the first mismatch).
  bool check = false;
  // Upper bound on CUPTI activity buffers. When the pool is exhausted CUPTI
  // drops records; the result then carries a warning and the dropped count.
  std::size_t bufferPoolBytes = std::size_t{256} << 20;
};

struct RecordProgress {
  enum class Stage : std::uint8_t { Starting, WarmingUp, Recording, Flushing, Converting, Done };
  Stage stage = Stage::Starting;
  int step = 0;   // current step (1-based) in WarmingUp / Recording
  int steps = 0;  // total steps of that stage
};
const char* stageName(RecordProgress::Stage s);

// Called on the recording thread; keep it short (post to the GUI thread).
using ProgressCallback = std::function<void(const RecordProgress&)>;

struct RecordStats {
  int steps = 0;
  // Host wall time of each recorded step (launch time only, unless
  // syncEachStep), and of all of them through the final synchronisation:
  // wallNs / steps is the time per step.
  std::vector<std::int64_t> stepWallNs;
  std::int64_t wallNs = 0;
  std::uint64_t kernels = 0;
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  std::uint64_t apiCalls = 0;
  std::uint64_t droppedRecords = 0;  // CUPTI records lost (pool exhausted)
  std::size_t bufferBytesUsed = 0;   // peak bytes of activity buffers in use
  bool checked = false;              // the CPU reference check ran and passed
};

struct RecordResult {
  std::optional<Trace> trace;  // present on success (options.trace)
  // Empty on success. Otherwise one line: what failed, and for a CUDA/CUPTI
  // failure the call that failed and its result string.
  std::string error;
  bool cancelled = false;
  std::vector<std::string> warnings;  // e.g. records dropped
  RecordStats stats;

  bool ok() const { return error.empty() && !cancelled; }
};

// Runs the workload (warm-up steps, then recorded steps) and returns the
// trace. Blocks until done; never throws for runtime failures (bad options,
// no GPU, CUDA errors): they land in `error`. `cancel` is polled between
// steps. Only one recording runs at a time per process; a second concurrent
// call fails with an error saying so.
RecordResult record(const RecordOptions& options, const ProgressCallback& progress = {},
                    const std::atomic<bool>* cancel = nullptr);

}  // namespace gapscope::gpu
