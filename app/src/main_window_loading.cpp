// MainWindow: opening traces (dialog, command line, drag and drop, recent
// files, bundled samples) and reacting to the background loader.
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "main_window.h"
#include "trace_loader.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");

}  // namespace

bool MainWindow::openTrace(const QString& path) {
  if (recording()) {
    lastError_ = tr("Recording: stop it before opening another trace");
    statusBar()->showMessage(lastError_, 5000);
    return false;
  }
  if (loader_->busy()) {
    statusBar()->showMessage(tr("Still opening %1: cancel it first").arg(QFileInfo(loadingPath_).fileName()), 5000);
    return false;
  }
  loadingPath_ = path;
  return loader_->load(path);
}

void MainWindow::chooseFile() {
  QSettings s;
  const QString dir = s.value(QStringLiteral("lastDir"), QDir::homePath()).toString();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Trace"), dir, tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
  if (path.isEmpty()) return;
  s.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
  openTrace(path);
}

QStringList MainWindow::bundledSamples() {
  QStringList names = QDir(QStringLiteral(":/samples")).entryList(QDir::Files, QDir::Name);
  return names;
}

bool MainWindow::openSample(const QString& name) {
  const QStringList samples = bundledSamples();
  if (samples.isEmpty()) return false;
  const QString pick = name.isEmpty() ? samples.first() : name;
  if (!samples.contains(pick)) return false;
  // The reader takes a path (it re-reads args from the file on demand), so
  // the compiled-in sample is copied out once.
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/samples");
  QDir().mkpath(dir);
  const QString target = dir + QLatin1Char('/') + pick;
  QFile source(QStringLiteral(":/samples/") + pick);
  if (!QFileInfo::exists(target) || QFileInfo(target).size() != source.size()) {
    QFile::remove(target);
    if (!source.copy(target)) {
      lastError_ = tr("Could not write the sample trace to %1: %2").arg(target, source.errorString());
      statusBar()->showMessage(lastError_, 8000);
      return false;
    }
    QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
  }
  return openTrace(target);
}

QStringList MainWindow::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

void MainWindow::addRecent(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList recent = recentFiles();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) recent.removeLast();
  QSettings().setValue(kRecentKey, recent);
  updateRecent();
}

void MainWindow::updateRecent() {
  recentMenu_->clear();
  recentList_->clear();
  const QStringList recent = recentFiles();
  for (const QString& path : recent) {
    const QString name = QFileInfo(path).fileName();
    recentMenu_->addAction(name, this, [this, path] { openTrace(path); })->setToolTip(path);
    auto* item = new QListWidgetItem(tr("%1 — %2").arg(name, QFileInfo(path).absolutePath()), recentList_);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
  }
  recentMenu_->setEnabled(!recent.isEmpty());
  if (!recent.isEmpty()) {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear List"), this, [this] {
      QSettings().remove(kRecentKey);
      updateRecent();
    });
  }
}

void MainWindow::onLoadStarted(const QString& what) {
  progress_->setRange(0, 0);  // busy until the first byte count arrives
  progress_->setFormat(tr("Opening %p%"));
  progress_->show();
  cancel_->show();
  cancel_->setEnabled(true);
  statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(what).fileName()));
}

void MainWindow::onLoadProgress(qulonglong done, qulonglong total, int stage) {
  if (stage == LoadProgress::Analysing) {
    progress_->setRange(0, 0);
    statusBar()->showMessage(tr("Analysing %1…").arg(QFileInfo(loadingPath_).fileName()));
    return;
  }
  if (total == 0) return;
  progress_->setRange(0, 1000);
  progress_->setValue(static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
  progress_->setFormat(stage == LoadProgress::Recording ? tr("Recording %p%") : tr("Reading %p%"));
}

void MainWindow::onLoadFinished(const LoadOutcome& outcome) {
  progress_->hide();
  cancel_->hide();
  statusBar()->clearMessage();
  if (outcome.cancelled) {
    statusBar()->showMessage(tr("Cancelled: %1").arg(QFileInfo(outcome.path).fileName()), 5000);
    return;
  }
  if (!outcome.error.isEmpty()) {
    // The trace that was open stays open.
    lastError_ = outcome.error;
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open the trace"),
                                tr("Could not open %1.").arg(QFileInfo(outcome.path).fileName()), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setInformativeText(outcome.error);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // not exec(): the window stays responsive
    emit loadFailed(outcome.error);
    return;
  }
  lastError_.clear();
  const QString path = outcome.path;
  const bool isFile = QFileInfo::exists(path);
  session_->setTrace(outcome.loaded);
  if (isFile) addRecent(path);
  emit traceLoaded(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  openTrace(urls.first().toLocalFile());
  event->acceptProposedAction();
}

}  // namespace gapscope::app
