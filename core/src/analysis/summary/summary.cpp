// The trace summary: counts, span, import issues.
#include "gapscope/analysis/summary.h"

namespace gapscope::analysis {

TraceSummary summarizeTrace(const Trace& trace) {
  TraceSummary summary;
  summary.events = trace.eventCount;
  summary.tracks = trace.tracks.size();
  summary.slices = trace.slices.size();
  summary.flows = trace.flows.size();
  summary.instants = trace.instants.size();
  summary.counters = trace.counters.size();
  for (const Slice& s : trace.slices) {
    summary.kernels += s.kind == SliceKind::Kernel;
    summary.memcpys += s.kind == SliceKind::Memcpy;
    summary.memsets += s.kind == SliceKind::Memset;
  }
  summary.start = trace.minTime();
  summary.end = trace.maxTime();
  summary.outlying = findOutlyingEvents(trace);
  summary.issues = trace.issues.all();
  return summary;
}

}  // namespace gapscope::analysis
