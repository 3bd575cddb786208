// Reading a rank set named on the command line, as `ranks` and `diff` of
// two sets do.
#include "rank_set_output.h"

#include <ostream>

namespace gapscope::cli {

ranks::RankSetOptions rankSetOptions(const Args& args) {
  ranks::RankSetOptions options;
  if (args.has("memory-budget")) options.memoryBudget = ranks::parseMemoryBudget(args.get("memory-budget"));
  options.threads = static_cast<int>(args.getInt("threads", 0));
  return options;
}

std::optional<ranks::RankSet> readRankSet(const std::vector<std::string>& arguments,
                                          const ranks::RankSetOptions& options, const std::string& prefix,
                                          std::ostream& err) {
  std::vector<std::string> files;
  try {
    files = ranks::rankFiles(arguments);
  } catch (const std::exception& e) {
    err << prefix << e.what() << '\n';
    return std::nullopt;
  }
  ranks::RankSet set = ranks::loadRankSet(files, options);
  for (const auto& w : set.warnings) err << prefix << "warning: " << w << '\n';
  for (const auto& e : set.errors) err << prefix << e.message << '\n';
  if (set.tables.empty()) {
    err << prefix << "no rank could be read\n";
    return std::nullopt;
  }
  return set;
}

}  // namespace gapscope::cli
