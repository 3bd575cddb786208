// A `ranks --format json` document read back: what `ranks` (or the Dask
// path, on a cluster) said of one run of a job, enough to compare that run
// with another without its traces (set_compare.h). The per-rank-and-step
// waits of the heat map are not in the document and stay empty.
#pragma once

#include <string>
#include <vector>

#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks {

struct RanksDocument {
  RanksAnalysis analysis;
  std::vector<std::string> warnings;  // the set's, as written
  std::vector<RankLoadError> errors;  // the files `ranks` could not read
};

// Whether the file (plain or gzip) starts as a ranks document does:
// `{ "ranks"`. Reads a few bytes, so it is cheap beside a trace of any size.
bool looksLikeRanksDocument(const std::string& path);

// Throws std::runtime_error naming the file and, for bad JSON, the byte
// offset; for a document that is not one of ours, the first value that is
// missing or out of range ("ranks[3].step_time_ns: expected a
// non-negative integer").
RanksDocument readRanksDocument(const std::string& path);

// The same from the document's text; `name` stands for the file in messages.
RanksDocument parseRanksDocument(const std::string& text, const std::string& name);

}  // namespace gapscope::ranks
