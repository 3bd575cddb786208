// Loading the TRACE argument of a gapscope-cli command.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>
#include <string>

#include "command.h"
#include "gapscope/model/trace.h"

namespace gapscope::cli {

// Loads a Chrome trace (.json or .json.gz) without progress output. On
// failure writes "gapscope-cli COMMAND: <reader's error>" to `err` and
// returns nullopt. A truncated file loads what came before the cut and
// writes a warning to `err`.
std::optional<Trace> loadTraceForCommand(const std::string& path, const std::string& command,
                                         std::ostream& err);

// Loads the two runs of a comparison at once, each on a thread of its own.
// A failure names the run and its file ("gapscope-cli diff: run B: <the
// reader's error>"); nullopt when either failed.
std::optional<std::array<Trace, 2>> loadTracePair(const std::string& pathA, const std::string& pathB,
                                                  const std::string& command, std::ostream& err);

// The single TRACE positional argument of `args`; writes a usage message to
// `err` and returns nullopt when there is none or more than one.
std::optional<std::string> tracePathArgument(const Args& args, const std::string& command,
                                             std::ostream& err);

}  // namespace gapscope::cli
