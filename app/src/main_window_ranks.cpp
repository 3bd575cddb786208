// MainWindow: File > Open Ranks Directory… / Open Rank Files… and what the
// Ranks window asks of the main window: a rank's timeline at a step (the
// normal loading path, then the Steps dock's step pick) and two ranks in
// the compare window.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

#include "compare/compare_window.h"
#include "main_window.h"
#include "panels/steps_panel.h"
#include "ranks/ranks_window.h"
#include "timeline/timeline_widget.h"
#include "trace_loader.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

bool sameFile(const QString& a, const QString& b) {
  return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

}  // namespace

void MainWindow::buildRanksActions() {
  openRanksDirectoryAction_ = new QAction(tr("Open Ranks &Directory…"), this);
  openRanksDirectoryAction_->setObjectName(QStringLiteral("openRanksDirectoryAction"));
  openRanksDirectoryAction_->setToolTip(
      tr("Open every trace (.json, .json.gz) of a folder as the ranks of one distributed run"));
  connect(openRanksDirectoryAction_, &QAction::triggered, this, &MainWindow::chooseRanksDirectory);
  openRankFilesAction_ = new QAction(tr("Open Rank &Files…"), this);
  openRankFilesAction_->setObjectName(QStringLiteral("openRankFilesAction"));
  openRankFilesAction_->setToolTip(tr("Pick the traces of the ranks of one distributed run"));
  connect(openRankFilesAction_, &QAction::triggered, this, &MainWindow::chooseRankFiles);
  connect(this, &MainWindow::traceLoaded, this, &MainWindow::showPendingStep);
  connect(this, &MainWindow::loadFailed, this, [this] { pendingStepPath_.clear(); });
  connect(loader_, &TraceLoader::finished, this, [this](const LoadOutcome& outcome) {
    if (outcome.cancelled) pendingStepPath_.clear();
  });
}

void MainWindow::chooseRanksDirectory() {
  QSettings s;
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open Ranks Directory"), s.value(QStringLiteral("lastDir"), QDir::homePath()).toString());
  if (dir.isEmpty()) return;
  s.setValue(QStringLiteral("lastDir"), dir);
  openRanks({dir});
}

void MainWindow::chooseRankFiles() {
  QSettings s;
  const QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Open Rank Files"), s.value(QStringLiteral("lastDir"), QDir::homePath()).toString(),
      tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
  if (files.isEmpty()) return;
  s.setValue(QStringLiteral("lastDir"), QFileInfo(files.first()).absolutePath());
  openRanks(files);
}

RanksWindow* MainWindow::openRanks(const QStringList& arguments) {
  auto* window = new RanksWindow(this);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  connect(window, &RanksWindow::openRankAtStep, this, &MainWindow::openTraceAtStep);
  connect(window, &RanksWindow::compareRanks, this, &MainWindow::compareRanks);
  window->open(arguments);
  window->show();
  return window;
}

CompareWindow* MainWindow::compareRanks(const QString& fileA, const QString& fileB, qint64 step) {
  CompareWindow* window = openComparison(fileA, fileB);
  if (step == RanksWindow::kNoStep) return window;
  // The compare window aligns at a step by its position in run A's steps.
  connect(window, &CompareWindow::pairReady, window, [window, step] {
    if (!window->session(CompareWindow::A)->hasTrace()) return;
    const auto& steps = window->session(CompareWindow::A)->gaps().steps;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].number == step) window->alignAtStep(static_cast<int>(i));
    }
  }, Qt::SingleShotConnection);
  return window;
}

void MainWindow::openTraceAtStep(const QString& path, qint64 step) {
  raise();
  activateWindow();
  if (session_->hasTrace() && sameFile(session_->loaded().path, path) && !loader_->busy()) {
    showStep(step);
    return;
  }
  pendingStepPath_ = path;
  pendingStep_ = step;
  if (!openTrace(path)) pendingStepPath_.clear();
}

void MainWindow::showPendingStep(const QString& loadedPath) {
  if (pendingStepPath_.isEmpty()) return;
  const bool ours = sameFile(pendingStepPath_, loadedPath);
  pendingStepPath_.clear();
  if (ours) showStep(pendingStep_);
}

// The Steps dock's pick: the step's range selected and zoomed to. A trace
// without steps is one step, the whole trace (ranks/rank_tables.h).
void MainWindow::showStep(qint64 step) {
  if (step == RanksWindow::kNoStep || !steps_->showStep(step)) {
    timeline()->fitAll();
    return;
  }
  for (QDockWidget* d : docks_) {
    if (d->objectName() == QStringLiteral("stepsDock")) {
      d->show();
      d->raise();
    }
  }
  statusBar()->showMessage(tr("Step %1").arg(step), 5000);
}

}  // namespace gapscope::app
