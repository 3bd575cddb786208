// Whether two runs' step times differ by more than their steps' own spread:
// a two-sided Mann-Whitney U test of run A's step times against run B's
// (docs/compare.md, "Beyond the steps' spread"). One recording of each side
// cannot tell a change from run-to-run noise; the steps inside each can at
// least say whether the two sets of steps are told apart at all. Used by
// both comparisons (two traces, two runs of a distributed job).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::compare {

// Below this p-value the steps count as told apart.
inline constexpr double kSpreadSignificance = 0.05;

enum class SpreadMethod { None, Exact, Normal };

// What the test's values are: each run's step times (one recording a
// side), or each recording's median step time (several recordings a side:
// the run-to-run spread, runToRunTest).
enum class SpreadUnit { Steps, Recordings };

struct StepSpreadTest {
  SpreadUnit unit = SpreadUnit::Steps;
  // Values of each side: steps, or recordings (unit).
  std::size_t stepsA = 0;
  std::size_t stepsB = 0;
  // A's U: the pairs (a value of A, a value of B) in which A's is the
  // longer, a tie counting half. 0 .. stepsA x stepsB.
  double u = 0;
  double pValue = 1;  // two-sided
  // Exact: U's own distribution (no ties, and at most 8 steps in the run
  // with fewer, as scipy.stats.mannwhitneyu chooses; and at most 1,000 in
  // the other, which keeps its cost bounded); Normal: the normal
  // approximation with the ties' correction and a continuity correction;
  // None: a run without steps, no test.
  SpreadMethod method = SpreadMethod::None;
  // Whether the runs have the steps to tell them apart: some outcome could
  // reach kSpreadSignificance (with 3 steps a side and no ties the
  // smallest p is 0.1), or this one did.
  bool canTell = false;

  bool beyondSpread() const { return pValue < kSpreadSignificance; }
};

StepSpreadTest stepSpreadTest(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b);
// The same test of the recordings' median step times of each side: a
// change beyond it is beyond what a second run of the same program shows.
StepSpreadTest runToRunTest(const std::vector<TimeNs>& mediansA, const std::vector<TimeNs>& mediansB);

// The test in the verdict's words, a clause after the step times: "beyond
// the steps' spread (p = 0.003 over 15 and 15 steps)", "within the steps'
// spread (p = 0.21 over 15 and 15 steps): record each run again to tell",
// "too few steps (3 and 2) to tell from their spread". Of recordings:
// "beyond the run-to-run spread (p = 0.029 over 4 and 4 recordings)",
// "within the run-to-run spread (...): record more runs of each to tell",
// "too few recordings (3 and 3) to tell from their spread: record at least
// 4 of each".
// `advice` false leaves out what to record next (under a test that has
// already been answered by more recordings).
std::string spreadClause(const StepSpreadTest& t, bool advice = true);
// The same as a sentence of its own, under a chart of the steps: "Beyond
// the steps' spread (p < 0.001 over 11 and 11 steps)".
std::string spreadSentence(const StepSpreadTest& t);

const char* spreadMethodName(SpreadMethod m);  // "none", "exact", "normal"

// The fewest recordings a side for which some outcome reaches
// kSpreadSignificance whatever the other side's count of at least as many.
inline constexpr std::size_t kRecordingsToTell = 4;

}  // namespace gapscope::compare
