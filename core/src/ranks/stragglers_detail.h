// The parts of the straggler analysis (stragglers.cpp) that say what the
// set of ranks is before any rank is judged: each rank once, which steps
// are warm-ups, and the notes that tell the reader what to trust. Shared
// with rank_set_notes.cpp only.
#pragma once

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks::detail {

// The lower median: analysis::distributionOf's, gapscope's one definition.
inline TimeNs lowerMedian(const std::vector<TimeNs>& values) { return analysis::distributionOf(values).median; }

// "12.345 ms": the verdict's and the notes' unit.
inline std::string millis(TimeNs ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

// "rank 3" or "ranks 1, 5, ...": at most eight numbers.
std::string rankList(const std::vector<std::int64_t>& ranks);

// Each rank once, unknown ranks numbered after the known ones; what was
// left out or renumbered goes to `notes`.
std::vector<RankTables> uniqueRanks(std::vector<RankTables> tables, std::vector<std::string>& notes);

// The warm-up steps of the set: the step numbers that at least half the
// ranks having them call their warm-up (the ranks of a job start together,
// and of two ranks one may fall just short of the rule). A rank's own
// warm-up at another number (its steps numbered otherwise) stays its own.
struct WarmUps {
  std::set<std::int64_t> ofSet;
  std::map<std::int64_t, std::vector<std::int64_t>> rankOnly;  // step -> ranks, by rank
};

WarmUps markWarmUpSteps(std::vector<RankTables>& ranks);

// A rank's step of that number; nullptr when it has none.
const RankStep* findStep(const RankTables& r, std::int64_t step);
// The same, nullptr as well when that step is left out of its figures (a warm-up).
const RankStep* judgedStep(const RankTables& r, std::int64_t step);
// Every step of the rank is a warm-up (it ended in its first step).
bool onlyWarmUps(const RankTables& r);

void noteMismatchedCollectives(const std::vector<RankTables>& ranks, std::vector<std::string>& notes);
void noteWarmUpSteps(const RanksAnalysis& result, const WarmUps& w, const std::vector<RankTables>& ranks,
                     std::vector<std::string>& notes);
void noteMixedStepMarks(const std::vector<RankTables>& ranks, std::vector<std::string>& notes);
// The step mark of the most ranks (the first seen, by rank, on a tie); "" for no rank.
std::string commonStepMark(const std::vector<RankTables>& ranks);

}  // namespace gapscope::ranks::detail
