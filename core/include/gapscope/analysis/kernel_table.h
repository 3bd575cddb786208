// The kernel table: per GPU kernel name the call count, duration statistics,
// share of all GPU activity time, and the launch configuration from the
// kernel's args (grid, block, registers, shared memory, occupancy). Memcpy and
// memset activities are listed too, one row per name (their kind, e.g.
// "Memcpy HtoD (Pageable -> Device)").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/time_limits.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

struct KernelRow {
  std::string name;
  SliceKind kind = SliceKind::Kernel;  // Kernel, Memcpy or Memset
  std::int64_t calls = 0;
  TimeNs total = 0;
  TimeNs min = 0;
  TimeNs max = 0;
  double stdDevNs = 0;  // population standard deviation of the durations
  double pctGpu = 0;    // total / KernelTable::gpuTotal * 100

  // Launch configuration of the first call with one; unknown stays at the
  // KernelInfo defaults (0 grid/block, -1 registers/shared memory).
  std::array<std::int32_t, 3> grid{0, 0, 0};
  std::array<std::int32_t, 3> block{0, 0, 0};
  std::int32_t registersPerThread = -1;
  std::int64_t sharedMemory = -1;  // bytes
  // Mean of "est. achieved occupancy %" over the calls that report it; -1: none did.
  double occupancyPct = -1;
  bool configVaries = false;  // calls used more than one grid/block/registers/smem

  TimeNs avg() const { return averageRounded(total, calls); }  // rounded to nearest
};

struct KernelTable {
  std::vector<KernelRow> rows;  // sorted by total, descending
  TimeNs gpuTotal = 0;          // sum of all kernel, memcpy and memset durations
  TimeNs kernelTotal = 0;       // kernels only
};

// With a range: only the activities that start inside it.
KernelTable buildKernelTable(const Trace& trace, std::optional<TimeRange> range = std::nullopt);

enum class KernelSortKey : std::uint8_t { Name, Calls, Total, Avg, Min, Max, StdDev };

// "name", "calls", "total"/"total_us", "avg"/"avg_us", "min"/"min_us",
// "max"/"max_us", "std"/"std_us"; nullopt when unknown.
std::optional<KernelSortKey> parseKernelSortKey(std::string_view key);
std::vector<std::string> kernelSortKeyNames();

// Sorts descending (ascending for Name); ties go by total, then name.
void sortKernelRows(std::vector<KernelRow>& rows, KernelSortKey key);

}  // namespace gapscope::analysis
