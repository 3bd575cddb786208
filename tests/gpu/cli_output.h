// Runs the built gapscope-cli for the recording tests: the exit status and
// everything it printed (stdout, then stderr), as a user reads a terminal.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"

namespace gapscope::testing {

struct CliOutput {
  int status = -1;
  std::string out;  // stdout and stderr
};

inline CliOutput cli(const std::vector<std::string>& args) {
  CliResult r = runCli(args);
  return CliOutput{r.status, r.out + r.err};
}

// A command line of plain words (no quoting), split at spaces.
inline CliOutput cliLine(const std::string& line) {
  std::istringstream words(line);
  std::vector<std::string> args;
  for (std::string w; words >> w;) args.push_back(w);
  return cli(args);
}

}  // namespace gapscope::testing
