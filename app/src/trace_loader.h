// Runs a trace load (or a recording) off the GUI thread. The worker only
// writes a few atomics; a timer on the GUI thread turns them into progress
// signals, so a fast parser cannot flood the event loop. Cancel sets the flag
// the reader polls.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>

#include "loaded_trace.h"

namespace gapscope::app {

struct LoadOutcome {
  LoadedTrace loaded;  // valid on success only
  QString error;       // the reader's message, when it failed
  bool cancelled = false;
  QString path;
};

struct LoadProgress {
  enum Stage : int { Reading = 0, Analysing = 1, Recording = 2 };
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> total{0};
  std::atomic<int> stage{Reading};
};

using LoadJob = std::function<LoadOutcome(const std::atomic<bool>& cancel, LoadProgress& progress)>;

// Reads a Chrome trace file and analyses it (the job `load()` runs).
LoadOutcome loadTraceFile(const QString& path, const std::atomic<bool>& cancel, LoadProgress& progress);

class TraceLoader : public QObject {
  Q_OBJECT

 public:
  explicit TraceLoader(QObject* parent = nullptr);
  ~TraceLoader() override;  // cancels and waits for the worker

  bool busy() const { return watcher_.isRunning(); }
  // False (and nothing started) while another load runs.
  bool load(const QString& path);
  bool start(const QString& what, LoadJob job);
  void cancel();
  // Blocks until the worker is done (tests, shutdown); `finished` still follows.
  void waitForWorker();

 signals:
  void started(const QString& what);
  // `total` 0 when unknown; `stage` a LoadProgress::Stage.
  void progress(qulonglong done, qulonglong total, int stage);
  void finished(const gapscope::app::LoadOutcome& outcome);

 private:
  void pollProgress();
  void onWorkerDone();

  QFutureWatcher<LoadOutcome> watcher_;
  QTimer poll_;
  std::atomic<bool> cancel_{false};
  LoadProgress progress_;
};

}  // namespace gapscope::app
