// Helpers for the widget tests: one QApplication for the whole run (created
// on first use, offscreen platform), a loop that waits for a condition while
// processing events, and synthetic or real traces.
#pragma once

#include <QApplication>
#include <QPoint>
#include <QString>

#include <functional>
#include <string>

#include "loaded_trace.h"

namespace gapscope::app {
class StepTimesChart;
}

namespace gapscope::app::testing {

// The application object (created on first call; QT_QPA_PLATFORM=offscreen
// unless set). Settings and caches live in a temporary directory of this process.
QApplication& ensureApp();

// Processes events until `done` or `timeoutMs` passes; returns done().
bool waitUntil(const std::function<bool()>& done, int timeoutMs = 20000);

// A file of the repository's test data.
QString testData(const std::string& relative);

// A trace built in memory, analysed as the loader would.
LoadedTrace analysed(Trace&& trace, const QString& name = QStringLiteral("synthetic"));

// Where a Step times chart draws run `run`'s step `step` (after a replot),
// in the plot's pixels; (-1, -1) where it draws no such step.
QPoint pixelOfStep(const StepTimesChart& chart, int run, qint64 step);

}  // namespace gapscope::app::testing
