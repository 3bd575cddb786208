// Two runs of a distributed job compared, before and after a change: the
// job's pace, whether a straggler came or went, each rank and each step side
// by side. Computed from the two runs' straggler analyses alone
// (RanksAnalysis), never from their traces again, so what `ranks` says of
// each run is what the comparison says of it. docs/ranks.md ("Two runs
// compared") defines every figure.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gapscope/compare/compare.h"
#include "gapscope/compare/step_spread.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks {

// One run's figures as a job. "Compared steps": the step table's steps
// after the warm-up; "rank-steps": the ranks' counted steps, summed.
struct SetFigures {
  std::size_t ranks = 0;
  std::uint64_t steps = 0;      // compared steps
  std::uint64_t rankSteps = 0;  // sum of RankRow::countedSteps
  // The job's step time: the lower median over the compared steps of the
  // median rank's step time (StepRow::stepTimeMedianNs). The ranks of a
  // synchronous job end a step together, so this is the pace of the job.
  TimeNs stepTimeNs = 0;
  std::vector<TimeNs> stepTimes;  // the median rank's step time in each compared step
  double gpuBusyPct = 0;  // 100 x the ranks' busy / their active time (0 without GPU work)
  // Per rank and step: the ranks' totals over the rank-steps (0 without any).
  TimeNs collectivePerStepNs = 0;
  TimeNs waitPerStepNs = 0;
  analysis::IdleByCause idlePerStep;
  std::uint64_t stragglingSteps = 0;      // straggling rows of the step table
  std::vector<std::int64_t> stragglers;   // RanksAnalysis::stragglers
  std::string stepMark;                   // RanksAnalysis::stepMark
};

// A rank in each run (the same rank number), or in one of them.
struct RankChange {
  std::int64_t rank = kUnknownRank;
  std::optional<RankRow> a;
  std::optional<RankRow> b;
};

// A step number in each run, or in one of them.
struct StepChange {
  std::int64_t step = 0;
  std::optional<StepRow> a;
  std::optional<StepRow> b;
};

struct RankSetComparison {
  std::array<SetFigures, 2> runs;  // A, B
  std::vector<RankChange> ranks;   // by rank, every rank of either run
  std::vector<StepChange> steps;   // by step number, every step of either run
  // A's step time / B's: above 1, B is faster; 0 when either is 0.
  double speedup = 0;
  // The two runs' compared steps' times (SetFigures::stepTimes) against each
  // other: whether the change is beyond their spread.
  compare::StepSpreadTest stepSpread;
  // "B is 1.3x faster per step (31.250 ms -> 24.000 ms median); the
  // straggler is gone: rank 1 straggled in 2 of 15 steps of A, no rank
  // straggles in B; the ranks waited 6.874 ms -> 0.412 ms a step in
  // collectives; GPU busy rose from 61.2% to 70.3%."
  std::string verdict;
  // What makes the runs less comparable (other ranks, other step marks),
  // then each run's own notes ("A: ...", "B: ...").
  std::vector<std::string> notes;
  // Several recordings (runs) a side: each side's, in the order given
  // (runs[] are the typical ones), and their job step times of A against
  // B's, which the verdict then tells instead of stepSpread. Empty, and a
  // test of method None, when each side is one run.
  std::array<std::vector<compare::Recording>, 2> recordings;
  compare::StepSpreadTest runToRun;
};

RankSetComparison compareRankSets(const RanksAnalysis& a, const RanksAnalysis& b);

// Each side recorded several times (docs/compare.md, "Several recordings
// of each side"): `runs[side]` its runs' analyses, `names[side]` what names
// each (its directory or document). Compares each side's typical run
// (compare::typicalRecording of their job step times) as compareRankSets
// does, and tells the change against the runs' spread (runToRunTest).
// Throws std::invalid_argument for a side without runs or names.
RankSetComparison compareRankSetRecordings(const std::array<std::vector<const RanksAnalysis*>, 2>& runs,
                                           const std::array<std::vector<std::string>, 2>& names);

// One run's figures as compareRankSets() reports them.
SetFigures setFigures(const RanksAnalysis& run);

// A rank's per-step share of a total of its counted steps (0 without any).
TimeNs perCountedStep(TimeNs total, const RankRow& row);

}  // namespace gapscope::ranks
