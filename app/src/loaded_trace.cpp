#include "loaded_trace.h"

#include <QFileInfo>

#include "gapscope/timeline/viewed_trace.h"

namespace gapscope::app {

LoadedTrace analyseTrace(Trace&& trace, const QString& path) {
  timeline::ViewedTrace viewed = timeline::prepareForViewing(std::move(trace));  // off the GUI thread: the views only read
  LoadedTrace out;
  out.trace = std::move(viewed.trace);
  out.layout = std::move(viewed.layout);
  out.analysis = std::move(viewed.analysis);
  out.path = path;
  out.displayName = QFileInfo(path).fileName();
  if (out.displayName.isEmpty()) out.displayName = path;
  return out;
}

}  // namespace gapscope::app
