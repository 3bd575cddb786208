// The seam between CUPTI and the trace model: plain record structs that the
// CUPTI layer fills from activity buffers (and tests fabricate by hand), and
// the conversion that turns them into a Trace through TraceBuilder. Nothing
// here needs CUDA, so the conversion is tested on machines without a GPU.
//
// All times are nanoseconds on CUPTI's clock (cuptiGetTimestamp); host ranges
// are taken on the same clock so they line up with the GPU records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::gpu {

// CUPTI's "no stream / not applicable" value for 32-bit ids.
inline constexpr std::uint32_t kNoStream = 0xffffffffu;

struct DeviceInfo {
  std::int32_t id = 0;
  std::string name;
  std::int32_t computeMajor = 0;
  std::int32_t computeMinor = 0;
  std::int32_t numSms = 0;
  std::int32_t warpSize = 32;
  std::int32_t maxThreadsPerBlock = 0;
  std::int32_t maxThreadsPerMultiprocessor = 0;
  std::int32_t maxBlocksPerMultiprocessor = 0;
  std::int32_t regsPerBlock = 0;
  std::int32_t regsPerMultiprocessor = 0;
  std::int64_t sharedMemPerBlock = 0;
  std::int64_t sharedMemPerBlockOptin = 0;
  std::int64_t sharedMemPerMultiprocessor = 0;
  std::int64_t reservedSharedMemPerBlock = 0;  // the runtime's own, per resident block
  std::int64_t totalGlobalMem = 0;
  std::int64_t l2CacheSize = 0;
};

enum class ApiDomain : std::uint8_t { Runtime, Driver };

// One CUDA runtime or driver API call on a host thread.
struct ApiCallRecord {
  ApiDomain domain = ApiDomain::Runtime;
  std::string name;  // e.g. "cudaLaunchKernel", "cuLaunchKernelEx"
  std::uint32_t cbid = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t processId = 0;
  std::uint32_t threadId = 0;
  // 0: none. CUPTI's ids are 32-bit and unique within a process; merging
  // processes puts each one's ids in a range of its own (mergeProcesses).
  std::uint64_t correlationId = 0;
  std::int32_t returnValue = 0;
};

// Where and when a GPU activity ran: what kernel, memcpy and memset records share.
struct GpuActivityRecord {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t deviceId = 0;
  std::uint32_t contextId = 0;
  std::uint32_t streamId = 0;
  std::uint64_t correlationId = 0;
};

struct KernelRecord : GpuActivityRecord {
  std::string name;  // demangled
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registersPerThread = 0;
  std::int32_t staticSharedMemory = 0;   // bytes per block
  std::int32_t dynamicSharedMemory = 0;  // bytes per block
  std::uint32_t graphId = 0;             // non-zero when launched from a CUDA graph
  std::uint64_t graphNodeId = 0;
};

enum class CopyKind : std::uint8_t { Unknown, HtoD, DtoH, HtoA, AtoH, AtoA, AtoD, DtoA, DtoD, HtoH, PtoP };
enum class MemoryKind : std::uint8_t { Unknown, Pageable, Pinned, Device, Array, Managed, DeviceStatic, ManagedStatic };

struct MemcpyRecord : GpuActivityRecord {
  std::uint64_t bytes = 0;
  CopyKind copyKind = CopyKind::Unknown;
  MemoryKind srcKind = MemoryKind::Unknown;
  MemoryKind dstKind = MemoryKind::Unknown;
  std::uint32_t graphId = 0;
};

struct MemsetRecord : GpuActivityRecord {
  std::uint64_t bytes = 0;
  std::uint32_t value = 0;
  MemoryKind memoryKind = MemoryKind::Unknown;
  std::uint32_t graphId = 0;
};

enum class SyncKind : std::uint8_t { Unknown, EventSynchronize, StreamWaitEvent, StreamSynchronize, ContextSynchronize };

// A host thread blocked in a CUDA synchronisation (CUPTI SYNCHRONIZATION).
struct SyncRecord {
  SyncKind kind = SyncKind::Unknown;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t correlationId = 0;  // of the API call that synchronised
  std::uint32_t contextId = 0;
  std::uint32_t deviceId = 0;       // resolved from the context by the CUPTI layer
  std::uint32_t streamId = kNoStream;
  std::uint32_t eventId = 0;
};

// Time CUPTI itself spent (buffer flushes, instrumentation, ...).
struct OverheadRecord {
  std::string name;  // e.g. "CUPTI buffer flush"
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t threadId = 0;  // 0 when not a host thread
};

