#include "gapscope/timeline/viewed_trace.h"

#include "analysis/pipeline/stage_graph.h"

namespace gapscope::timeline {

ViewedTrace prepareForViewing(Trace&& trace, analysis::StageObserver* observer) {
  auto shared = std::make_shared<const Trace>(std::move(trace));
  auto analysis = std::make_shared<analysis::TraceAnalysis>(shared);
  std::shared_ptr<TimelineLayout> layout;
  // Two stages that share nothing but the trace they read; the analyses
  // run their own stages inside.
  analysis::pipeline::StageGraph graph;
  graph.add("timeline layout", {}, [&] { layout = std::make_shared<TimelineLayout>(TimelineLayout::build(*shared)); });
  graph.add("analyses", {}, [&] { analysis->computeAll(observer); });
  graph.run(2, observer);
  layout->addMemoryLanes(analysis->memory());
  return ViewedTrace{std::move(shared), std::move(layout), std::move(analysis)};
}

}  // namespace gapscope::timeline
