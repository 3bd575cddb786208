// What must hold of the analysis of any trace, however odd its input: no
// negative duration or span, busy time within the active window and the
// span, self time within total time, percentages within 0..100, stream busy
// summed at least the device's busy (one exception, as in PyTorch: a GPU
// annotation row's Self CUDA %, a range set against the work of the trace,
// can pass 100). A violation is a bug in gapscope,
// never in the input: tests and the fuzz targets check every analysis they
// make, and debug builds assert it in TraceAnalysis::computeAll.
#pragma once

#include <string>
#include <vector>

#include "gapscope/analysis/trace_analysis.h"

namespace gapscope::analysis {

// The parts of one trace's analysis (each computed from the same trace).
struct AnalysisParts {
  const TraceSummary& summary;
  const GpuBusy& busy;
  const GapAnalysis& gaps;
  const OpTable& ops;
  const KernelTable& kernels;
};

// One line per violated invariant, naming the row and the figures; empty
// when all hold.
std::vector<std::string> checkInvariants(const AnalysisParts& parts);
// The same for a TraceAnalysis (computes every part it has not yet).
std::vector<std::string> checkInvariants(const TraceAnalysis& analysis);

}  // namespace gapscope::analysis
