// Launch-gap analysis: where the GPU sat idle, why, and what it cost.
//
// Busy time is the union of GPU activity (kernels, memcpys, memsets; never
// annotations or cuda_sync markers) per stream and per device, measured
// inside the active window (first start to last end of that stream's or
// device's activity). Every idle interval inside the window is a gap. A
// gap's cause is decided from the launch call of the GPU op that ends it,
// found through the correlation id, and from what the launching CPU thread
// was doing when the queue ran dry:
//   synchronization  the thread was blocked in a synchronising call (device,
//                    stream or event synchronize, a synchronous memcpy,
//                    Kineto's cuda_sync) when the gap began, or a queued op
//                    waited on a cudaStreamWaitEvent from another stream
//   launch_overhead  the launch call began after the gap began or was still
//                    running then: the GPU waited for the CPU
//   queued           the op was submitted before the gap began and started
//                    late anyway (GPU-side dependencies, a graph's own gaps)
//   other            no launch call could be found (no correlation id, or
//                    none in the trace for it)
// All times are integer nanoseconds; nothing is rounded. docs/gaps.md holds
// every definition, the defaults and a worked example.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/stage_observer.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

enum class GapCause : std::uint8_t { LaunchOverhead = 0, Synchronization, Queued, Other };
inline constexpr std::size_t kGapCauseCount = 4;
// "launch_overhead", "synchronization", "queued", "other" (the JSON keys).
const char* gapCauseName(GapCause cause);
// "launch overhead", "synchronisation", ... for text output.
const char* gapCauseLabel(GapCause cause);

// What a runtime/driver call does to the GPU queue, decided from its name
// ("_v2", "_ptsz", "_ptds" and "_vNNNNN" suffixes ignored).
enum class LaunchKind : std::uint8_t {
  None = 0,
  Kernel,        // cudaLaunchKernel, cudaLaunchKernelExC, cudaLaunchCooperativeKernel
  DriverKernel,  // cuLaunchKernel, cuLaunchKernelEx (Triton), cuLaunchCooperativeKernel
  Graph,         // cudaGraphLaunch, cuGraphLaunch: one call, many GPU ops
  Memcpy,        // cudaMemcpyAsync and friends, and the synchronous cudaMemcpy
  Memset,        // cudaMemsetAsync and friends, and cudaMemset
};
inline constexpr std::size_t kLaunchKindCount = 6;
const char* launchKindName(LaunchKind kind);
LaunchKind launchKindForName(std::string_view callName);
// Launches of kernels: runtime, driver and graph launches (not copies or sets).
constexpr bool isKernelLaunch(LaunchKind k) {
  return k == LaunchKind::Kernel || k == LaunchKind::DriverKernel || k == LaunchKind::Graph;
}

enum class SyncKind : std::uint8_t {
  None = 0,
  Device,           // cudaDeviceSynchronize, cuCtxSynchronize
  Stream,           // cudaStreamSynchronize, cuStreamSynchronize
  Event,            // cudaEventSynchronize, cuEventSynchronize
  Memcpy,           // synchronous cudaMemcpy and cuMemcpy forms (also launches)
  StreamWaitEvent,  // cudaStreamWaitEvent: blocks a stream, not the thread
};
SyncKind syncKindForName(std::string_view callName);
// CUDA memory management that blocks the calling thread and launches
// nothing: cudaMalloc, cudaFree, cudaMallocHost / cudaHostAlloc,
// cudaFreeHost, cuMemAlloc, cuMemFree and their variants (not the
// stream-ordered cudaMallocAsync / cudaFreeAsync). A launching thread busy
// in them idles the GPU as launch overhead does, but a CUDA graph does not
// remove it.
bool isMemoryManagementCall(std::string_view callName);

struct GapOptions {
  // Gaps shorter than this are counted in every idle total but not listed
  // in GapAnalysis::gaps and get no CPU-op attribution.
  TimeNs minGapNs = 1000;
  // HTA's consecutive_kernel_delay: a non-host-wait gap shorter than this is
  // "kernel wait" (HTA's default is 30 us).
  TimeNs htaKernelWaitNs = 30000;
  // A sync call that returned at most this long before the gap began still
  // counts as blocking when the queue drained: CPU and GPU clocks in a trace
  // disagree by a few microseconds.
  TimeNs syncSlackNs = 2000;
  // A launch call is an outlier when it took more than this many times the
  // median duration of calls with the same name, and at least outlierMinNs.
  double outlierFactor = 10.0;
  TimeNs outlierMinNs = 10000;
  // Utilisation at or above this is "GPU-bound" in the verdict.
  double busyVerdictThreshold = 0.8;
  // Attribute gaps to the CPU ops of the launching thread (Gap::cpuOps*,
  // GapAnalysis::overheadCpuOps). Off: totals, causes and verdict only.
  bool blameCpuOps = true;
  // Most CPU ops named per listed gap (largest self time first; 0: all).
  std::size_t maxCpuOpsPerGap = 8;
  // Per-step statistics (steps.h says what a step is).
  bool perStep = true;
  // Keep one LaunchInfo per launch call in GapAnalysis::launches.
  bool keepLaunches = true;
  // Threads the analysis' stages may use on traces of 131072 slices or
  // more (up to four run side by side once ops are bound to their calls;
  // the 10 GB trace on 16 cores: 3.2 s on 1, 1.6-2.0 s on 2, 1.3-1.6 s on
  // 4, no less on 8); the result is the same for any number.
  int threads = 2;
};

