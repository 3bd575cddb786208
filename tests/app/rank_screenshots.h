// The Ranks window's screenshots (gapscope_screenshots --ranks): see
// rank_screenshots.cpp.
#pragma once

#include <QStringList>

#include <array>

#include <QSize>
#include <QString>

namespace gapscope::app::testing {

// Opens the rank set in `rankDir` (written there first, 8 ranks with two
// planted stragglers, when it holds no trace) through the main window and
// saves ranks.png, ranks-wait.png, ranks-step.png and ranks-compare.png
// into `out`; with `otherRun`, also ranks-runs.png and ranks-runs-steps.png,
// the window comparing the set with that run. Returns the exit status.
// `moreRuns`: further runs of A (0) and of B (1) added to the two-runs
// window (--add-a, --add-b), shot as ranks-runs-recordings.png.
int takeRankShots(const QString& rankDir, const QString& out, QSize size, bool dark, const QString& otherRun = {},
                  const std::array<QStringList, 2>& moreRuns = {});

}  // namespace gapscope::app::testing
