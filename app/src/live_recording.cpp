#include "live_recording.h"

#include <signal.h>

#include <QLocale>

#include "recording_store.h"

namespace gapscope::app {

namespace {

std::uint64_t recordsReceived(const gpu::ProgramRecordingResult& r) {
  std::uint64_t n = 0;
  for (const auto& p : r.processes) n += p.records;
  return n;
}

QString stopText(gpu::StopReason why) {
  switch (why) {
    case gpu::StopReason::ProgramEnded: return QObject::tr("the program ended");
    case gpu::StopReason::Duration: return QObject::tr("its duration elapsed");
    case gpu::StopReason::Interrupted: return QObject::tr("stopped, program ended");
    case gpu::StopReason::Stopped: return QObject::tr("stopped, program still running");
  }
  return {};
}

QString summaryOf(const gpu::ProgramRecordingResult& r) {
  std::uint64_t problems = 0;
  for (const auto& issue : r.records.issues) problems += issue.isProblem() ? 1 : 0;
  const QString processes = r.processes.size() == 1 ? QObject::tr("1 process") : QObject::tr("%1 processes").arg(r.processes.size());
  QString s = QObject::tr("Recording ended (%1): %2 used CUDA, %3 records")
                  .arg(stopText(r.stopReason), processes,
                       QLocale().toString(static_cast<qulonglong>(recordsReceived(r))));
  if (problems > 0) s += QObject::tr("; %1 import problems, see Import Issues").arg(problems);
  return s;
}

}  // namespace

LiveRecording::LiveRecording(gpu::ProgramOptions options, QString savePath, QObject* parent)
    : QObject(parent), options_(std::move(options)), savePath_(std::move(savePath)) {}

LiveRecording::~LiveRecording() {
  closing_ = true;
  if (!stopRequested_.exchange(true)) {
    if (options_.killOnStop) {
      stop_.forward.store(SIGTERM);
      stop_.count.store(2);  // signalled, without waiting for its last records
    } else {
      stop_.now.store(true);
    }
  } else {
    stop_.count.fetch_add(1);  // Stop was pressed: no more waiting, a program still ending is killed
  }
  if (recorder_.joinable()) recorder_.join();
  if (processor_.joinable()) processor_.join();
}

bool LiveRecording::start(QString* error) {
  recording_ = std::make_unique<gpu::ProgramRecording>(options_);
  if (!recording_->start()) {
    *error = QString::fromStdString(recording_->error());
    return false;
  }
  processor_ = std::thread([this] { process(); });
  recorder_ = std::thread([this] { record(); });
  return true;
}

void LiveRecording::stop() {
  if (stopRequested_.exchange(true)) {
    // Again: stop waiting for the program's last records, then kill it.
    stop_.count.fetch_add(1);
    return;
  }
  if (options_.killOnStop) {
    stop_.forward.store(SIGTERM);  // it flushes its last records, then ends
    stop_.count.store(1);
  } else {
    stop_.now.store(true);
  }
}

void LiveRecording::record() {
  gpu::LiveUpdates live;
  live.deliver = [this](gpu::ProgramRecordingResult&& r) {
    if (!r.processes.empty()) offer(std::move(r), false);  // nothing to show before a process reports
  };
  gpu::ProgramRecordingResult result = recording_->collect(&stop_, &live);
  if (result.stopReason == gpu::StopReason::Stopped) {
    recording_->releaseProgram();
  } else {
    exitStatus_ = recording_->waitForExit(&stop_, closing_ ? 3.0 : -1.0);
  }
  offer(std::move(result), true);
}

void LiveRecording::offer(gpu::ProgramRecordingResult&& result, bool final) {
  {
    std::lock_guard lock(mutex_);
    pending_ = Pending{std::move(result), final};
  }
  wake_.notify_one();
}

bool LiveRecording::build(gpu::RecordSet&& records, LoadedTrace* loaded, QString* error) const {
  Trace trace = gpu::convertToTrace(records);
  // On disk before it is shown: whatever happens next, the file is a trace.
  *error = saveRecording(trace, savePath_);
  if (!error->isEmpty()) return false;
  *loaded = analyseTrace(std::move(trace), savePath_);
  return true;
}

void LiveRecording::process() {
  while (true) {
    Pending next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return pending_.has_value(); });
      next = std::move(*pending_);
      pending_.reset();
    }
    LoadedTrace loaded;
    QString error;
    const qulonglong received = recordsReceived(next.result);
    const QString summary = summaryOf(next.result);
    const bool saved = build(std::move(next.result.records), &loaded, &error);
    if (!next.final) {
      // A snapshot that could not be saved is not shown; the final result says why.
      if (saved) QMetaObject::invokeMethod(this, [this, loaded, received] { emit snapshot(loaded, received); }, Qt::QueuedConnection);
      continue;
    }
    LiveRecordingEnd end;
    if (saved) end.loaded = loaded;
    end.error = saved ? QString() : tr("the recording could not be saved: %1").arg(error);
    end.summary = summary;
    end.exitStatus = exitStatus_.load();
    QMetaObject::invokeMethod(this, [this, end] { emit finished(end); }, Qt::QueuedConnection);
    return;
  }
}

}  // namespace gapscope::app
