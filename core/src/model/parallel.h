// Splitting finish()'s passes over millions of slices and flow events
// between threads. On a 10 GB trace on 16 cores the finish step was 43 % of
// the load, most of it one thread's sorts and passes (docs/performance.md).
// parallelSort also ranks the gap list (analysis/gaps/gap_list.cpp).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gapscope::detail {

// Below this many items a pass stays on one thread: starting one costs
// more than it saves.
inline constexpr std::size_t kParallelAbove = 50000;

// The parts to split `items` into with up to `threads` threads.
inline int partsFor(std::size_t items, int threads) {
  return items > kParallelAbove ? std::max(1, threads) : 1;
}

// Part `part` of [0, items) split into `parts` ranges of nearly equal size.
inline std::pair<std::size_t, std::size_t> partRange(std::size_t items, int parts, int part) {
  const auto p = static_cast<std::size_t>(part);
  const auto n = static_cast<std::size_t>(parts);
  return {items * p / n, items * (p + 1) / n};
}

// Threads kept for one finish(): its thirty-odd passes hand their parts
// to these instead of starting threads for each (starting 15 threads and
// joining them costs about 0.45 ms on the 16-core host: 14 ms of a 500 MB
// load's 40 ms finish). A thread that hands out parts takes parts of its
// own batch too, so a batch completes even while every worker is busy with
// another, and batches may be handed out from inside a part.
class PartPool {
 public:
  explicit PartPool(int workers);
  ~PartPool();
  PartPool(const PartPool&) = delete;
  PartPool& operator=(const PartPool&) = delete;

  // Runs body(part) for every part in [0, parts), part 0 on the calling
  // thread; returns once all have ended; the first exception reaches the
  // caller.
  void run(int parts, const std::function<void(int)>& body);

  // The pool that forEachPart uses on this thread, if any: the thread that
  // made it, while a PartPool::Use lives, and the pool's own workers.
  static PartPool* current();

  class Use {
   public:
    explicit Use(PartPool* pool);
    ~Use();
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    PartPool* previous_;
  };

 private:
  struct Batch;
  void work();
  // With mu_ held: takes b's next part and runs it with mu_ released.
  void runNextPart(Batch& b, std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  std::condition_variable workCv_;  // workers: a batch with parts left, or stop
  std::condition_variable doneCv_;  // submitters: a batch's last part ended
  std::vector<Batch*> open_;        // batches with parts not yet taken
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// Runs body(part) for every part in [0, parts), part 0 (and any part no
// thread could be started for) on the calling thread; after all have
// ended, the first exception reaches the caller. Inside a PartPool::Use
// (finish()) the pool's threads run the other parts.
template <typename Body>
void forEachPart(int parts, Body body) {
  if (parts <= 1) {
    body(0);
    return;
  }
  if (PartPool* pool = PartPool::current()) {
    pool->run(parts, std::function<void(int)>(std::ref(body)));
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(parts));
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<std::size_t>(parts - 1));
  auto run = [&](int part) {
    try {
      body(part);
    } catch (...) {
      errors[static_cast<std::size_t>(part)] = std::current_exception();
    }
  };
  for (int part = 1; part < parts; ++part) {
    try {
      helpers.emplace_back(run, part);
    } catch (...) {  // no thread to be had (system_error, or bad_alloc for its state)
      run(part);     // this one does the part; the threads started are joined below
    }
  }
  run(0);
  for (std::thread& h : helpers) h.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

// Sorts [first, last) in place with up to `threads` threads: ranges split
// around median-of-three pivots, a level at a time (the ranges of a level
// side by side), until each has one thread, then std::sort on each. The
// parts allocate nothing (a thread that did would get a malloc arena of
// its own). Where `less` orders every pair of distinct elements (no two
// equivalent), the result is std::sort's.
template <typename It, typename Less>
void parallelSort(It first, It last, Less less, int threads) {
  struct Range {
    It first;
    It last;
    int threads;
    It split;  // set while splitting: first or last when it could not be split
    bool splits() const { return threads > 1 && static_cast<std::size_t>(last - first) > kParallelAbove; }
  };
  std::vector<Range> ranges{{first, last, threads, first}};
  auto splitAroundPivot = [&less](Range& r) {
    const auto n = static_cast<std::size_t>(r.last - r.first);
    const auto& a = *r.first;
    const auto& b = *(r.first + static_cast<std::ptrdiff_t>(n / 2));
    const auto& c = *(r.last - 1);
    const auto pivot = less(a, b) ? (less(b, c) ? b : (less(a, c) ? c : a)) : (less(a, c) ? a : (less(b, c) ? c : b));
    r.split = std::partition(r.first, r.last, [&](const auto& x) { return less(x, pivot); });
  };
  std::vector<std::size_t> splitting;  // the ranges of this level that split, a thread each
  while (true) {
    splitting.clear();
    for (std::size_t i = 0; i < ranges.size(); ++i)
      if (ranges[i].splits()) splitting.push_back(i);
    if (splitting.empty()) break;
    forEachPart(static_cast<int>(splitting.size()),
                [&](int k) { splitAroundPivot(ranges[splitting[static_cast<std::size_t>(k)]]); });
    std::vector<Range> next;
    for (const Range& r : ranges) {
      if (!r.splits() || r.split == r.first || r.split == r.last) {  // a leaf (or all equivalent)
        next.push_back({r.first, r.last, 1, r.first});
        continue;
      }
      const double share = static_cast<double>(r.split - r.first) / static_cast<double>(r.last - r.first);
      const int left = std::clamp(static_cast<int>(r.threads * share + 0.5), 1, r.threads - 1);
      next.push_back({r.first, r.split, left, r.first});
      next.push_back({r.split, r.last, r.threads - left, r.split});
    }
    ranges = std::move(next);
  }
  forEachPart(static_cast<int>(ranges.size()), [&](int i) {
    std::sort(ranges[static_cast<std::size_t>(i)].first, ranges[static_cast<std::size_t>(i)].last, less);
  });
}

}  // namespace gapscope::detail
