// Reads a rank set off the GUI thread, as TraceLoader reads one trace:
// ranks::rankFiles names the files, ranks::loadRankSet reads and analyses
// them (several at once, within its memory budget) and the straggler
// analysis runs on the same worker. The worker only writes two atomics; a
// timer on the GUI thread turns them into progress signals ("rank k of N").
// Cancel sets the flag loadRankSet polls.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <cstddef>
#include <memory>

#include "ranks/loaded_ranks.h"

namespace gapscope::app {

struct RanksOutcome {
  std::shared_ptr<const LoadedRanks> ranks;  // set on success, even when some files failed
  QString error;                             // nothing to show: no files, or none could be read
  bool cancelled = false;
};

// What a run may be read from: its rank traces, or also the ranks document
// (the JSON `gapscope-cli ranks` and the Dask path write) of a run to
// compare with; the Ranks window itself needs the traces' per-step cells.
enum class RunSource { Traces, TracesOrDocument };

// What the worker runs: names the files of `arguments`, reads them and
// analyses the set; or reads the one ranks document `arguments` names.
RanksOutcome loadRanks(const QStringList& arguments, RunSource source, const std::atomic<bool>& cancel,
                       std::atomic<std::size_t>& done, std::atomic<std::size_t>& total);

class RankSetLoader : public QObject {
  Q_OBJECT

 public:
  explicit RankSetLoader(QObject* parent = nullptr);
  ~RankSetLoader() override;  // cancels and waits for the worker

  bool busy() const { return watcher_.isRunning(); }
  // `arguments`: a directory, files, or glob patterns. False while busy.
  bool load(const QStringList& arguments, RunSource source = RunSource::Traces);
  void cancel();

 signals:
  void started();
  // `total` 0 until the files are named.
  void progress(qulonglong done, qulonglong total);
  void finished(const gapscope::app::RanksOutcome& outcome);

 private:
  void pollProgress();
  void onWorkerDone();

  QFutureWatcher<RanksOutcome> watcher_;
  QTimer poll_;
  std::atomic<bool> cancel_{false};
  std::atomic<std::size_t> done_{0};
  std::atomic<std::size_t> total_{0};
};

}  // namespace gapscope::app
