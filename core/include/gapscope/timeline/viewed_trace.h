// What the viewer computes when a trace opens, off its GUI thread: the
// timeline layout and every analysis (TraceAnalysis::computeAll), read-only
// afterwards. The app holds it (LoadedTrace); gapscope-bench-load --analyse
// times the same work on machines without Qt.
#pragma once

#include <memory>

#include "gapscope/analysis/stage_observer.h"
#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/model/trace.h"
#include "gapscope/timeline/layout.h"

namespace gapscope::timeline {

struct ViewedTrace {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const TimelineLayout> layout;
  std::shared_ptr<const analysis::TraceAnalysis> analysis;
};

// The layout is built beside the analyses (it reads only the trace), as
// stages of a StageGraph, then gets the memory lanes; the gap list's
// ranking (TraceAnalysis::rankedGaps) follows the analyses. `observer`
// hears "timeline layout", "analyses" (the whole of
// TraceAnalysis::computeAll), "gap ranking" and the analyses' own stages.
ViewedTrace prepareForViewing(Trace&& trace, analysis::StageObserver* observer = nullptr);

}  // namespace gapscope::timeline
