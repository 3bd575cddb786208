#include "load_trace.h"

#include <ostream>

#include "gapscope/io/chrome_reader.h"

namespace gapscope::cli {

std::optional<Trace> loadTraceForCommand(const std::string& path, const std::string& command,
                                         std::ostream& err) {
  io::LoadResult result = io::loadChromeTrace(path);
  const std::string prefix = "gapscope-cli " + command + ": ";
  if (result.ok() && result.trace) return std::move(result.trace);
  // A profiler killed mid-write leaves a cut file: everything before the cut
  // is still worth analysing, so warn and go on.
  if (result.truncated && result.trace && !result.cancelled) {
    err << prefix << "warning: " << (result.error.empty() ? "file is truncated" : result.error)
        << "; analysing what came before the cut\n";
    return std::move(result.trace);
  }
  err << prefix << (result.error.empty() ? "could not load " + path : result.error) << '\n';
  return std::nullopt;
}

std::optional<std::string> tracePathArgument(const Args& args, const std::string& command,
                                             std::ostream& err) {
  const auto& words = args.positional();
  if (words.size() == 1) return words[0];
  err << "gapscope-cli " << command << ": expected one TRACE argument, got " << words.size()
      << " (see gapscope-cli " << command << " --help)\n";
  return std::nullopt;
}

}  // namespace gapscope::cli
