// MainWindow: File > Compare With… and the recent comparisons. The open
// trace is run A; the compare window reads run B on its own worker.
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

#include "compare/compare_window.h"
#include "main_window.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

constexpr int kMaxRecentComparisons = 10;
const QString kRecentComparisonsKey = QStringLiteral("recentComparisons");
// A pair is stored as "A\nB": a newline is the one character a path here never holds.
const QChar kPairSeparator = QLatin1Char('\n');

}  // namespace

CompareWindow* MainWindow::newCompareWindow() {
  auto* window = new CompareWindow(this);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  return window;
}

CompareWindow* MainWindow::compareWith(const QString& pathB) {
  if (!session_->hasTrace()) return nullptr;
  CompareWindow* window = newCompareWindow();
  window->compareWith(session_->loaded(), pathB);
  window->show();
  addRecentComparison(session_->loaded().path, pathB);
  return window;
}

CompareWindow* MainWindow::openComparison(const QString& pathA, const QString& pathB) {
  CompareWindow* window = newCompareWindow();
  window->openPair(pathA, pathB);
  window->show();
  addRecentComparison(pathA, pathB);
  return window;
}

void MainWindow::chooseComparison() {
  if (!session_->hasTrace()) return;
  QSettings s;
  const QString dir = s.value(QStringLiteral("lastDir"), QDir::homePath()).toString();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Compare %1 With").arg(session_->loaded().displayName), dir,
      tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
  if (path.isEmpty()) return;
  s.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
  compareWith(path);
}

QList<QPair<QString, QString>> MainWindow::recentComparisons() const {
  QList<QPair<QString, QString>> pairs;
  for (const QString& entry : QSettings().value(kRecentComparisonsKey).toStringList()) {
    const QStringList paths = entry.split(kPairSeparator);
    if (paths.size() == 2) pairs.append({paths[0], paths[1]});
  }
  return pairs;
}

void MainWindow::addRecentComparison(const QString& a, const QString& b) {
  const QString entry = QFileInfo(a).absoluteFilePath() + kPairSeparator + QFileInfo(b).absoluteFilePath();
  QStringList recent = QSettings().value(kRecentComparisonsKey).toStringList();
  recent.removeAll(entry);
  recent.prepend(entry);
  while (recent.size() > kMaxRecentComparisons) recent.removeLast();
  QSettings().setValue(kRecentComparisonsKey, recent);
  updateRecentComparisons();
}

void MainWindow::updateRecentComparisons() {
  recentComparisonsMenu_->clear();
  const auto pairs = recentComparisons();
  for (const auto& [a, b] : pairs) {
    QAction* action = recentComparisonsMenu_->addAction(
        tr("%1 vs %2").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()), this,
        [this, a = a, b = b] { openComparison(a, b); });
    action->setToolTip(a + QStringLiteral("\n") + b);
  }
  recentComparisonsMenu_->setEnabled(!pairs.isEmpty());
}

}  // namespace gapscope::app
