// A side's further recordings read for their step times, off the GUI
// thread (CompareWindow::addRecordings; docs/compare.md, "Several
// recordings of each side"). Each trace is read, analysed for its steps
// and let go, so memory holds one at a time.
#pragma once

#include <QStringList>

#include <atomic>
#include <vector>

#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/compare/compare.h"

namespace gapscope::app {

struct RecordingsRead {
  std::vector<compare::Recording> recordings;  // the files read, in the order given
  QStringList errors;                          // one per file not read: "FILE: what went wrong"
};

// `options`: the shown run's, so every recording's steps are found alike.
// `cancel` set stops between files and inside a read (what was read stays).
RecordingsRead readRecordings(const QStringList& paths, const analysis::AnalysisOptions& options,
                              const std::atomic<bool>& cancel);

}  // namespace gapscope::app
