// gapscope-cli memory: memory per device (peaks, what was never freed) and
// per operator, from the "[memory]" events of profile_memory=True
// (gapscope/memory/memory.h; docs/memory.md has the JSON).
#include <algorithm>
#include <optional>
#include <ostream>

#include "command.h"
#include "gapscope/memory/memory.h"
#include "gapscope/model/time_limits.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using memory::ByteCount;
using memory::DeviceMemory;
using memory::MemoryAnalysis;
using memory::OpMemory;
using json = nlohmann::ordered_json;

constexpr std::size_t kTextTopOperators = 10;

// What one run prints: the devices asked for and their operators, most
// bytes allocated first.
struct Selection {
  std::vector<const DeviceMemory*> devices;
  std::vector<OpMemory> ops;
};

Selection select(const MemoryAnalysis& m, std::optional<std::int32_t> device) {
  Selection s;
  for (const DeviceMemory& d : m.devices) {
    if (device && d.device != *device) continue;
    s.devices.push_back(&d);
    s.ops.insert(s.ops.end(), d.byOp.begin(), d.byOp.end());
  }
  std::stable_sort(s.ops.begin(), s.ops.end(),
                   [](const OpMemory& a, const OpMemory& b) { return a.allocated.bytes > b.allocated.bytes; });
  return s;
}

// A figure of allocations paired by address, summed over the selected
// devices; unknown when one of them has allocations or frees without one.
std::optional<ByteCount> pairedSum(const Selection& s, ByteCount DeviceMemory::*figure) {
  ByteCount sum;
  for (const DeviceMemory* d : s.devices) {
    if (!d->allAddressed()) return std::nullopt;
    sum.count += (d->*figure).count;
    sum.bytes = addSaturating(sum.bytes, (d->*figure).bytes);
  }
  return sum;
}

// {"count": .., "bytes": ..} as JSON numbers, or nulls when unknown.
json countJson(const std::optional<ByteCount>& c) {
  return c ? json{{"count", c->count}, {"bytes", c->bytes}} : json{{"count", nullptr}, {"bytes", nullptr}};
}

json deviceJson(const DeviceMemory& d) {
  const bool paired = d.allAddressed();
  return json{{"device", d.device},
              {"device_type", d.deviceType},
              {"events", d.events},
              {"allocs", d.allocated.count},
              {"alloc_bytes", d.allocated.bytes},
              {"frees", d.freed.count},
              {"free_bytes", d.freed.bytes},
              {"allocated_basis", memory::allocatedBasisName(d.basis)},
              {"peak_allocated_bytes", d.peakAllocated},
              {"peak_allocated_ts_ns", d.peakAllocatedTs},
              {"peak_reserved_bytes", d.peakReserved ? json(*d.peakReserved) : json(nullptr)},
              {"peak_reserved_ts_ns", d.peakReserved ? json(d.peakReservedTs) : json(nullptr)},
              {"final_allocated_bytes", d.finalAllocated()},
              {"without_address", d.withoutAddress},
              {"leaked_allocs", paired ? json(d.neverFreed.count) : json(nullptr)},
              {"leaked_bytes", paired ? json(d.neverFreed.bytes) : json(nullptr)},
              {"unmatched_frees", paired ? json(d.unmatchedFrees.count) : json(nullptr)},
              {"unmatched_free_bytes", paired ? json(d.unmatchedFrees.bytes) : json(nullptr)}};
}

json opJson(const OpMemory& o) {
  return json{{"device", o.device},
              {"name", o.name},
              {"alloc_bytes", o.allocated.bytes},
              {"allocs", o.allocated.count},
              {"free_bytes", o.freed.bytes},
              {"frees", o.freed.count},
              {"peak_increment_bytes", o.peakIncrement}};
}

void printJson(std::ostream& out, const MemoryAnalysis& m, const Selection& s) {
  json j;
  j["memory_events"] = m.events;
  j["unreadable_events"] = m.unreadableEvents;
  j["devices"] = json::array();
  for (const DeviceMemory* d : s.devices) j["devices"].push_back(deviceJson(*d));
  j["by_op"] = json::array();
  for (const OpMemory& o : s.ops) j["by_op"].push_back(opJson(o));
  j["leaks"] = countJson(pairedSum(s, &DeviceMemory::neverFreed));
  j["unmatched_frees"] = countJson(pairedSum(s, &DeviceMemory::unmatchedFrees));
  writeJson(out, j);
}

void printCsv(std::ostream& out, const Selection& s) {
  writeCsvRow(out, {"device", "name", "alloc_bytes", "allocs", "free_bytes", "frees", "peak_increment_bytes"});
  for (const OpMemory& o : s.ops) {
    writeCsvRow(out, {std::to_string(o.device), o.name, std::to_string(o.allocated.bytes),
                      std::to_string(o.allocated.count), std::to_string(o.freed.bytes),
                      std::to_string(o.freed.count), std::to_string(o.peakIncrement)});
  }
}

