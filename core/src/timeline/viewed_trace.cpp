#include "gapscope/timeline/viewed_trace.h"

#include <algorithm>

#include "analysis/pipeline/stage_graph.h"
#include "gapscope/io/heap_setup.h"

namespace gapscope::timeline {

namespace {

// The gap analysis runs after the operator table, alone (computeAll), so it
// gets up to four of the cores: on the 16-core host the 10 GB trace's took
// 1.6-2.0 s on two threads, 1.3-1.6 s on four and no less on eight. The
// gap list's ranking comes last, with nothing beside it: every core.
analysis::AnalysisOptions viewingOptions() {
  analysis::AnalysisOptions options;
  options.gaps.threads = std::clamp(io::usableCores(), 2, 4);
  options.rankingThreads = io::usableCores();
  return options;
}

}  // namespace

ViewedTrace prepareForViewing(Trace&& trace, analysis::StageObserver* observer) {
  auto shared = std::make_shared<const Trace>(std::move(trace));
  auto analysis = std::make_shared<analysis::TraceAnalysis>(shared, viewingOptions());
  std::shared_ptr<TimelineLayout> layout;
  // The layout and the analyses share nothing but the trace they read; the
  // analyses run their own stages inside.
  analysis::pipeline::StageGraph graph;
  graph.add("timeline layout", {}, [&] { layout = std::make_shared<TimelineLayout>(TimelineLayout::build(*shared)); });
  const auto analyses = graph.add("analyses", {}, [&] { analysis->computeAll(observer); });
  // Ranked here, so that the gap list only filters on the GUI thread.
  graph.add("gap ranking", {analyses}, [&] { analysis->rankedGaps(); });
  graph.run(2, observer);
  layout->addMemoryLanes(analysis->memory());
  return ViewedTrace{std::move(shared), std::move(layout), std::move(analysis)};
}

}  // namespace gapscope::timeline
