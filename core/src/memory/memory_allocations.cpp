// Allocations paired with their frees by address, per device; what was
// never freed and what was freed without having been allocated in the trace.
#include <unordered_map>

#include "memory/memory_detail.h"

namespace gapscope::memory::detail {

void pairAllocations(const std::vector<MemoryEvent>& events, const std::vector<std::uint32_t>& ofDevice,
                     DeviceMemory& device, std::vector<Allocation>& allocations) {
  const std::size_t first = allocations.size();
  std::unordered_map<std::uint64_t, std::size_t> live;  // address -> index into allocations
  for (std::uint32_t i : ofDevice) {
    const MemoryEvent& e = events[i];
    if (e.bytes == 0) continue;
    if (!e.addr) {
      ++device.withoutAddress;
      continue;
    }
    if (e.bytes > 0) {
      // An address allocated again without a free in between: the earlier
      // allocation keeps no free (the events state none) and stays counted.
      live[*e.addr] = allocations.size();
      allocations.push_back({device.device, *e.addr, e.bytes, e.ts, std::nullopt, e.op, kNoIndex});
      continue;
    }
    auto it = live.find(*e.addr);
    if (it == live.end()) {
      // Allocated before the trace began: its size is not ours to subtract.
      addTo(device.unmatchedFrees, freedBytes(e));
      continue;
    }
    Allocation& a = allocations[it->second];
    a.freeTs = e.ts;
    a.freeOp = e.op;
    live.erase(it);
  }
  for (std::size_t a = first; a < allocations.size(); ++a) {
    if (!allocations[a].freeTs) addTo(device.neverFreed, allocations[a].bytes);
  }
}

}  // namespace gapscope::memory::detail
