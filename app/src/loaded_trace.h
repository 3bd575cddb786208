// Everything the views need for one trace, built off the GUI thread and
// read-only afterwards: the trace, its timeline layout and its analysis
// result (TraceAnalysis), computed once and shared by every view and by
// File > Export Report. Shared pointers so a reload can swap it while a
// worker still reads the old one.
#pragma once

#include <QString>

#include <memory>

#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/model/trace.h"
#include "gapscope/timeline/viewed_trace.h"

namespace gapscope::app {

// The trace, its layout and its analysis (timeline::ViewedTrace), and where
// it came from.
struct LoadedTrace : timeline::ViewedTrace {
  QString path;         // where it came from (a file, or a description)
  QString displayName;  // for the window title
  bool truncated = false;  // the file ended mid-event: everything before the cut is here
  // The reader's error ("FILE:LINE:COL (byte N): expected ..."), when the
  // file is malformed part way: everything before the fault is here.
  QString readError;
  double seconds = 0;      // time to read and analyse

  bool valid() const { return trace != nullptr; }
  // Only the part before a fault or a cut was read: its figures are the part's.
  bool readInPart() const { return truncated || !readError.isEmpty(); }
  const analysis::GapAnalysis& gaps() const { return analysis->gaps(); }
  // The tables, kept alive by the analysis that holds them.
  std::shared_ptr<const analysis::OpTable> ops() const { return {analysis, &analysis->ops()}; }
  std::shared_ptr<const analysis::KernelTable> kernels() const { return {analysis, &analysis->kernels()}; }
};

// Builds the layout and every analysis of a freshly read trace. Runs on any
// thread; takes a few hundred milliseconds per million slices.
LoadedTrace analyseTrace(Trace&& trace, const QString& path);

}  // namespace gapscope::app
