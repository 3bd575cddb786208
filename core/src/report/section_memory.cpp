// The memory tables: per device peaks and counts, memory per operator, the
// allocations, and what holds memory at the peak by operator.
#include <algorithm>
#include <cstdio>
#include <map>

#include "report/report_build.h"

namespace gapscope::report {
namespace {

Cell bytesCell(std::int64_t bytes) { return Cell{bytes}; }

std::string operatorName(const Trace& trace, std::uint32_t op) {
  return op == kNoIndex ? std::string(memory::kNoOperatorName) : std::string(trace.str(trace.slices[op].name));
}

std::string hexAddress(std::uint64_t addr) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(addr));
  return text;
}

}  // namespace

Table memoryDevicesTable(const memory::MemoryAnalysis& memory, TimeNs origin) {
  Table t = makeTable("memory_devices", "Memory by device",
                      {{"device", "Device", ColumnKind::Text},
                       {"peak_allocated_bytes", "Peak allocated", ColumnKind::Bytes},
                       {"peak_allocated_at_us", "Peak at", ColumnKind::Duration},
                       {"peak_reserved_bytes", "Peak reserved", ColumnKind::Bytes},
                       {"events", "Events", ColumnKind::Integer},
                       {"allocated_bytes", "Allocated", ColumnKind::Bytes},
                       {"freed_bytes", "Freed", ColumnKind::Bytes},
                       {"never_freed", "Never freed", ColumnKind::Integer},
                       {"never_freed_bytes", "Never freed bytes", ColumnKind::Bytes}});
  for (const memory::DeviceMemory& d : memory.devices) {
    t.rows.push_back({textCell(memory::deviceLabel(d.device)), bytesCell(d.peakAllocated),
                      durationCell(d.peakAllocatedTs - origin),
                      d.peakReserved ? bytesCell(*d.peakReserved) : noCell(), intCell(static_cast<std::int64_t>(d.events)),
                      bytesCell(d.allocated.bytes), bytesCell(d.freed.bytes),
                      intCell(static_cast<std::int64_t>(d.neverFreed.count)), bytesCell(d.neverFreed.bytes)});
  }
  t.totalRows = t.rows.size();
  if (memory.empty()) t.note = "No \"[memory]\" events: record with profile_memory=True to see memory.";
  return t;
}

Table memoryByOpTable(const memory::DeviceMemory& device) {
  Table t = makeTable("memory_by_op", "Memory by operator",
                      {{"name", "Operator", ColumnKind::Text},
                       {"alloc_bytes", "Allocated", ColumnKind::Bytes},
                       {"allocs", "Allocations", ColumnKind::Integer},
                       {"freed_bytes", "Freed", ColumnKind::Bytes},
                       {"frees", "Frees", ColumnKind::Integer},
                       {"peak_increment_bytes", "Peak increment", ColumnKind::Bytes}});
  for (const memory::OpMemory& o : device.byOp) {
    t.rows.push_back({textCell(o.name), bytesCell(o.allocated.bytes), intCell(static_cast<std::int64_t>(o.allocated.count)),
                      bytesCell(o.freed.bytes), intCell(static_cast<std::int64_t>(o.freed.count)),
                      bytesCell(o.peakIncrement)});
  }
  t.totalRows = t.rows.size();
  return t;
}

Table allocationsTable(const Trace& trace, const std::vector<const memory::Allocation*>& allocations, TimeNs origin) {
  Table t = makeTable("allocations", "Allocations",
                      {{"address", "Address", ColumnKind::Text},
                       {"bytes", "Size", ColumnKind::Bytes},
                       {"alloc_at_us", "Allocated at", ColumnKind::Duration},
                       {"free_at_us", "Freed at", ColumnKind::Duration},
                       {"lifetime_us", "Lifetime", ColumnKind::Duration},
                       {"alloc_op", "Allocated by", ColumnKind::Text},
                       {"free_op", "Freed by", ColumnKind::Text}});
  for (const memory::Allocation* a : allocations) {
    const std::optional<TimeNs> lifetime = a->lifetime();
    t.rows.push_back({textCell(hexAddress(a->addr)), bytesCell(a->bytes), durationCell(a->allocTs - origin),
                      a->freeTs ? durationCell(*a->freeTs - origin) : noCell(),
                      lifetime ? durationCell(*lifetime) : noCell(), textCell(operatorName(trace, a->allocOp)),
                      a->freeTs ? textCell(operatorName(trace, a->freeOp)) : noCell()});
  }
  t.totalRows = t.rows.size();
  return t;
}

Table liveByOperatorTable(const Trace& trace, const std::vector<const memory::Allocation*>& allocations) {
  std::map<std::string, memory::ByteCount> byOp;
  std::int64_t all = 0;
  for (const memory::Allocation* a : allocations) {
    memory::ByteCount& c = byOp[operatorName(trace, a->allocOp)];
    ++c.count;
    c.bytes += a->bytes;
    all += a->bytes;
  }
  std::vector<std::pair<std::string, memory::ByteCount>> rows(byOp.begin(), byOp.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.bytes > b.second.bytes; });
  Table t = makeTable("memory_live_at_peak", "Live at the peak, by operator",
                      {{"name", "Allocated by", ColumnKind::Text},
                       {"bytes", "Live", ColumnKind::Bytes},
                       {"allocations", "Allocations", ColumnKind::Integer},
                       {"share_pct", "Share", ColumnKind::Percent}});
  for (const auto& [name, c] : rows) {
    t.rows.push_back({textCell(name), Cell{c.bytes}, intCell(static_cast<std::int64_t>(c.count)),
                      realCell(percentOf(static_cast<double>(c.bytes), static_cast<double>(all)))});
  }
  t.totalRows = t.rows.size();
  return t;
}

}  // namespace gapscope::report
