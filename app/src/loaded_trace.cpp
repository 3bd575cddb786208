#include "loaded_trace.h"

#include <QFileInfo>

namespace gapscope::app {

LoadedTrace analyseTrace(Trace&& trace, const QString& path) {
  LoadedTrace out;
  auto shared = std::make_shared<const Trace>(std::move(trace));
  out.layout = std::make_shared<const timeline::TimelineLayout>(timeline::TimelineLayout::build(*shared));
  out.gaps = std::make_shared<const analysis::GapAnalysis>(analysis::analyzeGaps(*shared));
  out.ops = std::make_shared<const analysis::OpTable>(analysis::buildOpTable(*shared));
  out.kernels = std::make_shared<const analysis::KernelTable>(analysis::buildKernelTable(*shared));
  out.trace = std::move(shared);
  out.path = path;
  out.displayName = QFileInfo(path).fileName();
  if (out.displayName.isEmpty()) out.displayName = path;
  return out;
}

}  // namespace gapscope::app
