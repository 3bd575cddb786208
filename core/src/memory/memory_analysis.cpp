// analyzeMemory: the events read once, then per device the curve, the
// allocation pairs and the operators.
#include <algorithm>
#include <iterator>
#include <map>

#include "memory/memory_detail.h"

namespace gapscope::memory {

const char* allocatedBasisName(AllocatedBasis basis) {
  switch (basis) {
    case AllocatedBasis::Stated: return "stated";
    case AllocatedBasis::NetSinceStart: return "net_since_trace_start";
    case AllocatedBasis::Mixed: return "mixed";
  }
  return "stated";
}

std::string deviceLabel(std::int32_t device) {
  return device == kCpuDevice ? std::string("CPU") : "GPU " + std::to_string(device);
}

const DeviceMemory* MemoryAnalysis::device(std::int32_t id) const {
  for (const DeviceMemory& d : devices) {
    if (d.device == id) return &d;
  }
  return nullptr;
}

std::int64_t DeviceMemory::allocatedAt(TimeNs ts) const {
  const auto after = std::upper_bound(curve.begin(), curve.end(), ts,
                                      [](TimeNs t, const CurvePoint& p) { return t < p.ts; });
  return after == curve.begin() ? 0 : std::prev(after)->allocated;
}

std::vector<const Allocation*> liveAllocations(const MemoryAnalysis& memory, std::int32_t device, TimeNs ts) {
  std::vector<const Allocation*> live;
  for (const Allocation& a : memory.allocations) {
    if (a.allocTs > ts) break;  // by allocation time
    if (a.device == device && (!a.freeTs || *a.freeTs > ts)) live.push_back(&a);
  }
  return live;
}

MemoryAnalysis analyzeMemory(const Trace& trace, const MemoryOptions& options) {
  MemoryEvents read = readMemoryEvents(trace);
  if (options.range) {
    std::erase_if(read.events, [&](const MemoryEvent& e) { return !options.range->contains(e.ts); });
  }
  MemoryAnalysis out;
  out.events = read.events.size();
  out.unreadableEvents = read.unreadable;
  std::map<std::int32_t, std::vector<std::uint32_t>> ofDevice;  // ordered: the CPU (-1) first
  for (std::uint32_t i = 0; i < read.events.size(); ++i) ofDevice[read.events[i].device].push_back(i);
  for (const auto& [id, indices] : ofDevice) {
    DeviceMemory device;
    device.device = id;
    device.deviceType = read.events[indices.front()].deviceType;
    detail::addCurve(read.events, indices, device);
    detail::pairAllocations(read.events, indices, device, out.allocations);
    detail::addMemoryByOp(trace, read.events, indices, device);
    out.devices.push_back(std::move(device));
  }
  std::stable_sort(out.allocations.begin(), out.allocations.end(),
                   [](const Allocation& a, const Allocation& b) { return a.allocTs < b.allocTs; });
  return out;
}

}  // namespace gapscope::memory
