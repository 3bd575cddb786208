// A table (or the call tree's views) worked out off the GUI thread of which
// only the latest one asked for counts. Asking again, or dropping it (the
// held whole-trace table shown instead), never waits for the one running:
// on a 10 GB trace the operator table of a range takes a second or two, and
// clearing a range right after picking one blocked the window that long
// (docs/performance.md). At most
// one job runs at a time: the newest request waits for the running one and
// every request between is forgotten, so ranges dragged in a row do not
// pile up jobs (each holds arrays over every slice: half a gigabyte at
// 10 GB). A result no longer the latest when it comes is dropped.
#pragma once

#include <QCoreApplication>
#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace gapscope::app {

template <typename Result>
class LatestJob {
 public:
  using Work = std::function<Result()>;

  // `deliver` gets each result that is still the latest when it arrives,
  // on `owner`'s thread; nothing arrives once `owner` is gone.
  LatestJob(QObject* owner, std::function<void(Result)> deliver) : owner_(owner), deliver_(std::move(deliver)) {}
  LatestJob(const LatestJob&) = delete;
  LatestJob& operator=(const LatestJob&) = delete;
  // A job still running holds what it reads (the trace by a shared
  // pointer), not its owner: it may end after the owner.
  ~LatestJob() = default;

  // `work` runs on the thread pool, now or once the running job ends; it
  // must not touch the owner.
  void start(Work work) {
    pending_ = Pending{++generation_, std::move(work)};
    if (!latest_.isRunning()) launchPending();
  }

  // Neither the job running now nor one waiting will be delivered.
  void drop() {
    ++generation_;
    pending_.reset();
  }

  // Blocks until no job runs or waits, the latest result delivered (tests).
  void waitForLatest() {
    while (unanswered_ > 0 || pending_) {
      latest_.waitForFinished();
      QCoreApplication::processEvents();  // delivers, and starts what waited
    }
  }

 private:
  struct Pending {
    std::uint64_t generation;
    Work work;
  };

  void launchPending() {
    if (!pending_) return;
    const std::uint64_t generation = pending_->generation;
    auto* watcher = new QFutureWatcher<Result>(owner_);
    ++unanswered_;
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner_, [this, watcher, generation] {
      --unanswered_;
      if (generation == generation_) deliver_(watcher->result());
      watcher->deleteLater();
      launchPending();
    });
    latest_ = QtConcurrent::run(std::move(pending_->work));
    pending_.reset();
    watcher->setFuture(latest_);
  }

  QObject* owner_;
  std::function<void(Result)> deliver_;
  std::uint64_t generation_ = 0;
  int unanswered_ = 0;  // jobs started whose finish has not been handled yet
  std::optional<Pending> pending_;
  QFuture<Result> latest_;
};

}  // namespace gapscope::app
