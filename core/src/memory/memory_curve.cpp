// The allocated and reserved curves of one device and their peaks, as the
// events state them.
#include "memory/memory_detail.h"

namespace gapscope::memory::detail {
namespace {

AllocatedBasis basisOf(std::uint64_t stated, std::uint64_t events) {
  if (stated == events) return AllocatedBasis::Stated;
  return stated == 0 ? AllocatedBasis::NetSinceStart : AllocatedBasis::Mixed;
}

void countBytes(const MemoryEvent& e, DeviceMemory& device) {
  if (e.bytes > 0) addTo(device.allocated, e.bytes);
  if (e.bytes < 0) addTo(device.freed, freedBytes(e));
}

}  // namespace

void addCurve(const std::vector<MemoryEvent>& events, const std::vector<std::uint32_t>& ofDevice,
              DeviceMemory& device) {
  std::uint64_t stated = 0;
  std::int64_t allocated = 0;
  std::optional<std::int64_t> reserved;
  device.curve.reserve(ofDevice.size());
  for (std::uint32_t i : ofDevice) {
    const MemoryEvent& e = events[i];
    countBytes(e, device);
    // Where an event does not state the total (before PyTorch 1.10), its
    // Bytes move the curve: the rises and falls are exact, the level is
    // relative to whatever was allocated when the trace began.
    allocated = e.totalAllocated ? *e.totalAllocated : addSaturating(allocated, e.bytes);
    stated += e.totalAllocated ? 1 : 0;
    if (e.totalReserved) reserved = e.totalReserved;
    device.curve.push_back({e.ts, allocated, reserved});
    // Strictly greater: the peak's time is the first event that reached it.
    if (device.curve.size() == 1 || allocated > device.peakAllocated) {
      device.peakAllocated = allocated;
      device.peakAllocatedTs = e.ts;
    }
    if (e.totalReserved && (!device.peakReserved || *e.totalReserved > *device.peakReserved)) {
      device.peakReserved = e.totalReserved;
      device.peakReservedTs = e.ts;
    }
  }
  device.events = ofDevice.size();
  device.basis = basisOf(stated, device.events);
}

}  // namespace gapscope::memory::detail