// Step: "ProfilerStep#N" (user_annotation); Op: one logical operation or a
// PyTorch operator (cpu_op); Annotation: any other named range, e.g. an NVTX
// range of the recorded program (user_annotation).
enum class HostRangeKind : std::uint8_t { Step, Op, Annotation };

// A host-side range: one the workload marks, or an NVTX range of a recorded
// program.
struct HostRange {
  HostRangeKind kind = HostRangeKind::Op;
  std::string name;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t threadId = 0;
  std::uint32_t processId = 0;  // 0: RecordSet::processId
};

// A process's place in a distributed job: the RANK, WORLD_SIZE and
// LOCAL_RANK its environment had (torchrun sets them for each rank); -1 where
// unset. A trace of that process alone carries it as its distributedInfo.
struct DistributedRank {
  std::int32_t rank = -1;
  std::int32_t worldSize = -1;
  std::int32_t localRank = -1;
  bool known() const { return rank >= 0 || worldSize >= 0 || localRank >= 0; }
};

// A process whose records a RecordSet holds, besides RecordSet::processId.
struct ProcessInfo {
  std::uint32_t processId = 0;
  std::string name;         // e.g. "python3"
  std::string commandLine;  // what it ran, for the trace's metadata
  DistributedRank distributed;
};

struct RecordSet {
  std::uint32_t processId = 0;
  std::string processName;  // e.g. "gapscope-cli"
  // Every process of a recorded program (merged by mergeProcesses); records
  // name theirs by processId. Empty for a bundled workload.
  std::vector<ProcessInfo> processes;
  std::vector<DeviceInfo> devices;
  std::vector<ApiCallRecord> apiCalls;
  std::vector<KernelRecord> kernels;
  std::vector<MemcpyRecord> memcpys;
  std::vector<MemsetRecord> memsets;
  std::vector<SyncRecord> syncs;
  std::vector<OverheadRecord> overheads;
  std::vector<HostRange> ranges;
  // Wall-clock time (ns since the Unix epoch) of CUPTI timestamp `clockAnchor`,
  // so the trace's baseTimeNanoseconds is a real date. 0: unknown.
  std::int64_t wallClockAtAnchor = 0;
  std::uint64_t clockAnchor = 0;
  // The trace's baseTimeNanoseconds is the whole second at or before this
  // wall-clock time; 0: before the first record. Traces of one recording
  // share one (shareTimeBase), so an instant has the same `ts` in each.
  std::int64_t baseWallClock = 0;
  std::int32_t cudaDriverVersion = 0;
  std::int32_t cudaRuntimeVersion = 0;
  std::int32_t cuptiVersion = 0;
  std::uint64_t droppedRecords = 0;
  // The trace's distributedInfo, when it holds one process of a distributed
  // job (`record -o DIR/`); a merged recording of several has none.
  DistributedRank distributed;
  // What the recorder has to say about the recording (a process that ended
  // early, records dropped on the way): import issues of the trace, written
  // into the file too (gapscope/io/recording_issues.h).
  std::vector<ImportIssue> issues;
  // What ran, written into the trace's metadata: a recorded program's
  // command line, or a bundled workload and its settings.
  std::string command;
  std::string workload;
  std::string variant;
  std::int32_t size = 0;
  std::int32_t steps = 0;
};

struct OccupancyEstimate {
  float blocksPerSm = -1.f;
  float warpsPerSm = -1.f;
  float occupancyPct = -1.f;  // est. achieved occupancy, -1 when unknown
  std::int32_t theoreticalBlocksPerSm = -1;
};

// Kineto's estimate: the warps the grid puts on each SM, capped by what the
// registers, shared memory and thread limits let one SM hold, as a
// percentage of the SM's maximum warps.
OccupancyEstimate estimateOccupancy(const DeviceInfo& device, const KernelRecord& kernel);

// Builds the trace model from records: one CPU lane per host thread (step and
// op ranges with API calls nested inside), one GPU lane per device and
// stream, launch -> GPU op flows from correlation ids, kernel launch
// configurations, deviceProperties. Records may come in any order.
Trace convertToTrace(const RecordSet& records);

// Wall-clock time (ns since the Unix epoch) of the earliest record; 0 when
// the wall clock is unknown or there is no record.
std::int64_t firstRecordWallClock(const RecordSet& records);

// Names as Kineto writes them, e.g. "Memcpy HtoD (Pageable -> Device)".
std::string memcpyName(const MemcpyRecord& m);
std::string memsetName(const MemsetRecord& m);
const char* syncKindName(SyncKind k);

}  // namespace gapscope::gpu
