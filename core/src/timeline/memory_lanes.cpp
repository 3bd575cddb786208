// Memory lanes: each device's memory curve as two counters, in the group
// of that device's lanes.
#include <algorithm>
#include <string>

#include "gapscope/format/number.h"
#include "gapscope/timeline/layout.h"

namespace gapscope::timeline {
namespace {

MemoryLane memoryLaneOf(const memory::DeviceMemory& d) {
  MemoryLane lane;
  lane.device = d.device;
  lane.peakAllocated = d.peakAllocated;
  lane.peakAllocatedTs = d.peakAllocatedTs;
  for (const memory::CurvePoint& p : d.curve) {
    lane.allocated.ts.push_back(p.ts);
    lane.allocated.values.push_back(static_cast<double>(p.allocated));
    if (!p.reserved) continue;
    lane.reserved.ts.push_back(p.ts);
    lane.reserved.values.push_back(static_cast<double>(*p.reserved));
  }
  return lane;
}

// "87.1–116.0 MiB" (one unit written once: the names column is narrow), "0 B–2.6 GiB".
std::string scaleText(std::int64_t low, std::int64_t high) {
  const std::string a = format::formatBytes(low);
  const std::string b = format::formatBytes(high);
  const std::size_t ua = a.rfind(' ');
  const std::size_t ub = b.rfind(' ');
  if (ua != std::string::npos && ub != std::string::npos && a.substr(ua) == b.substr(ub)) {
    return a.substr(0, ua) + "\u2013" + b;
  }
  return a + "\u2013" + b;
}

}  // namespace

void TimelineLayout::addMemoryLanes(const memory::MemoryAnalysis& memory) {
  for (const memory::DeviceMemory& d : memory.devices) {
    if (d.curve.empty()) continue;
    const auto laneIndex = static_cast<std::uint32_t>(lanes_.size());
    Lane lane;
    lane.kind = LaneKind::Memory;
    lane.memory = static_cast<std::uint32_t>(memoryLanes_.size());
    memoryLanes_.push_back(memoryLaneOf(d));
    const MemoryLane& m = memoryLanes_.back();
    const auto& top = m.reserved.values.empty() ? m.allocated.values : m.reserved.values;
    // From the lowest allocated value, not 0: the changes are what a reader
    // looks for, and a model's weights would flatten them to a sliver. The
    // name says where the scale starts and ends.
    lane.counterMin = *std::min_element(m.allocated.values.begin(), m.allocated.values.end());
    lane.counterMax = std::max(static_cast<double>(m.peakAllocated), *std::max_element(top.begin(), top.end()));
    // "scale": its top is reserved memory where that was recorded, above
    // the allocated peak the lane marks (116.0 MiB beside "peak 96.6 MiB").
    lane.name = "Memory scale " + scaleText(static_cast<std::int64_t>(lane.counterMin),
                                            static_cast<std::int64_t>(lane.counterMax));
    // The group of the device's own lanes.
    lane.group = kNoIndex;
    for (std::uint32_t g = 0; g < groups_.size() && lane.group == kNoIndex; ++g) {
      const bool cpuMatch = d.device == memory::kCpuDevice && groups_[g].kind == GroupKind::Cpu;
      const bool gpuMatch = groups_[g].kind == GroupKind::Gpu && groups_[g].device == d.device;
      if (cpuMatch || gpuMatch) lane.group = g;
    }
    if (lane.group == kNoIndex) {
      Group group;
      group.kind = d.device == memory::kCpuDevice ? GroupKind::Cpu : GroupKind::Gpu;
      group.name = memory::deviceLabel(d.device) + " memory";
      lane.group = static_cast<std::uint32_t>(groups_.size());
      groups_.push_back(std::move(group));
    }
    lane.firstRow = static_cast<std::uint32_t>(rows_.size());
    lane.rowCount = 1;
    LayoutRow row;
    row.lane = laneIndex;
    rows_.push_back(std::move(row));
    groups_[lane.group].lanes.push_back(laneIndex);
    lanes_.push_back(std::move(lane));
  }
}

}  // namespace gapscope::timeline
