// Memory of a trace recorded with profile_memory=True: the "[memory]"
// instants PyTorch writes for every allocation and free, read back into
// curves, peaks, an allocation table and memory per operator.
// docs/memory.md has every definition; in short:
//
//   event       one "[memory]" instant: Bytes (> 0 allocated, < 0 freed),
//               Device Id (-1: CPU memory), and, from PyTorch 1.10 on, Addr,
//               Total Allocated and Total Reserved
//   allocated   per device, after each event in time order: its Total
//               Allocated when it states one, else the previous value plus
//               its Bytes (older traces: the net change since the trace began)
//   peak        the largest allocated (reserved) value of the curve, and the
//               time of the first event that reached it
//   allocation  an allocation event paired with the next free of the same
//               address on the same device; never freed: no such free
//   operator    the innermost cpu_op on the event's thread whose
//               [start, end] holds the event's time
//   increment   of one operator call on one device: the largest rise of the
//               running sum of Bytes over the events inside the call (nested
//               calls included), 0 when it only freed
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::memory {

inline constexpr std::int32_t kCpuDevice = -1;
// The name under which events outside any cpu_op are counted.
inline constexpr const char* kNoOperatorName = "[no operator]";

// One "[memory]" instant with its args read.
struct MemoryEvent {
  TimeNs ts = 0;
  std::int64_t bytes = 0;
  std::optional<std::uint64_t> addr;
  std::optional<std::int64_t> totalAllocated;
  std::optional<std::int64_t> totalReserved;
  std::int32_t device = kCpuDevice;
  std::int32_t deviceType = -1;  // as written (0 CPU, 1 CUDA); -1 when absent
  std::uint32_t track = kNoIndex;
  std::uint32_t op = kNoIndex;  // slice index of the operator (see above)
};

struct MemoryEvents {
  std::vector<MemoryEvent> events;  // in time order (Trace::instants' order)
  // "[memory]" instants whose args have no integer Bytes or Device Id.
  std::uint64_t unreadable = 0;
};

// Every "[memory]" instant of the trace, args fetched and parsed once.
MemoryEvents readMemoryEvents(const Trace& trace);

struct CurvePoint {
  TimeNs ts = 0;
  std::int64_t allocated = 0;
  std::optional<std::int64_t> reserved;  // the last stated Total Reserved
};

enum class AllocatedBasis : std::uint8_t {
  Stated,         // every event states Total Allocated
  NetSinceStart,  // none does: the curve starts at 0 with the trace
  Mixed,          // some do
};
// "stated", "net_since_trace_start", "mixed" (the JSON values).
const char* allocatedBasisName(AllocatedBasis basis);

// A sum of sizes and how many made it.
struct ByteCount {
  std::uint64_t count = 0;
  std::int64_t bytes = 0;
};

struct Allocation {
  std::int32_t device = kCpuDevice;
  std::uint64_t addr = 0;
  std::int64_t bytes = 0;
  TimeNs allocTs = 0;
  std::optional<TimeNs> freeTs;      // none: never freed within the trace
  std::uint32_t allocOp = kNoIndex;  // slice indices of the operators
  std::uint32_t freeOp = kNoIndex;
  std::optional<TimeNs> lifetime() const { return freeTs ? std::optional<TimeNs>(*freeTs - allocTs) : std::nullopt; }
};

// One operator name on one device.
struct OpMemory {
  std::string name;  // kNoOperatorName for events outside any cpu_op
  std::int32_t device = kCpuDevice;
  ByteCount allocated;  // events whose innermost operator this is
  ByteCount freed;
  std::int64_t peakIncrement = 0;  // the largest increment of one of its calls
};

struct DeviceMemory {
  std::int32_t device = kCpuDevice;
  std::int32_t deviceType = -1;  // of its first event
  std::uint64_t events = 0;
  ByteCount allocated;  // events with Bytes > 0
  ByteCount freed;      // events with Bytes < 0, sizes as positive numbers
  AllocatedBasis basis = AllocatedBasis::Stated;
  std::vector<CurvePoint> curve;  // one point per event
  std::int64_t peakAllocated = 0;
  TimeNs peakAllocatedTs = 0;
  std::optional<std::int64_t> peakReserved;  // none: no event states it
  TimeNs peakReservedTs = 0;
  // Allocations and frees without an Addr: they cannot be paired, so the
  // two figures below count only the others, and are complete only when
  // this is 0 (allAddressed).
  std::uint64_t withoutAddress = 0;
  ByteCount neverFreed;      // allocations with no later free of their address
  ByteCount unmatchedFrees;  // frees of addresses not allocated in the trace
  std::vector<OpMemory> byOp;  // most bytes allocated first
  bool allAddressed() const { return withoutAddress == 0; }
  std::int64_t finalAllocated() const { return curve.empty() ? 0 : curve.back().allocated; }
  // The allocated curve's value at `ts` (0 before its first event).
  std::int64_t allocatedAt(TimeNs ts) const;
};

struct MemoryAnalysis {
  std::vector<DeviceMemory> devices;    // by device id, the CPU (-1) first
  std::vector<Allocation> allocations;  // by allocation time
  std::uint64_t events = 0;             // readable "[memory]" instants
  std::uint64_t unreadableEvents = 0;
  bool empty() const { return events == 0 && unreadableEvents == 0; }
  const DeviceMemory* device(std::int32_t id) const;
};

struct MemoryOptions {
  // When set, the analysis of the events inside the range only, as if the
  // trace held no others: counts, curves and peaks over the range (a curve
  // of basis net_since_trace_start then starts at 0 with the range), an
  // allocation freed after the range is never freed within it, a free of
  // one allocated before is unmatched.
  std::optional<TimeRange> range;
};

MemoryAnalysis analyzeMemory(const Trace& trace, const MemoryOptions& options = {});

// The allocations of `device` live at `ts`: allocated at or before it and
// not freed by then (never freed, or freed after it), by allocation time.
std::vector<const Allocation*> liveAllocations(const MemoryAnalysis& memory, std::int32_t device, TimeNs ts);

// "CPU" for -1, "GPU N" otherwise.
std::string deviceLabel(std::int32_t device);

}  // namespace gapscope::memory
