// pageable-memcpy and low-occupancy: how copies and kernels use the hardware.
#include <algorithm>
#include <map>

#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "report/rules/rules.h"

namespace gapscope::report::rules {

Finding pageableMemcpy(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding("pageable-memcpy", ">= " + std::to_string(th.pageableMinCopies) +
                                                " memcpy whose Kineto name says \"Pageable\"");
  struct Group {
    std::int64_t count = 0;
    TimeNs total = 0;
  };
  std::map<std::pair<std::string_view, std::string_view>, Group> groups;  // (copy name, CPU op)
  std::int64_t count = 0, memcpys = 0;
  TimeNs total = 0;
  for (const StreamOps& s : in.streams) {
    for (std::uint32_t i : s.ops) {
      const Slice& slice = in.trace.slices[i];
      if (slice.kind != SliceKind::Memcpy) continue;
      ++memcpys;
      std::string_view name = in.trace.str(slice.name);
      if (name.find("Pageable") == std::string_view::npos) continue;
      Group& g = groups[{name, launchingOpName(in.trace, i)}];
      ++g.count;
      g.total += slice.dur;
      ++count;
      total += slice.dur;
    }
  }
  f.summary = std::to_string(count) + " of " + std::to_string(memcpys) +
              " memcpys moved pageable host memory (" + format::formatDuration(total) + ").";
  if (count < th.pageableMinCopies || count == 0) return f;
  Table t = makeTable("", "Pageable copies",
                      {{"copy", "Copy", ColumnKind::Text},
                       {"cpu_op", "Launched by", ColumnKind::Text},
                       {"count", "Count", ColumnKind::Integer},
                       {"total_us", "GPU time", ColumnKind::Duration}});
  std::vector<std::pair<std::pair<std::string_view, std::string_view>, Group>> rows(groups.begin(), groups.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
  for (const auto& [key, g] : rows)
    t.rows.push_back({textCell(key.first), key.second.empty() ? noCell() : textCell(key.second),
                      intCell(g.count), durationCell(g.total)});
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Pin the host memory: DataLoader(pin_memory=True), tensor.pin_memory(), or allocate "
           "host buffers with pin_memory=True.",
           "Then copy with .to(device, non_blocking=True): from pinned memory the copy runs "
           "asynchronously at full bus speed; from pageable memory the driver stages it through a "
           "pinned buffer and the CPU waits."});
  return f;
}

Finding lowOccupancy(const ReportInputs& in) {
  const auto& th = in.options.thresholds;
  Finding f = newFinding("low-occupancy", "estimated achieved occupancy above 0% and below " +
                                              format::formatNumber(th.lowOccupancyPct, 1) + "% in a kernel taking >= " +
                                              format::formatNumber(th.lowOccupancyMinGpuPct, 1) + "% of kernel time");
  std::int32_t sms = 0;
  for (const DeviceProperties& d : in.trace.metadata.devices) sms = sms == 0 ? d.numSms : std::min(sms, d.numSms);
  Table t = makeTable("", "Low-occupancy kernels",
                      {{"kernel", "Kernel", ColumnKind::Text, true},
                       {"calls", "Calls", ColumnKind::Integer},
                       {"total_us", "GPU time", ColumnKind::Duration},
                       {"kernel_time_pct", "Kernel time %", ColumnKind::Percent},
                       {"occupancy_pct", "Est. occupancy", ColumnKind::Percent},
                       {"grid", "Grid", ColumnKind::Text},
                       {"block", "Block", ColumnKind::Text},
                       {"blocks", "Blocks", ColumnKind::Integer},
                       {"registers", "Registers", ColumnKind::Integer},
                       {"shared_memory_bytes", "Shared mem (B)", ColumnKind::Integer}});
  std::int64_t fewBlocks = 0;
  TimeNs total = 0;
  for (const auto& k : in.kernels.rows) {
    if (k.kind != SliceKind::Kernel || k.occupancyPct <= 0 || k.occupancyPct >= th.lowOccupancyPct) continue;
    double share = percentOf(static_cast<double>(k.total), static_cast<double>(in.kernels.kernelTotal));
    if (share < th.lowOccupancyMinGpuPct) continue;
    std::int64_t blocks = static_cast<std::int64_t>(k.grid[0]) * k.grid[1] * k.grid[2];
    if (blocks > 0 && sms > 0 && blocks < sms) ++fewBlocks;
    total += k.total;
    t.rows.push_back({textCell(k.name), intCell(k.calls), durationCell(k.total), realCell(share),
                      realCell(k.occupancyPct), dim3Cell(k.grid), dim3Cell(k.block),
                      blocks > 0 ? intCell(blocks) : noCell(),
                      k.registersPerThread < 0 ? noCell() : intCell(k.registersPerThread),
                      k.sharedMemory < 0 ? noCell() : intCell(k.sharedMemory)});
  }
  if (t.rows.empty()) {
    f.summary = "No kernel with a significant share of GPU time has an estimated occupancy below " +
                format::formatNumber(th.lowOccupancyPct, 1) + "% (0% counts as unknown).";
    return f;
  }
  f.summary = std::to_string(t.rows.size()) + " kernel" + (t.rows.size() == 1 ? "" : "s") + " (" +
              format::formatDuration(total) + " of GPU time) kept the SMs below " +
              format::formatNumber(th.lowOccupancyPct, 1) + "% estimated occupancy";
  if (fewBlocks > 0)
    f.summary += "; " + std::to_string(fewBlocks) + " of them launched fewer blocks than the GPU's " +
                 std::to_string(sms) + " SMs";
  f.summary += ".";
  trigger(f, std::move(t), in.options.maxEvidenceRows,
          {"Give the kernel more parallel work: larger batches, or batch small independent ops into "
           "one launch (horizontal fusion).",
           "A grid with fewer blocks than SMs leaves SMs empty: pick a smaller tile / block size or a "
           "split-K GEMM for small problems.",
           "If the grid is large, check registers and shared memory per block, which cap the blocks "
           "per SM."});
  return f;
}

}  // namespace gapscope::report::rules
