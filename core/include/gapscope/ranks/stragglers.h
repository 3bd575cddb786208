// Which rank of a distributed run is slow, in which step, and why: computed
// from the ranks' tables alone (rank_tables.h), so the CLI and the Dask
// path (python/gapscope_dask, which reads the same tables from CSV) give the
// same numbers. docs/ranks.md defines every figure; in short:
//
//   wait        of one collective on one rank: how long after its start the
//               last rank started the same collective (the k-th of the step),
//               at most its duration: the rank's GPU waited for the others.
//               Ranks must share a clock (one host; across hosts the
//               profilers' clocks must be synchronised).
//   transfer    the collective's duration less its wait
//   own time    step time less the rank's wait in the step: what the step
//               would have taken had no other rank held it up
//   slowest     per step, the rank with the longest own time (ties: lowest rank)
//   excess      of a rank in a step (of two ranks or more): its own time less
//               the step's lower-median own time
//   typical excess  of a rank: the lower median of its excesses over its
//               steps; consistently slow: over kConsistentlySlowShare of its
//               steps' typical median and kStragglerMinNs, with
//               kStragglerSpreadMinSteps such steps or more
//   step excess the slowest rank's excess, less its typical excess when it
//               is consistently slow: what the step adds to the rank's usual
//               lag, so such a rank does not make every step straggle
//   straggling  a step whose step excess is over kStragglerShare of its
//               median and kStragglerMinNs, and, once kStragglerSpreadMinSteps
//               steps have two ranks or more, over kStragglerSpreadFactor
//               times the usual excess: the lower median of the step excesses,
//               at most kUsualExcessCap of the steps' typical median (on a
//               real job some rank is always a little slower, by a share of a
//               short step that would make every step "straggling"; the cap
//               keeps stalls in most steps from raising the bar over them)
//   warm-up     a step that is its trace's warm-up (StepStats::warmUp) on
//               any rank: start-up and compilation, not the job's pace. It
//               stays in the step table and the heat map, marked, and is
//               left out of everything else: the ranks' medians and totals,
//               the typical and usual excess, the straggling steps
//   straggler   a rank that is the slowest in at least one straggling step,
//               or consistently slow; most severe first: the largest summed
//               excess in its straggling steps, then the consistently slow
//               ones by their typical excess
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/ranks/rank_tables.h"

namespace gapscope::ranks {

inline constexpr double kStragglerShare = 0.05;
inline constexpr TimeNs kStragglerMinNs = 10000;
inline constexpr double kStragglerSpreadFactor = 3.0;
inline constexpr std::size_t kStragglerSpreadMinSteps = 5;
inline constexpr double kConsistentlySlowShare = 0.10;
inline constexpr double kUsualExcessCap = 0.25;

// Every figure of a rank below but `steps` leaves its warm-up step out.
struct RankRow {
  std::int64_t rank = kUnknownRank;
  std::string file;
  std::uint64_t steps = 0;  // all its steps, a warm-up included
  std::uint64_t countedSteps = 0;  // the steps its medians and totals cover: after its warm-up
  TimeNs stepTimeNs = 0;  // lower median of the step times
  TimeNs ownTimeNs = 0;   // lower median of the own times
  double gpuBusyPct = 0;  // 100 * busy / active, summed over the steps (0 when no activity)
  TimeNs busyNs = 0;      // summed over steps
  TimeNs activeNs = 0;
  analysis::IdleByCause idle;  // summed over steps
  TimeNs collectiveNs = 0;     // summed over steps
  TimeNs waitNs = 0;           // of collectiveNs: waiting for other ranks
  TimeNs transferNs = 0;       // collectiveNs - waitNs
  std::uint64_t collectives = 0;
  std::uint64_t stragglingSteps = 0;  // steps in which it was the slowest rank, by the straggler rule
  TimeNs excessNs = 0;  // its own time over the step's median, summed over those steps
  TimeNs typicalExcessNs = 0;     // lower median of its excesses over the steps' medians (0: no shared step)
  TimeNs typicalMedianNs = 0;     // lower median of the medians of those steps
  bool consistentlySlow = false;  // typicalExcessNs large enough, by the rule above
};

struct StepRow {
  std::int64_t step = 0;
  std::uint64_t ranks = 0;      // ranks that have this step
  std::int64_t slowestRank = kUnknownRank;
  TimeNs slowestNs = 0;         // its own time
  TimeNs medianNs = 0;          // lower median of the ranks' own times
  TimeNs stepTimeMedianNs = 0;  // lower median of the ranks' step times
  TimeNs maxWaitNs = 0;         // the longest any rank waited in the step's collectives
  TimeNs excessNs = 0;          // the step excess (above): beyond the slowest rank's usual lag
  bool straggling = false;      // excessNs large enough, by the straggler rule; never for a warm-up
  bool warmUp = false;          // a warm-up step (above)
};

// What held the straggler up in its worst step, against the median rank.
// The worst step: of its straggling steps, the one with the largest
// excess; a rank that is only consistently slow, the step in which its own
// time is furthest over the median.
struct StragglerCause {
  std::int64_t rank = kUnknownRank;
  std::int64_t worstStep = 0;
  TimeNs excessNs = 0;  // own time over the step's median own time
  // Its device idle in that step by cause, less the median rank's.
  analysis::IdleByCause extraIdle;
  // Its GPU busy time outside collectives in that step (busy less its
  // collectives' time: a rank that waits spins in them) less the median
  // rank's, 0 when not more: a rank busy with more GPU work idles no longer
  // than the others.
  TimeNs extraBusyNs = 0;
  // The kernel, collectives left out (their time beyond the median is
  // waiting, counted apart), with the largest total time over the median
  // rank's total for the same name (whole trace); empty when none is slower.
  std::string slowerKernel;
  TimeNs slowerKernelExtraNs = 0;
  // Time the other ranks waited in collectives in the steps it straggled in
  // (a rank only consistently slow: the steps it was the slowest rank in).
  TimeNs othersWaitedNs = 0;
};

// One rank's wait in the collectives of one step (steps with collectives only).
struct RankStepWait {
  std::int64_t rank = kUnknownRank;
  std::int64_t step = 0;
  TimeNs waitNs = 0;
};

struct RanksAnalysis {
  std::vector<RankRow> ranks;      // by rank
  std::vector<RankStepWait> waits;  // by rank, then step: the heat map's cells
  std::vector<StepRow> steps;      // by step number
  // The usual step excess (0 under kStragglerSpreadMinSteps steps of two
  // ranks or more, when it is not used).
  TimeNs usualExcessNs = 0;
  // What a step is on most ranks: "ProfilerStep#N", "each <marker> to the
  // next", "the whole trace" ("" without ranks).
  std::string stepMark;
  std::vector<std::int64_t> stragglers;  // most severe first
  std::vector<StragglerCause> causes;    // one per straggler, same order
  std::string verdict;
  // e.g. two files with the same rank, mismatched collectives, a warm-up
  // step, ranks whose steps come from different marks
  std::vector<std::string> notes;
};

// `tables` in any order; each rank once (a rank given twice is noted and
// its later copy left out; a kUnknownRank table gets the lowest free number,
// unless its file is a pid-N.json[.gz]: `record -o DIR/`'s name for a
// process without RANK, noted and left out).
RanksAnalysis analyzeRanks(std::vector<RankTables> tables);

// The wait of one collective given the latest start of that collective
// over all ranks: clamp(latestStart - start, 0, dur).
TimeNs collectiveWait(TimeNs start, TimeNs dur, TimeNs latestStart);

}  // namespace gapscope::ranks
