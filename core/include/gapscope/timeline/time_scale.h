// The mapping between trace time and horizontal pixels of the timeline: a
// small value type, copied freely, with every navigation step (zoom at a
// point, pan, fit) as a function returning a new scale.
//
// Why the start is an int64 plus a fraction: Kineto timestamps are around
// 4.5e15 ns, so a double start would lose sub-nanosecond precision and
// panning at the deepest zoom (1/16 ns per pixel) would jitter.
#pragma once

#include <cstdint>

#include "gapscope/model/types.h"

namespace gapscope::timeline {

class TimeScale {
 public:
  // Deepest zoom: 16 pixels per nanosecond; below that nothing new appears.
  static constexpr double kMinNsPerPixel = 1.0 / 16.0;
  // Widest zoom: 1e5 s per pixel (years across a view). Real traces mix
  // clock domains (catapult's fuchsia trace: async events 12 days before
  // the rest), and "fit all" must still fit.
  static constexpr double kMaxNsPerPixel = 1e14;

  TimeScale() = default;
  TimeScale(TimeNs start, double nsPerPixel, double widthPx);

  // Shows [start, end) across `widthPx` pixels (an empty range shows 1 ns).
  static TimeScale fit(TimeNs start, TimeNs end, double widthPx);

  TimeNs start() const { return start_; }
  // Sub-nanosecond part of the left edge, in [0, 1).
  double startFraction() const { return fraction_; }
  TimeNs end() const;  // rounded up: the last instant still on screen
  double nsPerPixel() const { return nsPerPixel_; }
  double width() const { return width_; }
  double duration() const { return nsPerPixel_ * width_; }

  double toPixel(TimeNs t) const {
    return (static_cast<double>(t - start_) - fraction_) / nsPerPixel_;
  }
  TimeNs toTime(double x) const;  // rounded down
  // Duration in nanoseconds that `px` pixels cover.
  double nsFor(double px) const { return px * nsPerPixel_; }

  // Zooms by `factor` (> 1 zooms in) keeping the time under pixel `anchorX` in place.
  TimeScale zoomed(double factor, double anchorX) const;
  // Moves the view `dx` pixels to the right (the content moves left).
  TimeScale panned(double dx) const;
  // Same left edge and zoom on a new width.
  TimeScale resized(double widthPx) const;
  // The same view of another clock: start moved by `offset` ns, zoom, width
  // and sub-nanosecond part kept (two runs compared side by side).
  TimeScale shifted(TimeNs offset) const;
  // Keeps the view inside [lo, hi] where it can (a view wider than the
  // range is centred on it).
  TimeScale clampedTo(TimeNs lo, TimeNs hi) const;

  friend bool operator==(const TimeScale&, const TimeScale&) = default;

 private:
  TimeNs start_ = 0;
  double fraction_ = 0;
  double nsPerPixel_ = 1;
  double width_ = 1;
};

}  // namespace gapscope::timeline
