// The operator table: the numbers of PyTorch's `prof.key_averages()`,
// computed from a loaded trace.
//
// One row per (name, device type): CPU events (cpu_op, user_annotation,
// cuda_runtime, cuda_driver, ...) and GPU events (kernel,
// memcpy, memset, gpu_user_annotation) with the same name stay apart.
// ProfilerStep#N rows fold into "ProfilerStep*". Python frames are not
// operators. Nesting follows PyTorch: per thread, an event is a child of the
// innermost event that contains it fully, and a call that is the only child
// of a call of the same name folds into it. GPU work is attributed through
// its launch correlation to the innermost cpu_op enclosing the launch call,
// and counts as that op's self device time and as device time of every
// ancestor. docs/operator-table.md has the details.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/time_limits.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

enum class OpDevice : std::uint8_t { Cpu, Gpu };

const char* opDeviceName(OpDevice d);  // "cpu" / "gpu"

struct OpRow {
  std::string name;
  OpDevice device = OpDevice::Cpu;
  // user_annotation / gpu_user_annotation rows: PyTorch keys them apart from
  // ops of the same name, and leaves GPU annotations out of the GPU total.
  bool annotation = false;
  // Raw "Input Dims" JSON text of the events; set only when grouping by
  // shapes (empty for events recorded without shapes).
  std::string inputShapes;
  std::int64_t calls = 0;
  TimeNs selfCpu = 0;      // CPU time minus CPU children (0 for GPU rows)
  TimeNs cpuTotal = 0;     // CPU time of the events (0 for GPU rows)
  TimeNs selfDevice = 0;   // GPU time of work attributed directly to the events
  TimeNs deviceTotal = 0;  // GPU time of work attributed to the events or their CPU descendants

  // Averages per call in nanoseconds, rounded to nearest (PyTorch's "time avg" columns).
  TimeNs cpuAvg() const { return average(cpuTotal); }
  TimeNs deviceAvg() const { return average(deviceTotal); }
  TimeNs selfCpuAvg() const { return average(selfCpu); }
  TimeNs selfDeviceAvg() const { return average(selfDevice); }

 private:
  TimeNs average(TimeNs total) const { return averageRounded(total, calls); }
};

struct OpTableOptions {
  bool groupByShapes = false;  // key rows by (name, device, input shapes)
  // When set, only events that start inside the range make rows (and the
  // totals below). Nesting and attribution still see the whole trace, so an
  // op that starts inside keeps all its times (children and GPU work that
  // run past the end included), and one that starts before is left out
  // while its children inside are counted.
  std::optional<TimeRange> range;
};

struct OpTable {
  std::vector<OpRow> rows;  // sorted by device total, then CPU total, descending
  // Denominators of PyTorch's percentage columns: "Self CPU time total" is
  // the sum of selfCpu over all rows; "Self CUDA time total" the sum of
  // selfDevice over GPU rows that are not annotations (kernels, memcpy,
  // memset, cuda_sync records), i.e. each piece of GPU work once.
  TimeNs selfCpuTotal = 0;
  TimeNs selfDeviceTotal = 0;

  double selfCpuPct(const OpRow& r) const;      // 0..100
  double cpuTotalPct(const OpRow& r) const;     // cpuTotal / selfCpuTotal
  double selfDevicePct(const OpRow& r) const;   // selfDevice / selfDeviceTotal
  double deviceTotalPct(const OpRow& r) const;  // deviceTotal / selfDeviceTotal
};

OpTable buildOpTable(const Trace& trace, const OpTableOptions& options = {});

enum class OpSortKey : std::uint8_t {
  Name,
  Calls,
  SelfCpu,
  CpuTotal,
  SelfDevice,
  DeviceTotal,
  CpuAvg,
  DeviceAvg,
};

// Accepts the column names of the JSON output and PyTorch's sort_by keys:
// "name", "calls"/"count", "self_cpu"/"self_cpu_us"/"self_cpu_time_total",
// "cpu_total"/"cpu_total_us"/"cpu_time_total", "self_device"/"self_cuda"/
// "self_device_us"/"self_cuda_time_total", "device_total"/"cuda_total"/
// "device_total_us"/"cuda_time_total", "cpu_avg"/"cpu_time", "device_avg"/
// "cuda_time". nullopt when unknown.
std::optional<OpSortKey> parseOpSortKey(std::string_view key);
std::vector<std::string> opSortKeyNames();  // the canonical names, for messages

// Sorts descending (ascending for Name); ties go by device total, CPU total,
// name, device, so the order never depends on hashing.
void sortOpRows(std::vector<OpRow>& rows, OpSortKey key);

}  // namespace gapscope::analysis
