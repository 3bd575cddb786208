// Everything the views need for one trace, built off the GUI thread and
// read-only afterwards: the trace, its timeline layout and the analyses.
// Shared pointers so a reload can swap it while a worker still reads the old one.
#pragma once

#include <QString>

#include <memory>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/model/trace.h"
#include "gapscope/timeline/layout.h"

namespace gapscope::app {

struct LoadedTrace {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const timeline::TimelineLayout> layout;
  std::shared_ptr<const analysis::GapAnalysis> gaps;
  std::shared_ptr<const analysis::OpTable> ops;
  std::shared_ptr<const analysis::KernelTable> kernels;
  QString path;         // where it came from (a file, or a description)
  QString displayName;  // for the window title
  bool truncated = false;  // the file ended mid-event: everything before the cut is here
  double seconds = 0;      // time to read and analyse

  bool valid() const { return trace != nullptr; }
};

// Builds the layout and the analyses of a freshly read trace. Runs on any
// thread; takes a few hundred milliseconds per million slices.
LoadedTrace analyseTrace(Trace&& trace, const QString& path);

}  // namespace gapscope::app
