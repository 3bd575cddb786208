// gapscope-cli kernels: per GPU kernel (and memcpy/memset kind) statistics.
#include <cmath>
#include <ostream>
#include <stdexcept>

#include "command.h"
#include "gapscope/analysis/kernel_table.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using analysis::KernelRow;
using analysis::KernelTable;

analysis::KernelSortKey kernelSortOption(const Args& args) {
  const std::string key = args.get("sort", "total");
  if (auto parsed = analysis::parseKernelSortKey(key)) return *parsed;
  std::string names;
  for (const auto& n : analysis::kernelSortKeyNames()) names += (names.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown --sort key '" + key + "' (one of: " + names + ")");
}

const char* kindName(SliceKind k) {
  switch (k) {
    case SliceKind::Memcpy: return "memcpy";
    case SliceKind::Memset: return "memset";
    default: return "kernel";
  }
}

bool hasConfig(const KernelRow& r) { return r.grid[0] > 0 || r.block[0] > 0; }

std::string dims(const std::array<std::int32_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

TimeNs stdDevRounded(const KernelRow& r) { return static_cast<TimeNs>(std::llround(r.stdDevNs)); }

std::string occupancyText(const KernelRow& r) {
  return r.occupancyPct < 0 ? "" : format::formatFixed(r.occupancyPct, 1);
}

void printText(std::ostream& out, const KernelTable& table, const std::vector<KernelRow>& rows) {
  using Align = TextTable::Align;
  TextTable text;
  text.addColumn("Name", Align::Right, 55);
  for (const char* h : {"Kind", "Calls", "Total", "Avg", "Min", "Max", "Std dev", "% GPU", "Grid", "Block",
                        "Regs", "Shared mem", "Occupancy %"}) {
    text.addColumn(h);
  }
  for (const KernelRow& r : rows) {
    const bool config = hasConfig(r);
    text.addRow({r.name, kindName(r.kind), std::to_string(r.calls), format::formatDuration(r.total, kTableTime),
                 format::formatDuration(r.avg(), kTableTime), format::formatDuration(r.min, kTableTime),
                 format::formatDuration(r.max, kTableTime),
                 format::formatDuration(stdDevRounded(r), kTableTime), format::formatPercent(r.pctGpu, kTablePercent),
                 config ? dims(r.grid) + (r.configVaries ? "*" : "") : "", config ? dims(r.block) : "",
                 r.registersPerThread >= 0 ? std::to_string(r.registersPerThread) : "",
                 r.sharedMemory >= 0 ? std::to_string(r.sharedMemory) : "", occupancyText(r)});
  }
  text.print(out);
  out << "GPU time total: " << format::formatDuration(table.gpuTotal, kTableTime)
      << " (kernels " << format::formatDuration(table.kernelTotal, kTableTime) << ")\n";
  bool anyVaries = false;
  for (const KernelRow& r : rows) anyVaries = anyVaries || r.configVaries;
  if (anyVaries) out << "* launch configuration varies between calls; the first call's is shown\n";
}

nlohmann::ordered_json dimsJson(const KernelRow& r, const std::array<std::int32_t, 3>& d) {
  if (!hasConfig(r)) return nullptr;
  return nlohmann::ordered_json::array({d[0], d[1], d[2]});
}

template <typename T>
nlohmann::ordered_json knownOrNull(T value) {
  if (value < 0) return nullptr;
  return value;
}

void printJson(std::ostream& out, const std::vector<KernelRow>& rows) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const KernelRow& r : rows) {
    nlohmann::ordered_json row;
    row["name"] = r.name;
    row["kind"] = kindName(r.kind);
    row["calls"] = r.calls;
    row["total_us"] = format::usNumber(r.total);
    row["avg_us"] = format::usNumber(r.avg());
    row["min_us"] = format::usNumber(r.min);
    row["max_us"] = format::usNumber(r.max);
    row["std_us"] = format::usNumber(stdDevRounded(r));
    row["pct_gpu"] = r.pctGpu;
    row["grid"] = dimsJson(r, r.grid);
    row["block"] = dimsJson(r, r.block);
    row["registers_per_thread"] = knownOrNull(r.registersPerThread);
    row["shared_memory"] = knownOrNull(r.sharedMemory);
    row["occupancy_pct"] = knownOrNull(r.occupancyPct);
    row["config_varies"] = r.configVaries;
    list.push_back(std::move(row));
  }
  writeJson(out, list);
}

void printCsv(std::ostream& out, const std::vector<KernelRow>& rows) {
  writeCsvRow(out, {"name", "kind", "calls", "total_us", "avg_us", "min_us", "max_us", "std_us", "pct_gpu",
                    "grid", "block", "registers_per_thread", "shared_memory", "occupancy_pct"});
  for (const KernelRow& r : rows) {
    const bool config = hasConfig(r);
    writeCsvRow(out, {r.name, kindName(r.kind), std::to_string(r.calls), format::exactUs(r.total),
                      format::exactUs(r.avg()), format::exactUs(r.min), format::exactUs(r.max),
                      format::exactUs(stdDevRounded(r)), format::formatFixed(r.pctGpu, 4),
                      config ? dims(r.grid) : "", config ? dims(r.block) : "",
                      r.registersPerThread >= 0 ? std::to_string(r.registersPerThread) : "",
                      r.sharedMemory >= 0 ? std::to_string(r.sharedMemory) : "", occupancyText(r)});
  }
}

int runKernels(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  const analysis::KernelSortKey sortKey = kernelSortOption(args);
  auto path = tracePathArgument(args, "kernels", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "kernels", err);
  if (!trace) return 1;

  const KernelTable table = analysis::buildKernelTable(*trace);
  std::vector<KernelRow> rows = table.rows;
  analysis::sortKernelRows(rows, sortKey);
  applyLimit(rows, args);
  switch (format) {
    case OutputFormat::Text: printText(out, table, rows); break;
    case OutputFormat::Json: printJson(out, rows); break;
    case OutputFormat::Csv: printCsv(out, rows); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("kernels", "kernels TRACE [--format text|json|csv] [--sort KEY] [--limit N]",
                     "kernel table: calls and duration statistics per GPU kernel, memcpy and memset "
                     "kind, with launch configuration (sort keys: total, calls, avg, min, max, std, name)",
                     {}, runKernels);

}  // namespace gapscope::cli
