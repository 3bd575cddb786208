#include "loaded_trace.h"

#include <QFileInfo>

namespace gapscope::app {

LoadedTrace analyseTrace(Trace&& trace, const QString& path) {
  LoadedTrace out;
  // Off the GUI thread: the views only read.
  static_cast<timeline::ViewedTrace&>(out) = timeline::prepareForViewing(std::move(trace));
  out.path = path;
  out.displayName = QFileInfo(path).fileName();
  if (out.displayName.isEmpty()) out.displayName = path;
  return out;
}

}  // namespace gapscope::app
