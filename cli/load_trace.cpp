#include "load_trace.h"

#include <ostream>
#include <sstream>
#include <thread>

#include "gapscope/io/chrome_reader.h"

namespace gapscope::cli {

namespace {

// The reader reports a cut file as `truncated` and explains it in the
// "truncated" import issue ("truncated at byte N: ...").
std::string truncationMessage(const io::LoadResult& result, const std::string& path) {
  if (!result.error.empty()) return result.error;
  if (const ImportIssue* issue = result.trace->issues.find("truncated")) return path + ": " + issue->description;
  return path + ": the file is truncated";
}

}  // namespace

std::optional<Trace> loadTraceForCommand(const std::string& path, const std::string& command,
                                         std::ostream& err) {
  io::LoadResult result = io::loadChromeTrace(path);
  const std::string prefix = "gapscope-cli " + command + ": ";
  if (result.trace && result.truncated && !result.cancelled) {
    // A profiler killed mid-write leaves a cut file: everything before the
    // cut is still worth analysing, so warn and go on.
    err << prefix << "warning: " << truncationMessage(result, path) << '\n';
    return std::move(result.trace);
  }
  if (result.ok() && result.trace) return std::move(result.trace);
  err << prefix << (result.error.empty() ? "could not load " + path : result.error) << '\n';
  return std::nullopt;
}

std::optional<std::array<Trace, 2>> loadTracePair(const std::string& pathA, const std::string& pathB,
                                                  const std::string& command, std::ostream& err) {
  std::optional<Trace> b;
  std::ostringstream errB;
  std::thread readB([&] { b = loadTraceForCommand(pathB, command + ": run B", errB); });
  std::ostringstream errA;
  std::optional<Trace> a = loadTraceForCommand(pathA, command + ": run A", errA);
  readB.join();
  err << errA.str() << errB.str();
  if (!a || !b) return std::nullopt;
  return std::array<Trace, 2>{std::move(*a), std::move(*b)};
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
