#include "ranks/loaded_ranks.h"

#include <algorithm>
#include <utility>

namespace gapscope::app {

LoadedRanks analyseRanks(ranks::RankSet set) {
  LoadedRanks out;
  // analyzeRanks takes its tables by value and drops or renumbers some;
  // the copy kept here is matched back to its rows by file (each file once).
  out.analysis = ranks::analyzeRanks(set.tables);
  for (const ranks::RankRow& row : out.analysis.ranks) {
    auto it = std::find_if(set.tables.begin(), set.tables.end(),
                           [&](const ranks::RankTables& t) { return t.file == row.file; });
    out.tables.push_back(it == set.tables.end() ? ranks::RankTables{} : std::move(*it));
    out.tables.back().rank = row.rank;
    out.tables.back().file = row.file;
  }
  out.errors = std::move(set.errors);
  out.warnings = std::move(set.warnings);
  return out;
}

}  // namespace gapscope::app
