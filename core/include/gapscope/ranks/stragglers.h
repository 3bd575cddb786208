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
//   straggling  a step whose slowest own time is above the median own
//               time by more than kStragglerShare of it and kStragglerMinNs
//   straggler   a rank that is the slowest in at least one straggling step;
//               most severe first: the largest summed excess over the median
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/ranks/rank_tables.h"

namespace gapscope::ranks {

inline constexpr double kStragglerShare = 0.05;
inline constexpr TimeNs kStragglerMinNs = 10000;

struct RankRow {
  std::int64_t rank = kUnknownRank;
  std::string file;
  std::uint64_t steps = 0;
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
};

struct StepRow {
  std::int64_t step = 0;
  std::uint64_t ranks = 0;      // ranks that have this step
  std::int64_t slowestRank = kUnknownRank;
  TimeNs slowestNs = 0;         // its own time
  TimeNs medianNs = 0;          // lower median of the ranks' own times
  TimeNs stepTimeMedianNs = 0;  // lower median of the ranks' step times
  TimeNs maxWaitNs = 0;         // the longest any rank waited in the step's collectives
  bool straggling = false;      // slowestNs exceeds the median by the straggler rule
};

// What held the straggler up in its worst step, against the median rank.
struct StragglerCause {
  std::int64_t rank = kUnknownRank;
  std::int64_t worstStep = 0;
  TimeNs excessNs = 0;  // own time over the step's median own time
  // Its device idle in that step by cause, less the median rank's.
  analysis::IdleByCause extraIdle;
  // Kernel with the largest total time over the median rank's total for the
  // same name (whole trace); empty when none is slower.
  std::string slowerKernel;
  TimeNs slowerKernelExtraNs = 0;
  // Time the other ranks waited for it in collectives, summed over its straggling steps.
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
  std::vector<std::int64_t> stragglers;  // most severe first
  std::vector<StragglerCause> causes;    // one per straggler, same order
  std::string verdict;
  std::vector<std::string> notes;  // e.g. two files with the same rank, mismatched collectives
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
