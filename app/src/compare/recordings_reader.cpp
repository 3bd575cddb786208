#include "compare/recordings_reader.h"

#include <memory>

#include "gapscope/io/chrome_reader.h"

namespace gapscope::app {

RecordingsRead readRecordings(const QStringList& paths, const analysis::AnalysisOptions& options,
                              const std::atomic<bool>& cancel) {
  RecordingsRead read;
  io::LoadOptions load;
  load.cancel = &cancel;
  for (const QString& path : paths) {
    if (cancel.load()) break;
    io::LoadResult result = io::loadChromeTrace(path.toStdString(), load);
    if (result.cancelled) break;
    // A cut file keeps what came before the cut, as `gapscope-cli diff` does.
    if (!result.trace || (!result.ok() && !result.truncated)) {
      read.errors << (result.error.empty() ? QObject::tr("%1: nothing could be read").arg(path)
                                           : QString::fromStdString(result.error));
      continue;
    }
    const analysis::TraceAnalysis run(std::make_shared<const Trace>(std::move(*result.trace)), options);
    read.recordings.push_back(compare::recordingOf(compare::runFigures(run)));
  }
  return read;
}

}  // namespace gapscope::app
