#include "rank_screenshots.h"

#include <QAction>
#include <QDir>

#include <cstdio>

#include "compare/compare_window.h"
#include "main_window.h"
#include "rank_set_generator.h"
#include <QTabWidget>

#include "ranks/rank_heat_map.h"
#include "ranks/ranks_compare_window.h"
#include "ranks/ranks_window.h"
#include "settle.h"
#include "trace_loader.h"
#include "trace_session.h"

namespace gapscope::app::testing {

namespace {

void writePlantedSet(const QString& dir) {
  bench::RankSetSpec spec;
  spec.gapRank = 5;
  spec.gapStep = 3;
  spec.lateRank = 2;
  spec.lateStep = 7;
  bench::writeRankSet(dir.toStdString(), spec);
}

int cellColumn(const RankGrid& grid, std::int64_t step) {
  for (int c = 0; c < grid.columns(); ++c) {
    if (grid.stepNumber(c) == step) return c;
  }
  return 0;
}

}  // namespace

int takeRankShots(const QString& rankDir, const QString& out, QSize size, bool dark, const QString& otherRun,
                  const std::array<QStringList, 2>& moreRuns) {
  const QStringList patterns{QStringLiteral("*.json"), QStringLiteral("*.json.gz")};
  if (QDir(rankDir).entryList(patterns, QDir::Files).isEmpty()) writePlantedSet(rankDir);

  MainWindow main;
  main.resize(size);
  main.show();
  if (dark) {
    for (QAction* a : main.findChildren<QAction*>())
      if (a->text() == QStringLiteral("Dark")) a->trigger();
  }
  RanksWindow* ranks = main.openRanks({rankDir});
  ranks->resize(size);
  bool finished = false;
  QObject::connect(ranks, &RanksWindow::loadFinished, ranks, [&finished] { finished = true; });
  while (!finished) settle(50);
  if (!ranks->ranks()) {
    std::fprintf(stderr, "%s\n", qPrintable(ranks->lastError()));
    return 1;
  }
  saveGrab(ranks, out, QStringLiteral("ranks.png"));
  if (!otherRun.isEmpty()) {
    RanksCompareWindow* runs = ranks->compareWithRun({otherRun});
    runs->resize(size);
    bool compared = false;
    QObject::connect(runs, &RanksCompareWindow::loadFinished, runs, [&compared] { compared = true; });
    while (!compared) settle(50);
    saveGrab(runs, out, QStringLiteral("ranks-runs.png"));
    runs->tabs()->setCurrentIndex(1);
    saveGrab(runs, out, QStringLiteral("ranks-runs-steps.png"));
    runs->tabs()->setCurrentIndex(0);
    for (int side : {0, 1}) {
      QList<QStringList> added;
      for (const QString& run : moreRuns[static_cast<std::size_t>(side)]) added << QStringList{run};
      if (added.isEmpty()) continue;
      compared = false;
      if (runs->addRuns(side, added))
        while (!compared) settle(50);
    }
    if (!moreRuns[0].isEmpty() || !moreRuns[1].isEmpty()) saveGrab(runs, out, QStringLiteral("ranks-runs-recordings.png"));
    runs->close();
  }
  ranks->setMetric(RankMetric::CollectiveWait);
  saveGrab(ranks, out, QStringLiteral("ranks-wait.png"));
  ranks->setMetric(RankMetric::OwnTime);

  // The worst cell clicked: its rank's timeline at that step.
  const RankGrid& grid = ranks->heatMap()->grid();
  const auto& analysis = ranks->ranks()->analysis;
  int row = 0;
  std::int64_t step = grid.stepNumber(0);
  if (!analysis.causes.empty()) {
    for (int r = 0; r < grid.rows(); ++r) {
      if (grid.rankNumber(r) == analysis.causes.front().rank) row = r;
    }
    step = analysis.causes.front().worstStep;
  }
  emit ranks->heatMap()->cellActivated(row, cellColumn(grid, step));
  while (main.loader()->busy() || !main.session()->hasTrace()) settle(50);
  saveGrab(&main, out, QStringLiteral("ranks-step.png"));

  // The straggler over the step's median rank, aligned at its worst step.
  ranks->compareWithMedian(row, cellColumn(grid, step));
  settle(100);
  if (auto* compare = main.findChild<CompareWindow*>()) {
    compare->resize(size);
    while (!compare->comparison() && compare->lastError().isEmpty()) settle(50);
    saveGrab(compare, out, QStringLiteral("ranks-compare.png"));
  }
  return 0;
}

}  // namespace gapscope::app::testing
