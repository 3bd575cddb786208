// The trace summary: what was loaded (counts), the time it spans, how busy
// each GPU was, and the import issues met on the way.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/import_issues.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

struct DeviceBusy {
  std::int32_t device = -1;  // -1: GPU tracks without a device id
  // Length of the union of kernel, memcpy and memset intervals on the
  // device's streams: overlapping work on several streams counts once.
  TimeNs busy = 0;
  TimeNs firstStart = 0;  // earliest GPU activity on the device
  TimeNs lastEnd = 0;     // latest end of GPU activity on the device
  std::uint64_t activities = 0;
};

struct TraceSummary {
  std::uint64_t events = 0;  // trace events read (all phases)
  std::uint64_t tracks = 0;
  std::uint64_t slices = 0;
  std::uint64_t kernels = 0;  // kernel slices
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  std::uint64_t flows = 0;
  std::uint64_t instants = 0;
  std::uint64_t counters = 0;  // counter series
  TimeNs start = 0;             // Trace::minTime()
  TimeNs end = 0;               // Trace::maxTime()
  TimeNs span() const { return end - start; }
  std::vector<DeviceBusy> gpuBusy;  // sorted by device id
  TimeNs gpuBusyTotal = 0;          // sum over devices
  std::vector<ImportIssue> issues;
};

TraceSummary summarizeTrace(const Trace& trace);

// Length of the union of [start, end) intervals (any order, may overlap).
TimeNs unionLength(std::vector<std::pair<TimeNs, TimeNs>> intervals);

}  // namespace gapscope::analysis
