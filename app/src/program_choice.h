// "Your program" in the Record dialog: what the user asked to record (a
// command line as typed, where and with what environment to run it, which
// part to capture) and the last ones they recorded, remembered across
// sessions. Turned into the recorder's options by toProgramOptions().
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "gapscope/gpu/program_recorder.h"

namespace gapscope::app {

struct ProgramChoice {
  QString commandLine;       // as typed; split as a shell would (quotes, backslashes)
  QString workingDirectory;  // empty: gapscope's own
  QStringList environment;   // NAME=VALUE, one per entry
  enum class Capture { Whole, CudaProfilerApi, Nvtx };
  Capture capture = Capture::Whole;
  QString nvtxName;          // Capture::Nvtx
  bool torchOps = false;     // PyTorch operators on the CPU threads
  bool endProgramOnStop = true;
  friend bool operator==(const ProgramChoice&, const ProgramChoice&) = default;
};

// The recorder's options, or "" and `error` saying what is wrong (an empty
// command, an unbalanced quote, an environment line without NAME=, a
// missing folder, an NVTX capture without a name).
bool toProgramOptions(const ProgramChoice& choice, gpu::ProgramOptions* out, QString* error);

// The most recent first, at most kMaxRecentPrograms.
inline constexpr int kMaxRecentPrograms = 10;
QList<ProgramChoice> recentPrograms();
// Puts `choice` first (a choice with the same command line is replaced).
void rememberProgram(const ProgramChoice& choice);

}  // namespace gapscope::app
