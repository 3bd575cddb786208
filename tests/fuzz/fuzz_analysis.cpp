// Fuzzes the model builder and every analysis on whatever the reader
// loads: each part computed, then every invariant checked
// (gapscope/analysis/invariants.h), and the range queries the app makes.
#include "fuzz_input.h"
#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/steps.h"

using namespace gapscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::shared_ptr<const Trace> trace = fuzz::loadForFuzz(fuzz::asText(data, size));
  if (!trace) return 0;
  analysis::TraceAnalysis a(trace);
  a.computeAll();
  fuzz::requireInvariants(a);

  // What the app asks of a range: the first half of the span, and the gap list.
  const TimeNs start = trace->minTime();
  const TimeNs end = trace->maxTime();
  const TimeRange firstHalf{start, start + (end - start) / 2};
  (void)analysis::busyIn(a.busy(), firstHalf);
  analysis::GapListOptions list;
  list.streams = true;
  list.timeRange = firstHalf;
  for (const analysis::RankedGap& g : analysis::rankGaps(a.gaps(), a.busy(), list)) {
    if (g.deviceIdle < 0) std::abort();
  }
  (void)analysis::buildKernelTable(*trace, firstHalf);
  (void)analysis::findSteps(*trace);
  return 0;
}
