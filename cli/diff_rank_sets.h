// `gapscope-cli diff RUN_A RUN_B`: two runs of a distributed job, each a
// directory of rank traces or a ranks document (`ranks --format json`),
// compared (ranks/set_compare.h, docs/ranks.md).
#pragma once

#include <iosfwd>
#include <string>

#include "command.h"

namespace gapscope::cli {

bool isDirectory(const std::string& path);

// A run of a job rather than a trace: a directory (of rank traces) or a
// ranks document.
bool isRankRun(const std::string& path);

// `format` is diff's --format (text, json or csv; md is for two traces).
int diffRankSets(const Args& args, const std::string& format, const std::string& pathA, const std::string& pathB,
                 std::ostream& out, std::ostream& err);

}  // namespace gapscope::cli
