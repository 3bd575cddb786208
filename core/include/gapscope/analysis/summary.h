// The trace summary: what was loaded (counts), the time it spans and the
// import issues met on the way. How busy each GPU was is GpuBusy's
// (gpu_busy.h): one definition for every figure.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/import_issues.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

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
  std::vector<ImportIssue> issues;
};

TraceSummary summarizeTrace(const Trace& trace);


}  // namespace gapscope::analysis
