// Fuzzes the model builder and every analysis on whatever the reader
// loads: each part computed, then every invariant checked
// (gapscope/analysis/invariants.h), and the range queries the app makes
// (the gap list both ways: ranked for the options, and filtered from the
// one ranking of every gap).
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
  const std::vector<analysis::RankedGap> ranked = analysis::rankGaps(a.gaps(), a.busy(), list);
  for (const analysis::RankedGap& g : ranked) {
    if (g.deviceIdle < 0) std::abort();
  }
  // The app's way to the same list: every gap ranked once, then filtered.
  const std::vector<analysis::RankedGap> listed = analysis::listRanked(a.gaps(), a.rankedGaps(), list);
  if (listed.size() != ranked.size()) std::abort();
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    if (listed[i].gap != ranked[i].gap || listed[i].deviceIdle != ranked[i].deviceIdle) std::abort();
  }
  (void)analysis::buildKernelTable(*trace, firstHalf);
  (void)analysis::findSteps(*trace);
  return 0;
}
