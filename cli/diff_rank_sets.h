// `gapscope-cli diff DIR_A DIR_B`: two runs of a distributed job, each a
// set of rank traces, compared (ranks/set_compare.h, docs/ranks.md).
#pragma once

#include <iosfwd>
#include <string>

#include "command.h"

namespace gapscope::cli {

// `format` is diff's --format (text, json or csv; md is for two traces).
int diffRankSets(const Args& args, const std::string& format, const std::string& pathA, const std::string& pathB,
                 std::ostream& out, std::ostream& err);

}  // namespace gapscope::cli
