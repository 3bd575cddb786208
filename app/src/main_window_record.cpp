// MainWindow: the Record button. Present when gapscope was built with the
// recorder (gpu/); enabled only where recording works, otherwise its
// tooltip says why (no CUDA, no device, no permission...).
#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>

#include "main_window.h"
#include "timeline/timeline_widget.h"
#include "trace_loader.h"
#include "trace_session.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER
#include "gapscope/gpu/recorder.h"
#include "live_recording.h"
#include "record_dialog.h"
#include "recording_store.h"
#endif

namespace gapscope::app {

#ifdef GAPSCOPE_APP_HAVE_RECORDER

void MainWindow::setupRecorder() {
  recordAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Record…"), this);
  recordAction_->setObjectName(QStringLiteral("recordAction"));
  recordAction_->setEnabled(false);
  recordAction_->setToolTip(tr("Checking for a CUDA device…"));
  connect(recordAction_, &QAction::triggered, this, &MainWindow::startRecording);
  // The probe loads the CUDA module: off the GUI thread.
  auto* watcher = new QFutureWatcher<gpu::Availability>(this);
  connect(watcher, &QFutureWatcher<gpu::Availability>::finished, this, [this, watcher] {
    const gpu::Availability a = watcher->result();
    recordAction_->setEnabled(a.available);
    recordAction_->setToolTip(a.available
                                  ? tr("Record your program or a bundled CUDA workload on %1").arg(QString::fromStdString(a.deviceName))
                                  : tr("Recording is off: %1").arg(QString::fromStdString(a.reason)));
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run([] { return gpu::recordingAvailability(); }));
  recorderProbe_ = watcher;
}

void MainWindow::startRecording() {
  RecordDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted) return;
  if (dialog.programChosen()) {
    if (!recordProgram(dialog.programOptions())) {
      QMessageBox::warning(this, tr("Could not record"), lastError_);
    }
    return;
  }
  const RecordChoice c = dialog.choice();
  gpu::RecordOptions options;
  options.workload = c.workload.toStdString();
  options.variant = c.variant.toStdString();
  options.size = c.size;
  options.steps = c.steps;
  const QString what = tr("recording of %1 (%2)").arg(c.workload, c.variant);
  const QString savePath = newRecordingPath(recordingsFolder(), c.workload, c.variant);
  loadingPath_ = what;
  loader_->start(what, [options, what, savePath](const std::atomic<bool>& cancel, LoadProgress& progress) {
    LoadOutcome out;
    out.path = what;
    progress.stage.store(LoadProgress::Recording);
    gpu::RecordResult r = gpu::record(
        options,
        [&progress](const gpu::RecordProgress& p) {
          progress.done.store(static_cast<std::uint64_t>(std::max(p.step, 0)));
          progress.total.store(static_cast<std::uint64_t>(std::max(p.steps, 0)));
        },
        &cancel);
    if (r.cancelled) {
      out.cancelled = true;
      return out;
    }
    if (!r.ok() || !r.trace) {
      out.error = QString::fromStdString(r.error.empty() ? std::string("the recording produced no trace") : r.error);
      return out;
    }
    // Saved before it is shown: if anything fails later, the file is there.
    const QString saveError = saveRecording(*r.trace, savePath);
    if (!saveError.isEmpty()) {
      out.error = QObject::tr("the recording could not be saved: %1").arg(saveError);
      return out;
    }
    out.path = savePath;
    progress.stage.store(LoadProgress::Analysing);
    out.loaded = analyseTrace(std::move(*r.trace), savePath);
    return out;
  });
}

namespace {

// "train" for python3 train.py, "my_app" for ./my_app: the file name a
// recording is saved under. Only an interpreter's arguments name the
// script (./train.py -m x is train.py's own -m).
QString recordingName(const gpu::ProgramOptions& o) {
  QString name = QFileInfo(QString::fromStdString(o.command.front())).fileName();
  if (name.startsWith(QStringLiteral("python"))) {
    for (std::size_t i = 1; i < o.command.size(); ++i) {
      const QString arg = QString::fromStdString(o.command[i]);
      if (arg.endsWith(QStringLiteral(".py"))) return QFileInfo(arg).completeBaseName();
      if (arg == QStringLiteral("-m") && i + 1 < o.command.size()) return QString::fromStdString(o.command[i + 1]);
    }
  }
  name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.+-]")), QStringLiteral("_"));
  return name.isEmpty() ? QStringLiteral("program") : name;
}

QString commandText(const gpu::ProgramOptions& o) {
  QStringList words;
  for (const auto& w : o.command) words << QString::fromStdString(w);
  return words.join(QLatin1Char(' '));
}

}  // namespace

