// The `ranks --format json` document (docs/ranks.md): written here, and
// read back by ranks_document.h, so the keys have one definition. The Dask
// path (python/gapscope_dask/jsonout.py) writes the same bytes.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::ranks {

nlohmann::ordered_json rankRowJson(const RankRow& r);
nlohmann::ordered_json rankStepJson(const StepRow& s);

// The whole document: the analysis, then the set's warnings and the files
// that could not be read.
nlohmann::ordered_json ranksDocumentJson(const RanksAnalysis& a, const std::vector<std::string>& warnings,
                                         const std::vector<RankLoadError>& errors);

}  // namespace gapscope::ranks