struct IdleByCause {
  std::array<TimeNs, kGapCauseCount> ns{};  // indexed by GapCause
  TimeNs& operator[](GapCause c) { return ns[static_cast<std::size_t>(c)]; }
  TimeNs operator[](GapCause c) const { return ns[static_cast<std::size_t>(c)]; }
  TimeNs total() const { return ns[0] + ns[1] + ns[2] + ns[3]; }
};

// HTA's idle-time breakdown (get_idle_time_breakdown), computed the way HTA
// does it but on exact nanoseconds and over every launch kind:
//   host_wait    the launch call of the op ending the gap started after the
//                gap began
//   kernel_wait  not host wait and the gap is shorter than htaKernelWaitNs
//   other        the rest
enum class HtaIdleKind : std::uint8_t { HostWait = 0, KernelWait, Other };
// "host_wait", "kernel_wait", "other".
const char* htaIdleKindName(HtaIdleKind kind);

struct HtaIdle {
  TimeNs hostWait = 0;
  TimeNs kernelWait = 0;
  TimeNs other = 0;
  TimeNs total() const { return hostWait + kernelWait + other; }
  TimeNs& operator[](HtaIdleKind k) {
    return k == HtaIdleKind::HostWait ? hostWait : k == HtaIdleKind::KernelWait ? kernelWait : other;
  }
};

// Busy/idle of one device (stream == -1) or one stream.
struct UtilizationStats {
  std::int32_t device = -1;
  std::int64_t stream = -1;  // -1 on device rows
  TimeNs activeStart = 0;    // first GPU activity
  TimeNs activeEnd = 0;      // last end of GPU activity
  TimeNs busyNs = 0;         // union of GPU activity inside the window
  IdleByCause idle;          // sums to activeNs() - busyNs
  HtaIdle hta;               // sums to activeNs() - busyNs as well
  std::uint64_t gpuOps = 0;
  std::uint64_t gapCount = 0;  // all gaps, listed or not
  TimeNs activeNs() const { return activeEnd - activeStart; }
  TimeNs idleNs() const { return activeNs() - busyNs; }
  double utilization() const { return busyShare(busyNs, activeNs()); }
};

// Self time of one CPU op name on the launching thread inside a gap.
// name kEmptyString with isUntraced: time covered by no slice at all.
struct CpuOpBlame {
  StringId name = kEmptyString;
  bool isUntraced = false;  // (kept beside `name`: 16 bytes a row, millions of rows)
  TimeNs selfNs = 0;
};

struct Gap {
  std::int32_t device = -1;
  std::int64_t stream = -1;  // -1: a device gap (no stream of the device busy)
  TimeNs start = 0;
  TimeNs dur = 0;
  GapCause cause = GapCause::Other;
  HtaIdleKind hta = HtaIdleKind::Other;  // where HTA's rule puts this gap
  std::uint32_t before = kNoIndex;  // slice index of the GPU op ending last before the gap
  std::uint32_t after = kNoIndex;   // slice index of the GPU op that ends the gap
  std::uint32_t launch = kNoIndex;  // slice index of `after`'s launch call
  std::uint32_t syncCall = kNoIndex;  // the blocking (or stream-wait) call, for Synchronization
  std::uint32_t launchTrack = kNoIndex;  // track of the launching thread
  // This gap's CPU ops: GapAnalysis::cpuOps[cpuOpsBegin, cpuOpsBegin + cpuOpsCount).
  // Gaps are many (millions in big traces), so they share one pool and the
  // one-sentence explanation is made on demand by explainGap().
  std::uint32_t cpuOpsBegin = 0;
  std::uint32_t cpuOpsCount = 0;
  TimeNs end() const { return start + dur; }
};