std::string countText(const ByteCount& c) {
  return std::to_string(c.count) + " (" + format::formatBytes(c.bytes) + ")";
}

// A figure of allocations paired by address, or why it is unknown.
std::string pairedText(const DeviceMemory& d, const ByteCount& figure) {
  return d.allAddressed() ? countText(figure) : "unknown: " + std::to_string(d.withoutAddress) + " without Addr";
}

void printDevices(std::ostream& out, const Trace& trace, const Selection& s) {
  using Align = TextTable::Align;
  TextTable table;
  table.addColumn("Device", Align::Left);
  for (const char* h : {"Events", "Allocs", "Frees", "Peak allocated", "Peak at", "Peak reserved", "Never freed",
                        "Frees of earlier memory"}) {
    table.addColumn(h);
  }
  for (const DeviceMemory* d : s.devices) {
    table.addRow({memory::deviceLabel(d->device), std::to_string(d->events), countText(d->allocated),
                  countText(d->freed), format::formatBytes(d->peakAllocated),
                  format::formatDuration(d->peakAllocatedTs - trace.minTime(), kTableTime),
                  d->peakReserved ? format::formatBytes(*d->peakReserved) : "not stated",
                  pairedText(*d, d->neverFreed), pairedText(*d, d->unmatchedFrees)});
  }
  table.print(out);
  for (const DeviceMemory* d : s.devices) {
    if (d->basis == memory::AllocatedBasis::Stated) continue;
    out << memory::deviceLabel(d->device) << ": the events state no Total Allocated"
        << (d->basis == memory::AllocatedBasis::Mixed ? " (some of them)" : "")
        << ", so allocated is the net change since the trace began\n";
  }
}

void printOps(std::ostream& out, const Selection& s, std::size_t limit) {
  using Align = TextTable::Align;
  TextTable table;
  table.addColumn("Device", Align::Left);
  table.addColumn("Operator", Align::Left, 55);
  for (const char* h : {"Allocs", "Allocated", "Frees", "Freed", "Peak increment"}) table.addColumn(h);
  for (std::size_t i = 0; i < s.ops.size() && i < limit; ++i) {
    const OpMemory& o = s.ops[i];
    table.addRow({memory::deviceLabel(o.device), o.name, std::to_string(o.allocated.count),
                  format::formatBytes(o.allocated.bytes), std::to_string(o.freed.count),
                  format::formatBytes(o.freed.bytes), format::formatBytes(o.peakIncrement)});
  }
  out << "Operators by bytes allocated (" << std::min(limit, s.ops.size()) << " of " << s.ops.size() << "):\n";
  table.print(out);
}

void printText(std::ostream& out, const std::string& path, const Trace& trace, const MemoryAnalysis& m,
               const Selection& s, std::size_t limit) {
  out << "Trace:          " << path << '\n' << "Memory events:  " << m.events;
  if (m.unreadableEvents) out << " (and " << m.unreadableEvents << " without Bytes or Device Id, left out)";
  out << '\n';
  printDevices(out, trace, s);
  out << '\n';
  printOps(out, s, limit);
}

std::optional<std::int32_t> deviceOption(const Args& args) {
  if (!args.has("device")) return std::nullopt;
  return static_cast<std::int32_t>(args.getInt("device", memory::kCpuDevice));
}

std::string deviceList(const MemoryAnalysis& m) {
  std::string text;
  for (const DeviceMemory& d : m.devices) text += (text.empty() ? "" : ", ") + std::to_string(d.device);
  return text;
}

int runMemory(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  const std::optional<std::int32_t> device = deviceOption(args);
  const std::size_t limit = limitOption(args);
  auto path = tracePathArgument(args, "memory", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "memory", err);
  if (!trace) return 1;
  const MemoryAnalysis m = memory::analyzeMemory(*trace);
  if (device && !m.empty() && !m.device(*device)) {
    err << "gapscope-cli memory: no memory events on device " << *device << " (devices with memory events: "
        << deviceList(m) << ")\n";
    return 1;
  }
  Selection s = select(m, device);
  if (format != OutputFormat::Text && s.ops.size() > limit) s.ops.resize(limit);
  switch (format) {
    case OutputFormat::Text:
      if (m.empty()) {
        out << "no memory events in " << *path << " (record with torch.profiler's profile_memory=True)\n";
      } else {
        printText(out, *path, *trace, m, s, args.has("limit") ? limit : kTextTopOperators);
      }
      break;
    case OutputFormat::Json: printJson(out, m, s); break;
    case OutputFormat::Csv: printCsv(out, s); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("memory", "memory TRACE [--device N] [--format text|json|csv] [--limit N]",
                     "memory of a profile_memory=True trace: per device peak allocated and reserved, allocations "
                     "never freed; per operator bytes allocated and the largest increment of one call "
                     "(--device -1: CPU memory; --limit: operators shown, 10 in text)",
                     {}, runMemory);

}  // namespace gapscope::cli
