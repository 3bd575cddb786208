// Fuzzes the model builder and every analysis on whatever the reader
// loads: each part computed, then every invariant checked
// (gapscope/analysis/invariants.h), and the range queries the app makes
// (the gap list both ways: ranked for the options, and filtered from the
// one ranking of every gap), and the ranks analysis of the trace beside a
// copy of itself.
#include "fuzz_input.h"
#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/ranks/stragglers.h"

using namespace gapscope;

namespace {

// The trace as two ranks, the second a copy whose every step and collective
// starts 1 µs later: no figure may come out negative, over 100 % or on a
// warm-up step.
void checkRanks(const analysis::TraceAnalysis& a) {
  ranks::RankTables first = ranks::buildRankTables(a, "rank-0.json");
  first.rank = 0;
  ranks::RankTables second = first;
  second.rank = 1;
  second.file = "rank-1.json";
  for (auto& s : second.steps) s.startNs += 1000;
  for (auto& c : second.collectives) c.startNs += 1000;
  const ranks::RanksAnalysis r = ranks::analyzeRanks({first, second});
  for (const ranks::RankRow& row : r.ranks) {
    if (row.gpuBusyPct < 0 || row.gpuBusyPct > 100 || row.stepTimeNs < 0 || row.ownTimeNs < 0 || row.waitNs < 0 ||
        row.transferNs < 0 || row.waitNs > row.collectiveNs)
      std::abort();
  }
  for (const ranks::StepRow& s : r.steps) {
    if (s.medianNs < 0 || s.slowestNs < 0 || s.maxWaitNs < 0 || (s.warmUp && s.straggling)) std::abort();
  }
  if (r.verdict.empty() || r.stragglers.size() != r.causes.size()) std::abort();
}

}  // namespace

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
  checkRanks(a);
  return 0;
}
