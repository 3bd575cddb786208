#include "parallel.h"

#include <algorithm>

namespace gapscope::detail {

namespace {
thread_local PartPool* currentPool = nullptr;
}  // namespace

struct PartPool::Batch {
  const std::function<void(int)>* body;
  int parts;
  int next = 1;   // part 0 is the caller's; guarded by mu_ as is `ended`
  int ended = 0;
  std::vector<std::exception_ptr> errors;
};

PartPool::PartPool(int workers) {
  for (int i = 0; i < workers; ++i) {
    try {
      threads_.emplace_back([this] { work(); });
    } catch (...) {  // no more threads to be had: the callers take the parts left
      break;
    }
  }
}

PartPool::~PartPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  workCv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

PartPool* PartPool::current() { return currentPool; }

PartPool::Use::Use(PartPool* pool) : previous_(currentPool) { currentPool = pool; }
PartPool::Use::~Use() { currentPool = previous_; }

void PartPool::work() {
  currentPool = this;  // parts that hand out parts use the pool too
  std::unique_lock lock(mu_);
  while (true) {
    workCv_.wait(lock, [&] { return stop_ || !open_.empty(); });
    if (open_.empty()) return;
    runNextPart(*open_.front(), lock);
  }
}

void PartPool::runNextPart(Batch& b, std::unique_lock<std::mutex>& lock) {
  const int part = b.next++;
  if (b.next == b.parts) open_.erase(std::find(open_.begin(), open_.end(), &b));
  lock.unlock();
  try {
    (*b.body)(part);
  } catch (...) {
    b.errors[static_cast<std::size_t>(part)] = std::current_exception();
  }
  lock.lock();
  // The caller may return (and `b` end) as soon as the lock is released.
  if (++b.ended == b.parts) doneCv_.notify_all();
}

void PartPool::run(int parts, const std::function<void(int)>& body) {
  Batch b{&body, parts, 1, 0, std::vector<std::exception_ptr>(static_cast<std::size_t>(parts))};
  std::unique_lock lock(mu_);
  open_.push_back(&b);
  lock.unlock();
  workCv_.notify_all();
  try {
    body(0);
  } catch (...) {
    b.errors[0] = std::current_exception();
  }
  lock.lock();
  ++b.ended;
  while (b.next < b.parts) runNextPart(b, lock);  // parts no worker has taken yet
  doneCv_.wait(lock, [&] { return b.ended == b.parts; });
  lock.unlock();
  for (const std::exception_ptr& e : b.errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace gapscope::detail
