// What `ranks` and `diff` of two rank sets share: reading a set of rank
// traces named on the command line (the JSON rows they share are core's,
// gapscope/ranks/ranks_json.h).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "gapscope/ranks/rank_set.h"

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

}  // namespace gapscope::cli
