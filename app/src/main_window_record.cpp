// MainWindow: the Record button. Present when gapscope was built with the
// recorder (gpu/); enabled only where recording works, otherwise its
// tooltip says why (no CUDA, no device, no permission...).
#include <QAction>
#include <QFutureWatcher>
#include <QStyle>
#include <QtConcurrent/QtConcurrentRun>

#include "main_window.h"
#include "trace_loader.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER
#include "gapscope/gpu/recorder.h"
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
                                  ? tr("Record a bundled CUDA workload on %1").arg(QString::fromStdString(a.deviceName))
                                  : tr("Recording is off: %1").arg(QString::fromStdString(a.reason)));
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run([] { return gpu::recordingAvailability(); }));
  recorderProbe_ = watcher;
}

void MainWindow::startRecording() {
  RecordDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted) return;
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

#else

// Built without gpu/: no Record button at all.
void MainWindow::setupRecorder() {}
void MainWindow::startRecording() {}

#endif

}  // namespace gapscope::app
