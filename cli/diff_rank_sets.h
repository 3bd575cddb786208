// `gapscope-cli diff RUN_A RUN_B`: two runs of a distributed job, each a
// directory of rank traces or a ranks document (`ranks --format json`),
// compared (ranks/set_compare.h, docs/ranks.md).
#pragma once

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

#include "command.h"

namespace gapscope::cli {

// What one of diff's arguments is, asked of the file system once: a trace,
// or a run of a job (a directory of rank traces or a ranks document).
enum class RunKind { Trace, RankDirectory, RanksDocument };
RunKind runKind(const std::string& path);

// One run of a job named on the command line.
struct RankRunPath {
  std::string path;
  RunKind kind = RunKind::RankDirectory;
};

// `format` is diff's --format (text, json, csv or md). `sides`: A's runs
// and B's, one each or several recordings a side (docs/compare.md).
int diffRankSets(const Args& args, const std::string& format, const std::array<std::vector<RankRunPath>, 2>& sides,
                 std::ostream& out, std::ostream& err);

}  // namespace gapscope::cli
