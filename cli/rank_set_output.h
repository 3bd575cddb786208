// What `ranks` and `diff` of two rank sets share: reading a set of rank
// traces named on the command line, and the JSON of a rank row and a step
// row (docs/ranks.md).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "gapscope/ranks/rank_set.h"
#include "gapscope/ranks/stragglers.h"

namespace gapscope::cli {

// --memory-budget and --threads; throws std::invalid_argument for a bad value.
ranks::RankSetOptions rankSetOptions(const Args& args);

// Reads the rank traces that `arguments` name (directories, patterns,
// files). Warnings and unreadable files go to `err` after `prefix`
// ("gapscope-cli ranks: "); nullopt, with the reason, when no rank could
// be read or an argument matched nothing.
std::optional<ranks::RankSet> readRankSet(const std::vector<std::string>& arguments,
                                          const ranks::RankSetOptions& options, const std::string& prefix,
                                          std::ostream& err);

nlohmann::ordered_json idleJson(const analysis::IdleByCause& idle);
nlohmann::ordered_json rankRowJson(const ranks::RankRow& r);
nlohmann::ordered_json rankStepJson(const ranks::StepRow& s);

}  // namespace gapscope::cli