bool MainWindow::recordProgram(const gpu::ProgramOptions& options) {
  if (live_ || loader_->busy()) {
    lastError_ = tr("A recording or a load is running: stop it first");
    return false;
  }
  if (options.command.empty()) {
    lastError_ = tr("No program to record");
    return false;
  }
  if (!liveBar_) buildLiveBar();
  const QString path = newRecordingPath(recordingsFolder(), recordingName(options), QStringLiteral("program"));
  auto* live = new LiveRecording(options, path, this);
  QString error;
  if (!live->start(&error)) {
    delete live;
    lastError_ = error;
    return false;
  }
  live_ = live;
  liveShown_ = false;
  connect(live, &LiveRecording::snapshot, this, &MainWindow::onLiveSnapshot);
  connect(live, &LiveRecording::finished, this, &MainWindow::onLiveFinished);
  liveInfo_->setText(tr("Recording %1 — waiting for its first CUDA records…").arg(commandText(options)));
  liveInfo_->setToolTip(tr("Saved as it grows to %1").arg(path));
  stop_->setText(tr("Stop"));
  stop_->setEnabled(true);
  follow_->setChecked(true);
  liveBar_->show();
  recordAction_->setEnabled(false);
  return true;
}

void MainWindow::buildLiveBar() {
  liveBar_ = new QWidget(this);
  liveBar_->setObjectName(QStringLiteral("liveBar"));
  liveInfo_ = new QLabel(liveBar_);
  liveInfo_->setObjectName(QStringLiteral("liveInfo"));
  follow_ = new QCheckBox(tr("Follow"), liveBar_);
  follow_->setObjectName(QStringLiteral("liveFollow"));
  follow_->setToolTip(tr("Keep the end of the recording in view (off as soon as you pan)"));
  stop_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), liveBar_);
  stop_->setObjectName(QStringLiteral("liveStop"));
  auto* row = new QHBoxLayout(liveBar_);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(liveInfo_, 1);
  row->addWidget(follow_);
  row->addWidget(stop_);
  statusBar()->addWidget(liveBar_, 1);
  liveBar_->hide();
  connect(stop_, &QPushButton::clicked, this, &MainWindow::stopRecording);
  connect(follow_, &QCheckBox::toggled, this, [this](bool on) {
    if (session_->hasTrace()) timeline()->setFollowing(on);
  });
  connect(timeline(), &TimelineWidget::followingChanged, follow_, &QCheckBox::setChecked);
}

void MainWindow::stopRecording() {
  if (!live_) return;
  const bool again = live_->stopping();
  live_->stop();
  if (!live_->options().killOnStop) {
    stop_->setEnabled(false);
    liveInfo_->setText(tr("Stopping the recording; the program runs on…"));
  } else if (!again) {
    stop_->setText(tr("Kill"));
    stop_->setToolTip(tr("Stop waiting for the program's last records and kill it"));
    liveInfo_->setText(tr("Ending the program and collecting its last records…"));
  } else {
    stop_->setEnabled(false);
  }
}

void MainWindow::onLiveSnapshot(const LoadedTrace& loaded, qulonglong records) {
  if (!live_) return;
  if (!liveShown_) {
    session_->setTrace(loaded);
    timeline()->setFollowing(follow_->isChecked());
    liveShown_ = true;
  } else {
    session_->updateTrace(loaded);
  }
  if (!live_->stopping()) {
    liveInfo_->setText(tr("Recording %1 — %2 records")
                           .arg(commandText(live_->options()), QLocale().toString(records)));
  }
}

void MainWindow::onLiveFinished(const LiveRecordingEnd& end) {
  LiveRecording* live = live_;
  live_ = nullptr;
  liveBar_->hide();
  recordAction_->setEnabled(true);
  if (end.loaded.valid()) {
    if (liveShown_) session_->updateTrace(end.loaded);
    else session_->setTrace(end.loaded);
    timeline()->setFollowing(false);
    addRecent(end.loaded.path);
  }
  QString message = end.summary;
  if (end.exitStatus >= 0) message += tr("; exit status %1").arg(end.exitStatus);
  if (!end.error.isEmpty()) {
    lastError_ = end.error;
    QMessageBox::warning(this, tr("Recording"), end.error);
  }
  statusBar()->showMessage(message, 15000);
  emit recordingFinished(message, end.error);
  if (end.loaded.valid()) emit traceLoaded(end.loaded.path);
  live->deleteLater();
}

#else

// Built without gpu/: no Record button at all, so nothing ever records.
void MainWindow::setupRecorder() {}
void MainWindow::startRecording() {}
void MainWindow::buildLiveBar() {}
void MainWindow::stopRecording() {}
void MainWindow::onLiveSnapshot(const LoadedTrace&, qulonglong) {}
void MainWindow::onLiveFinished(const LiveRecordingEnd&) {}

#endif

}  // namespace gapscope::app
