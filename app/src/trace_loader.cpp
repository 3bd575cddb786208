#include "trace_loader.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "gapscope/io/chrome_reader.h"

namespace gapscope::app {

LoadOutcome loadTraceFile(const QString& path, const std::atomic<bool>& cancel, LoadProgress& progress) {
  QElapsedTimer clock;
  clock.start();
  LoadOutcome out;
  out.path = path;
  io::LoadOptions options;
  options.cancel = &cancel;
  options.progress = [&progress](std::uint64_t done, std::uint64_t total) {
    progress.done.store(done, std::memory_order_relaxed);
    progress.total.store(total, std::memory_order_relaxed);
  };
  io::LoadResult result = io::loadChromeTrace(path.toStdString(), options);
  if (result.cancelled || cancel.load()) {
    out.cancelled = true;
    return out;
  }
  // A fault part way keeps what came before it (the user sees it, with the
  // error named); a fault before anything was read is a failure.
  const bool readSomething = result.trace && result.trace->eventCount > 0;
  if (!result.error.empty() && !readSomething) {
    out.error = QString::fromStdString(result.error);
    return out;
  }
  if (!result.trace) {
    out.error = QObject::tr("%1: nothing could be read").arg(path);
    return out;
  }
  progress.stage.store(LoadProgress::Analysing);
  out.loaded = analyseTrace(std::move(*result.trace), path);
  if (cancel.load()) {  // cancelled while analysing: the user no longer wants it
    out.loaded = {};
    out.cancelled = true;
    return out;
  }
  out.loaded.truncated = result.truncated;
  out.loaded.readError = QString::fromStdString(result.error);
  out.loaded.seconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
  return out;
}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
  poll_.setInterval(100);
  connect(&poll_, &QTimer::timeout, this, &TraceLoader::pollProgress);
  connect(&watcher_, &QFutureWatcher<LoadOutcome>::finished, this, &TraceLoader::onWorkerDone);
}

TraceLoader::~TraceLoader() {
  cancel();
  watcher_.waitForFinished();
}

bool TraceLoader::load(const QString& path) {
  return start(path, [path](const std::atomic<bool>& cancel, LoadProgress& progress) {
    return loadTraceFile(path, cancel, progress);
  });
}

bool TraceLoader::start(const QString& what, LoadJob job) {
  if (busy()) return false;
  cancel_.store(false);
  progress_.done.store(0);
  progress_.total.store(0);
  progress_.stage.store(LoadProgress::Reading);
  watcher_.setFuture(QtConcurrent::run([this, job = std::move(job)]() { return job(cancel_, progress_); }));
  poll_.start();
  emit started(what);
  emit progress(0, 0, LoadProgress::Reading);
  return true;
}

void TraceLoader::cancel() { cancel_.store(true); }

void TraceLoader::waitForWorker() { watcher_.waitForFinished(); }

void TraceLoader::pollProgress() {
  emit progress(progress_.done.load(std::memory_order_relaxed),
                progress_.total.load(std::memory_order_relaxed), progress_.stage.load());
}

void TraceLoader::onWorkerDone() {
  poll_.stop();
  LoadOutcome outcome = watcher_.result();
  // A Cancel that arrived after the worker finished but before its result
  // reached this thread still wins: the user saw the progress bar and said no.
  if (cancel_.load()) {
    outcome.loaded = {};
    outcome.error.clear();
    outcome.cancelled = true;
  }
  emit finished(outcome);
}

}  // namespace gapscope::app