// One launch call that reached the GPU.
struct LaunchInfo {
  std::uint32_t call = kNoIndex;     // slice index of the runtime/driver call
  std::uint32_t firstOp = kNoIndex;  // earliest GPU op it launched
  std::uint32_t opCount = 0;         // GPU ops with its correlation (> 1 for graphs)
  LaunchKind kind = LaunchKind::None;
  bool shortKernel = false;  // GPU time of its ops below the call's duration
  bool outlier = false;      // see GapOptions::outlierFactor
  TimeNs launchNs = 0;       // the call's duration
  TimeNs queueNs = 0;        // firstOp start - call end (negative: started before the call returned)
  TimeNs gpuNs = 0;          // sum of its ops' durations
};

struct Distribution {
  std::uint64_t count = 0;
  TimeNs median = 0;  // lower median
  TimeNs p90 = 0;     // nearest rank
  TimeNs max = 0;
};
// The distribution of some durations (launch times, queue times, step times).
Distribution distributionOf(const std::vector<TimeNs>& values);

struct LaunchStats {
  std::uint64_t count = 0;      // launch calls matched to GPU ops
  std::uint64_t unmatched = 0;  // launch calls with no GPU op in the trace
  // Kernel launch calls (runtime, driver and graph launches), matched or not.
  std::uint64_t kernelLaunchCalls = 0;
  std::uint64_t shortKernels = 0;
  std::uint64_t outliers = 0;
  std::array<std::uint64_t, kLaunchKindCount> byKind{};  // indexed by LaunchKind
  Distribution launchNs;
  Distribution queueNs;
};

// What a step's GPU window is, in the words the outputs print.
inline constexpr const char* kStepWindowText =
    "from the step's start, or the end of the previous step's GPU work if later, or the step's own first GPU "
    "op if earlier still (never before the device's first GPU op), to the last end of the GPU work it launched";

// One step (steps.h: ProfilerStep#N, else a repeated top-level annotation):
// its CPU annotation and, per device, the busy/idle of its GPU window
// (kStepWindowText; gaps/steps.cpp says why). "Launched inside": the launch
// call began within the annotation's CPU range, on any thread (PyTorch's
// backward runs on a thread of its own).
struct StepStats {
  StringId name = kEmptyString;  // "ProfilerStep#N" or the repeated annotation's name
  std::int64_t number = -1;      // N of ProfilerStep#N; annotation steps: 1, 2, ... in time order
  std::uint32_t annotation = kNoIndex;  // slice index
  TimeNs cpuStart = 0;
  TimeNs cpuEnd = 0;
  std::vector<UtilizationStats> devices;  // only devices the step used
  // What the step launched, over all devices.
  std::uint64_t kernels = 0;
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  // Kernel launch calls (runtime, driver and graph launches) that began in
  // the step, whether or not their work is in the trace.
  std::uint64_t launches = 0;
  // The first of three or more steps, lasting over kWarmUpStepFactor times
  // the median of the others: CUDA's and the libraries' start-up,
  // torch.compile's compilation, autotuning (the first iteration of a
  // program profiled without a schedule). Listed with its figures, left out
  // of every total over the steps (totalsOverSteps): the verdict, a
  // comparison's per-step figures.
  bool warmUp = false;
  TimeNs cpuNs() const { return cpuEnd - cpuStart; }
};

// (Set by the gap analysis' per-step figures, gaps/steps.cpp.)
inline constexpr TimeNs kWarmUpStepFactor = 5;

// Busy, active and idle by cause summed over devices: the whole trace's
// (GapAnalysis::devices) or its steps' (every step's devices). The one sum
// behind the verdict, a comparison's run figures and the ranks table.
struct GpuTotals {
  TimeNs active = 0;
  TimeNs busy = 0;
  IdleByCause idle;
  void add(const UtilizationStats& d);
  void add(const GpuTotals& other);
  double busyShare() const { return analysis::busyShare(busy, active); }
};
GpuTotals totalsOf(const std::vector<UtilizationStats>& devices);
// Over the steps that are not a warm-up.
GpuTotals totalsOverSteps(const std::vector<StepStats>& steps);

// Per device, by device: the totals of `devices` (the whole trace's active
// windows), or with `steps` the totals of the steps' windows on each device.
struct DeviceTotals {
  std::int32_t device = -1;
  GpuTotals totals;
};
std::vector<DeviceTotals> deviceTotals(const std::vector<UtilizationStats>& devices,
                                       const std::vector<StepStats>* steps);
// " of the steps' GPU windows" or " of the active window".
const char* verdictWindowText(bool overSteps);

enum class VerdictKind : std::uint8_t {
  NoGpuActivity,
  GpuBound,
  LaunchOverheadBound,
  SynchronizationBound,
  QueueBound,
  UnexplainedIdle,
};
const char* verdictKindName(VerdictKind kind);

