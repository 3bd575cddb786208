// The Ranks window's screenshots (gapscope_screenshots --ranks): see
// rank_screenshots.cpp.
#pragma once

#include <QSize>
#include <QString>

namespace gapscope::app::testing {

// Opens the rank set in `rankDir` (written there first, 8 ranks with two
// planted stragglers, when it holds no trace) through the main window and
// saves ranks.png, ranks-wait.png, ranks-step.png and ranks-compare.png
// into `out`; with `otherRun`, also ranks-runs.png and ranks-runs-steps.png,
// the window comparing the set with that run. Returns the exit status.
int takeRankShots(const QString& rankDir, const QString& out, QSize size, bool dark, const QString& otherRun = {});

}  // namespace gapscope::app::testing
