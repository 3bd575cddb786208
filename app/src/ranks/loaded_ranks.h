// A rank set as the Ranks window shows it, built off the GUI thread and
// read-only afterwards: the straggler analysis of the ranks that were read,
// each rank's tables lined up with the analysis' rows, and what could not
// be read.
#pragma once

#include <string>
#include <vector>

#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::app {

struct LoadedRanks {
  ranks::RanksAnalysis analysis;
  // tables[i] belongs to analysis.ranks[i] and carries its rank number as
  // analysed (a file that names no rank gets one there); a rank given twice
  // keeps only the copy the analysis kept. None when read from a ranks
  // document (it has no per-step cells; only run B of a comparison may be one).
  std::vector<ranks::RankTables> tables;
  std::vector<ranks::RankLoadError> errors;  // files that could not be read
  std::vector<std::string> warnings;         // files read in part
};

// Runs the straggler analysis over the ranks of `set`.
LoadedRanks analyseRanks(ranks::RankSet set);

}  // namespace gapscope::app
