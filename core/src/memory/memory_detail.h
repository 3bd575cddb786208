// The steps of analyzeMemory (memory.h), each over the events of one
// device: `ofDevice` holds their indices into `events`, in time order.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gapscope/memory/memory.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::memory::detail {

// Byte sums saturate like time totals: a hostile file cannot overflow them.
inline void addTo(ByteCount& sum, std::int64_t bytes) {
  ++sum.count;
  sum.bytes = addSaturating(sum.bytes, bytes);
}
// The size a free gives back, as a positive number.
inline std::int64_t freedBytes(const MemoryEvent& e) {
  return e.bytes == std::numeric_limits<std::int64_t>::min() ? std::numeric_limits<std::int64_t>::max() : -e.bytes;
}

// The innermost cpu_op slice on `track` whose [start, end] holds `ts`
// (end included: old traces round both to whole microseconds); kNoIndex
// when none.
std::uint32_t innermostCpuOpAt(const Trace& trace, std::uint32_t track, TimeNs ts);
// The nearest cpu_op among the ancestors of `slice`; kNoIndex when none.
std::uint32_t enclosingCpuOp(const Trace& trace, std::uint32_t slice);

// Counts, the allocated and reserved curves and their peaks.
void addCurve(const std::vector<MemoryEvent>& events, const std::vector<std::uint32_t>& ofDevice,
              DeviceMemory& device);

// Pairs allocations with frees by address; appends the device's
// allocations (by allocation time) and fills the never-freed figures.
void pairAllocations(const std::vector<MemoryEvent>& events, const std::vector<std::uint32_t>& ofDevice,
                     DeviceMemory& device, std::vector<Allocation>& allocations);

// Bytes per operator and the largest increment of one call.
void addMemoryByOp(const Trace& trace, const std::vector<MemoryEvent>& events,
                   const std::vector<std::uint32_t>& ofDevice, DeviceMemory& device);

}  // namespace gapscope::memory::detail
