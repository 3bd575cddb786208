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

// The layout is built on a thread of its own beside the analyses (it reads
// only the trace), then gets the memory lanes. `observer` hears the
// analyses' stages and "timeline layout".
ViewedTrace prepareForViewing(Trace&& trace, analysis::StageObserver* observer = nullptr);

}  // namespace gapscope::timeline
