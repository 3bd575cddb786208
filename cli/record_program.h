// gapscope-cli record -- CMD ARGS...: the user's own program (cmd_record.cpp
// hands over when the command line has "--").
#pragma once

#include <iosfwd>

#include "command.h"

namespace gapscope::cli {

int runRecordProgram(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace gapscope::cli
