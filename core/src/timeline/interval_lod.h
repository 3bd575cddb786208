// The level-of-detail walk shared by slice rows and the gap overlay (see
// level_of_detail.h for the idea). `Row` is any start-sorted sequence with
//   size(), start(k), end(k), id(k), colour(k), lowerBoundStart(t, from),
//   buckets() (a StartBuckets*, may be null).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gapscope/timeline/edge_visits.h"
#include "gapscope/timeline/level_of_detail.h"
#include "gapscope/timeline/start_buckets.h"

namespace gapscope::timeline::detail {

template <class Row>
class IntervalWalk {
 public:
  IntervalWalk(const Row& row, const TimeScale& scale, std::vector<IntervalRect>& out)
      : row_(row), scale_(scale), out_(out) {}

  // Walks positions [first, ...) up to the right edge of the scale.
  void run(std::uint32_t first, bool disjoint) {
    const TimeNs t1 = scale_.end();
    std::uint32_t k = first;
    while (k < row_.size()) {
      const IntervalVisit* copy = copyOf(k);
      if ((copy ? copy->start : row_.start(k)) > t1) break;
      k = step(k, copy, disjoint);
    }
    flush();
  }

 private:
  struct Run {
    bool active = false;
    double x0 = 0;  // whole pixels
    double x1 = 0;
    std::uint32_t widest = 0;
    TimeNs widestDur = -1;
    std::uint16_t colour = 0;
  };

  // Position k's copy when the last jump landed next to it (edge_visits.h),
  // else null: read the row. Fields are read only where needed, as reading
  // a slice's colour costs a lookup.
  const IntervalVisit* copyOf(std::uint32_t k) const {
    for (const Cached& c : cached_)
      if (c.pos == k) return &c.visit;
    return nullptr;
  }

  // Handles position k (`copy` as copyOf(k)); returns the next position to look at.
  std::uint32_t step(std::uint32_t k, const IntervalVisit* copy, bool mayJump) {
    const TimeNs start = copy ? copy->start : row_.start(k);
    const TimeNs end = copy ? copy->end : row_.end(k);
    const double x0 = scale_.toPixel(start);
    const double x1 = scale_.toPixel(end);
    if (x1 - x0 >= kMinRectPx) {
      flush();
      emit(x0, x1, copy ? copy->id : row_.id(k), copy ? copy->colour : row_.colour(k), false);
      return k + 1;
    }
    const double px = std::floor(x0);
    const double runEnd = std::max(px + 1, std::ceil(x1));
    if (run_.active && px <= run_.x1) {
      run_.x1 = std::max(run_.x1, runEnd);
    } else {
      flush();
      run_ = Run{true, px, runEnd, 0, -1, 0};
    }
    const TimeNs dur = end - start;
    if (dur > run_.widestDur) {
      run_.widest = copy ? copy->id : row_.id(k);
      run_.widestDur = dur;
      run_.colour = copy ? copy->colour : row_.colour(k);
    }
    if (!mayJump) return k + 1;
    // Skip the rest of this pixel. In a disjoint row only the last interval
    // starting inside the pixel can reach beyond it, so it is not skipped.
    const std::uint32_t next = nextPixelStart(scale_.toTime(px + 1), k + 1);
    return next - 1 > k ? next - 1 : next;
  }

  // The first position starting at or after t (a pixel edge), or - when the
  // row's time buckets are no wider than a pixel - the first one after the
  // next bucket edge: that may pass over intervals starting in the next
  // pixel, but the one just before it is visited and marks that pixel, and
  // in a disjoint row everything passed over ends before it starts.
  std::uint32_t nextPixelStart(TimeNs t, std::uint32_t from) {
    const StartBuckets* b = row_.buckets();
    if (b && b->width() > 0 && static_cast<double>(b->width()) <= scale_.nsPerPixel()) {
      const std::size_t edge = b->edgeAtOrAfter(t);
      const std::uint32_t first = b->firstAtEdge(edge);
      if (const EdgeVisits* edges = row_.edges()) {
        cached_[0] = {first > 0 ? first - 1 : kNone, edges->at(edge).before};
        cached_[1] = {first < row_.size() ? first : kNone, edges->at(edge).at};
      }
      return std::max(from, first);
    }
    return row_.lowerBoundStart(t, from);
  }

  void flush() {
    if (!run_.active) return;
    emit(run_.x0, run_.x1, run_.widest, run_.colour, true);
    run_.active = false;
  }

  void emit(double x0, double x1, std::uint32_t id, std::uint16_t colour, bool merged) {
    const double w = scale_.width();
    IntervalRect r;
    r.x0 = static_cast<float>(std::clamp(x0, -1.0, w + 1));
    r.x1 = static_cast<float>(std::clamp(x1, -1.0, w + 1));
    r.index = id;
    r.colour = colour;
    r.merged = merged;
    out_.push_back(r);
  }

  static constexpr std::uint32_t kNone = 0xffffffffu;
  struct Cached {
    std::uint32_t pos = kNone;
    IntervalVisit visit;
  };

  const Row& row_;
  const TimeScale& scale_;
  std::vector<IntervalRect>& out_;
  Run run_;
  Cached cached_[2];
};

}  // namespace gapscope::timeline::detail
