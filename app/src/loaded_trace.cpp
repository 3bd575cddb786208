#include "loaded_trace.h"

#include <QFileInfo>

namespace gapscope::app {

LoadedTrace analyseTrace(Trace&& trace, const QString& path) {
  LoadedTrace out;
  auto shared = std::make_shared<const Trace>(std::move(trace));
  auto layout = std::make_shared<timeline::TimelineLayout>(timeline::TimelineLayout::build(*shared));
  auto analysis = std::make_shared<analysis::TraceAnalysis>(shared);
  analysis->computeAll();  // here, off the GUI thread: the views only read
  layout->addMemoryLanes(analysis->memory());
  out.layout = std::move(layout);
  out.analysis = std::move(analysis);
  out.trace = std::move(shared);
  out.path = path;
  out.displayName = QFileInfo(path).fileName();
  if (out.displayName.isEmpty()) out.displayName = path;
  return out;
}

}  // namespace gapscope::app
