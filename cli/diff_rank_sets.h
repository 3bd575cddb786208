// `gapscope-cli diff RUN_A RUN_B`: two runs of a distributed job, each a
// directory of rank traces or a ranks document (`ranks --format json`),
// compared (ranks/set_compare.h, docs/ranks.md).
#pragma once

#include <iosfwd>
#include <string>

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

// `format` is diff's --format (text, json or csv; md is for two traces).
int diffRankSets(const Args& args, const std::string& format, const RankRunPath& a, const RankRunPath& b,
                 std::ostream& out, std::ostream& err);

}  // namespace gapscope::cli
