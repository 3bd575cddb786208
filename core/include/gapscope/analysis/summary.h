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

// A few events far from all the others (a stray event, a clock that
// jumped): a 13-day empty stretch in catapult's fuchsia trace left every
// slice in one pixel column. Found where one empty stretch of the timeline
// holds at least 90 % of the span and its smaller side at most 1 % of the
// slices, instants and counter samples; without them the trace spans
// [denseStart, denseEnd]. count 0: none.
struct OutlyingEvents {
  std::uint64_t count = 0;
  TimeNs gapNs = 0;  // the empty stretch between them and the others
  TimeNs denseStart = 0;
  TimeNs denseEnd = 0;
  bool before = false;  // they lie before the others (else after)
};
OutlyingEvents findOutlyingEvents(const Trace& trace);

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
  OutlyingEvents outlying;
  // The span without the outlying events (the span when there are none).
  TimeNs spanWithoutOutlying() const { return outlying.count > 0 ? outlying.denseEnd - outlying.denseStart : span(); }
  std::vector<ImportIssue> issues;
};

TraceSummary summarizeTrace(const Trace& trace);


}  // namespace gapscope::analysis
