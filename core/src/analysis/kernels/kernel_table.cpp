// The kernel table: duration statistics and launch configuration per GPU
// activity name.
#include "gapscope/analysis/kernel_table.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "gapscope/analysis/percent.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace {

// Running statistics of one row (Welford's update keeps the variance exact
// enough for millions of calls of nanosecond durations).
struct RowStats {
  double mean = 0;
  double m2 = 0;
  double occupancySum = 0;
  std::int64_t occupancyCalls = 0;
  bool hasConfig = false;

  void addDuration(std::int64_t calls, TimeNs dur) {
    const double x = static_cast<double>(dur);
    const double delta = x - mean;
    mean += delta / static_cast<double>(calls);
    m2 += delta * (x - mean);
  }
};

bool sameConfig(const KernelRow& row, const KernelInfo& info) {
  return std::equal(row.grid.begin(), row.grid.end(), info.grid) &&
         std::equal(row.block.begin(), row.block.end(), info.block) &&
         row.registersPerThread == info.registersPerThread && row.sharedMemory == info.sharedMemory;
}

void takeConfig(KernelRow& row, const KernelInfo& info) {
  std::copy(info.grid, info.grid + 3, row.grid.begin());
  std::copy(info.block, info.block + 3, row.block.begin());
  row.registersPerThread = info.registersPerThread;
  row.sharedMemory = info.sharedMemory;
}

void addLaunchConfig(KernelRow& row, RowStats& stats, const KernelInfo& info) {
  if (!stats.hasConfig) {
    takeConfig(row, info);
    stats.hasConfig = true;
  } else if (!sameConfig(row, info)) {
    row.configVaries = true;
  }
  if (info.occupancyPct >= 0) {
    stats.occupancySum += info.occupancyPct;
    stats.occupancyCalls += 1;
  }
}

struct Key {
  StringId name;
  SliceKind kind;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const noexcept {
    return std::hash<std::uint64_t>{}((static_cast<std::uint64_t>(k.name) << 8) |
                                      static_cast<std::uint64_t>(k.kind));
  }
};

}  // namespace

KernelTable buildKernelTable(const Trace& trace, std::optional<TimeRange> range) {
  KernelTable table;
  std::unordered_map<Key, std::size_t, KeyHash> index;
  std::vector<RowStats> stats;
  for (const Slice& s : trace.slices) {
    if (!isGpuActivity(s.kind) || (range && !range->contains(s.start))) continue;
    auto [it, inserted] = index.try_emplace(Key{s.name, s.kind}, table.rows.size());
    if (inserted) {
      KernelRow row;
      row.name = std::string(trace.str(s.name));
      row.kind = s.kind;
      row.min = s.dur;
      row.max = s.dur;
      table.rows.push_back(std::move(row));
      stats.emplace_back();
    }
    KernelRow& row = table.rows[it->second];
    RowStats& st = stats[it->second];
    row.calls += 1;
    row.total = addSaturating(row.total, s.dur);
    row.min = std::min(row.min, s.dur);
    row.max = std::max(row.max, s.dur);
    st.addDuration(row.calls, s.dur);
    if (s.kernelInfo != kNoIndex && s.kernelInfo < trace.kernelInfos.size()) {
      addLaunchConfig(row, st, trace.kernelInfos[s.kernelInfo]);
    }
    table.gpuTotal = addSaturating(table.gpuTotal, s.dur);
    if (s.kind == SliceKind::Kernel) table.kernelTotal = addSaturating(table.kernelTotal, s.dur);
  }
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    KernelRow& row = table.rows[i];
    row.stdDevNs = std::sqrt(stats[i].m2 / static_cast<double>(row.calls));
    row.pctGpu = percentOf(row.total, table.gpuTotal);
    if (stats[i].occupancyCalls > 0) {
      row.occupancyPct = stats[i].occupancySum / static_cast<double>(stats[i].occupancyCalls);
    }
  }
  sortKernelRows(table.rows, KernelSortKey::Total);
  return table;
}

}  // namespace gapscope::analysis