// Over the steps' GPU windows when the trace has steps with GPU work (what
// a training loop does, without its start-up: NCCL set-up, the first
// copies, warm-up before the profiler's steps), else over the whole
// trace's active window.
struct Verdict {
  VerdictKind kind = VerdictKind::NoGpuActivity;
  bool overSteps = false;
  double utilization = 0.0;  // busy / active over all devices (of the steps, when overSteps)
  // Upper bound of what removing launch overhead could save: the device-level
  // idle time caused by launch overhead (what CUDA graphs or fusion could win
  // at most).
  TimeNs estimatedSavingNs = 0;
  // e.g. "launch-overhead bound: 87% of the active window the GPU waited for the CPU"
  std::string line;
};

struct GapAnalysis {
  bool hasGpuActivity = false;
  std::string noGpuReason;  // set when !hasGpuActivity
  std::vector<UtilizationStats> devices;  // sorted by device
  std::vector<UtilizationStats> streams;  // sorted by (device, stream)
  // Listed gaps (dur >= minGapNs): first every device's own gaps (in
  // `devices` order), then every stream's (in `streams` order); each run in
  // time order.
  std::vector<Gap> gaps;
  std::uint64_t unlistedGaps = 0;  // gaps shorter than minGapNs
  std::vector<CpuOpBlame> cpuOps;  // pool behind Gap::cpuOpsBegin/cpuOpsCount
  // The CPU ops behind all device-level launch-overhead idle time (every
  // such gap, listed or not), by self time inside the gaps, largest first.
  std::vector<CpuOpBlame> overheadCpuOps;
  LaunchStats launchStats;
  std::vector<LaunchInfo> launches;  // in call order; empty unless keepLaunches
  std::vector<StepStats> steps;      // in step order; empty when stepSource is WholeTrace
  StepSource stepSource = StepSource::WholeTrace;
  StringId stepName = kEmptyString;  // the repeated annotation (StepSource::RepeatedAnnotation)
  TimeNs traceSpanNs = 0;  // the trace's time span (Trace::minTime to maxTime)
  Verdict verdict;
  // Other notes worth a line in the output (e.g. GPU ops without a launch).
  std::vector<std::string> notes;
};

// Per device, over what the analysis' verdict speaks of (Verdict::overSteps):
// the report's rules measure over the same.
std::vector<DeviceTotals> verdictDeviceTotals(const GapAnalysis& analysis);

// `busy` is the trace's GPU busy time (computeGpuBusy); the first form
// computes it first.
GapAnalysis analyzeGaps(const Trace& trace, const GapOptions& options = {});
// `observer`, when given, hears how long each stage of the analysis took.
GapAnalysis analyzeGaps(const Trace& trace, const GpuBusy& busy, const GapOptions& options = {},
                        StageObserver* observer = nullptr);

// The CPU ops of one listed gap, largest self time first.
inline std::vector<CpuOpBlame> cpuOpsOf(const GapAnalysis& analysis, const Gap& gap) {
  auto first = analysis.cpuOps.begin() + gap.cpuOpsBegin;
  return {first, first + gap.cpuOpsCount};
}

// One sentence saying why the gap got its cause, e.g. "cudaLaunchKernel
// began 12.3 us after the GPU went idle". Needs the trace the gap came from.
std::string explainGap(const Trace& trace, const Gap& gap);

// Self time of the slices of CPU track `track` inside [start, end), by name,
// largest first, plus the untraced rest; at most `maxOps` entries (0: all).
std::vector<CpuOpBlame> cpuSelfTimeIn(const Trace& trace, std::uint32_t track, TimeNs start,
                                      TimeNs end, std::size_t maxOps = 0);

// What `gapscope-cli summary` and the app's status line show.
struct GapSummary {
  bool hasGpuActivity = false;
  bool overSteps = false;    // the verdict's: utilization is over the steps' GPU windows
  double utilization = 0.0;  // over all devices
  std::vector<std::pair<std::int32_t, double>> deviceUtilization;  // (device, 0..1)
  TimeNs estimatedSavingNs = 0;
  std::string verdict;  // the one-line verdict
  // The steps (steps.h): how many, found how, and the median CPU length of
  // those not a warm-up (the lower median; 0 without steps); the warm-up
  // step's length, 0 when there is none.
  std::size_t steps = 0;
  StepSource stepSource = StepSource::WholeTrace;
  StringId stepName = kEmptyString;  // the repeated annotation (StepSource::RepeatedAnnotation)
  TimeNs medianStepNs = 0;
  TimeNs warmUpStepNs = 0;
};
GapSummary summarizeGaps(const Trace& trace, const GpuBusy& busy, const GapOptions& options = {});
GapSummary summarizeGaps(const GapAnalysis& analysis);

}  // namespace gapscope::analysis
