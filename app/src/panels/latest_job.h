// A table worked out off the GUI thread of which only the latest one asked
// for counts. Starting another, or dropping the one running (the held
// whole-trace table shown instead), discards the running one's result when
// it comes instead of waiting for it: on a 10 GB trace the operator table
// of a range takes a second or two, and clearing a range right after
// picking one blocked the window that long (docs/performance.md).
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <functional>
#include <utility>

namespace gapscope::app {

template <typename Result>
class LatestJob {
 public:
  // `deliver` gets each result that is still the latest when it arrives,
  // on `owner`'s thread; nothing arrives once `owner` is gone.
  LatestJob(QObject* owner, std::function<void(Result)> deliver) : owner_(owner), deliver_(std::move(deliver)) {}
  LatestJob(const LatestJob&) = delete;
  LatestJob& operator=(const LatestJob&) = delete;
  // A job still running holds what it reads (the trace by a shared
  // pointer), not its owner: it may end after the owner.
  ~LatestJob() = default;

  // `work` runs on the thread pool; it must not touch the owner.
  template <typename Work>
  void start(Work work) {
    const std::uint64_t generation = ++generation_;
    auto* watcher = new QFutureWatcher<Result>(owner_);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner_, [this, watcher, generation] {
      if (generation == generation_) deliver_(watcher->result());
      watcher->deleteLater();
    });
    latest_ = QtConcurrent::run(std::move(work));
    watcher->setFuture(latest_);
  }

  // The job running now, if any, will not be delivered.
  void drop() { ++generation_; }

  // Blocks until the latest job has ended; its result arrives with the
  // next events processed (tests).
  void waitForLatest() { latest_.waitForFinished(); }

 private:
  QObject* owner_;
  std::function<void(Result)> deliver_;
  std::uint64_t generation_ = 0;
  QFuture<Result> latest_;
};

}  // namespace gapscope::app
