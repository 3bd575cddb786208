#include "timeline/frame_workers.h"

#include <QSemaphore>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>

namespace gapscope::app {

namespace {

QThreadPool& framePool() {
  static QThreadPool* pool = [] {
    auto* p = new QThreadPool;  // never destroyed: frames may be built until exit
    p->setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
    p->setExpiryTimeout(-1);    // threads stay: starting one costs more than a small row
    return p;
  }();
  return *pool;
}

}  // namespace

void forEachConcurrently(std::size_t n, const std::function<void(std::size_t)>& fn) {
  if (n == 0) return;
  const auto helpers = static_cast<std::size_t>(std::min<int>(framePool().maxThreadCount(), static_cast<int>(n) - 1));
  if (helpers == 0) {
    fn(0);
    return;
  }
  std::atomic<std::size_t> next{0};
  QSemaphore done;
  auto drain = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  for (std::size_t h = 0; h < helpers; ++h) {
    framePool().start([&] {
      drain();
      done.release();
    });
  }
  drain();
  done.acquire(static_cast<int>(helpers));
}

}  // namespace gapscope::app
