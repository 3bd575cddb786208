// Where the app keeps what it records: every recording is written to the
// user's data folder (atomically) before it is shown, so nothing is lost if
// anything fails later.
#pragma once

#include <QString>

#include "gapscope/model/trace.h"

namespace gapscope::app {

// <AppDataLocation>/recordings (created when missing).
QString recordingsFolder();

// A fresh file name in `folder` for a recording of `workload`/`variant`,
// e.g. "split_stack-default-20261122-101502.json.gz".
QString newRecordingPath(const QString& folder, const QString& workload, const QString& variant);

// Writes `trace` as a Chrome trace to `path`; returns "" or the reason it failed.
QString saveRecording(const Trace& trace, const QString& path);

}  // namespace gapscope::app
