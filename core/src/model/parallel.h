// Splitting finish()'s passes over millions of slices and flow events
// between threads. On a 10 GB trace on 16 cores the finish step was 43 % of
// the load, most of it one thread's sorts and passes (docs/performance.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

namespace gapscope::detail {

// Below this many items a pass stays on one thread: starting one costs
// more than it saves.
inline constexpr std::size_t kParallelAbove = 50000;

// The parts to split `items` into with up to `threads` threads.
inline int partsFor(std::size_t items, int threads) { return items > kParallelAbove ? std::max(1, threads) : 1; }

// Part `part` of [0, items) split into `parts` ranges of nearly equal size.
inline std::pair<std::size_t, std::size_t> partRange(std::size_t items, int parts, int part) {
  const auto p = static_cast<std::size_t>(part);
  const auto n = static_cast<std::size_t>(parts);
  return {items * p / n, items * (p + 1) / n};
}

// Runs body(part) for every part in [0, parts), part 0 on the calling
// thread; after all have ended, the first exception reaches the caller.
template <typename Body>
void forEachPart(int parts, Body body) {
  if (parts <= 1) {
    body(0);
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
  for (int part = 1; part < parts; ++part) helpers.emplace_back(run, part);
  run(0);
  for (std::thread& h : helpers) h.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

// Sorts [first, last) in place with up to `threads` threads: split around
// a median-of-three pivot, the two sides sorted side by side with threads
// shared by size, down to std::sort. Where `less` orders every pair of
// distinct elements (no two equivalent), the result is std::sort's.
template <typename It, typename Less>
void parallelSort(It first, It last, Less less, int threads) {
  const auto n = static_cast<std::size_t>(last - first);
  if (threads <= 1 || n <= kParallelAbove) {
    std::sort(first, last, less);
    return;
  }
  const auto& a = *first;
  const auto& b = *(first + static_cast<std::ptrdiff_t>(n / 2));
  const auto& c = *(last - 1);
  const auto pivot = less(a, b) ? (less(b, c) ? b : (less(a, c) ? c : a)) : (less(a, c) ? a : (less(b, c) ? c : b));
  const It split = std::partition(first, last, [&](const auto& x) { return less(x, pivot); });
  if (split == first || split == last) {  // equivalent elements everywhere: no useful split
    std::sort(first, last, less);
    return;
  }
  const auto leftSize = static_cast<std::size_t>(split - first);
  const int leftThreads =
      std::clamp(static_cast<int>((static_cast<double>(threads) * static_cast<double>(leftSize)) / static_cast<double>(n) + 0.5), 1, threads - 1);
  forEachPart(2, [&](int part) {
    if (part == 0) parallelSort(first, split, less, leftThreads);
    else parallelSort(split, last, less, threads - leftThreads);
  });
}

}  // namespace gapscope::detail
