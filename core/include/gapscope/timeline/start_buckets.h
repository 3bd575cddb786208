// A time-bucket index over a start-sorted sequence, so "first element
// starting at or after t" touches a small array instead of bisecting
// millions of elements spread over hundreds of megabytes.
//
// The sequence's time span is cut into equal buckets (at most 65536, about
// 32 elements each on average); first[b] is the first position starting in
// or after bucket b. A query then only searches one bucket's positions.
// Zoomed out, the level-of-detail walk asks once per pixel with thousands of
// slices in between: with the index each question costs a lookup in a
// cache-resident array plus a short search, instead of ~20 cache misses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "gapscope/model/types.h"

namespace gapscope::timeline {

class StartBuckets {
 public:
  // Fewer elements than this are searched directly: an index would not pay.
  static constexpr std::uint32_t kMinElements = 4096;

  // `startAt(k)` gives the start of position k; starts must not decrease.
  template <class StartAt>
  void build(std::uint32_t count, StartAt startAt) {
    first_.clear();
    count_ = count;
    if (count < kMinElements) return;
    origin_ = startAt(0);
    const TimeNs span = startAt(count - 1) - origin_ + 1;
    const std::uint32_t buckets = std::clamp<std::uint32_t>(count / 32, 1, 1u << 16);
    width_ = std::max<TimeNs>(1, (span + buckets - 1) / buckets);
    first_.resize(static_cast<std::size_t>(buckets) + 1);
    std::uint32_t k = 0;
    for (std::uint32_t b = 0; b <= buckets; ++b) {
      const TimeNs edge = origin_ + static_cast<TimeNs>(b) * width_;
      while (k < count && startAt(k) < edge) ++k;
      first_[b] = k;
    }
  }

  bool empty() const { return first_.empty(); }

  // Positions [lo, hi] between which the first position starting at or
  // after t lies.
  std::pair<std::uint32_t, std::uint32_t> range(TimeNs t) const {
    if (first_.empty()) return {0, count_};
    if (t <= origin_) return {0, 0};
    const auto buckets = static_cast<TimeNs>(first_.size() - 1);
    const TimeNs b = (t - origin_) / width_;
    if (b >= buckets) return {count_, count_};
    const auto i = static_cast<std::size_t>(b);
    return {first_[i], first_[i + 1]};
  }

  // Bucket width in ns (0 without an index).
  TimeNs width() const { return first_.empty() ? 0 : width_; }

  // Bucket edges are numbered 0 .. edges() - 1; edge e is at origin + e x
  // width(), and the last one lies after every element's start.
  std::size_t edges() const { return first_.size(); }
  // The first edge at or after t (the last edge when t is past it). Its
  // firstAtEdge is an O(1) answer to "first position at or after t" that
  // may skip elements starting in [t, t + width()): the level-of-detail
  // walk uses it when a bucket is no wider than a pixel, where skipping
  // them cannot leave a pixel unmarked. Requires a built index.
  std::size_t edgeAtOrAfter(TimeNs t) const {
    if (first_.empty() || t <= origin_) return 0;
    const auto last = static_cast<TimeNs>(first_.size() - 1);
    return static_cast<std::size_t>(std::min(last, (t - origin_ + width_ - 1) / width_));
  }
  // The first position starting at or after edge e.
  std::uint32_t firstAtEdge(std::size_t e) const { return first_[e]; }

  std::size_t memoryBytes() const { return first_.capacity() * sizeof(std::uint32_t); }

 private:
  TimeNs origin_ = 0;
  TimeNs width_ = 1;
  std::uint32_t count_ = 0;
  std::vector<std::uint32_t> first_;
};

}  // namespace gapscope::timeline
