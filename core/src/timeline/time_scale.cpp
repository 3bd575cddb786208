#include "gapscope/timeline/time_scale.h"

#include <algorithm>
#include <cmath>

namespace gapscope::timeline {

namespace {

double clampNsPerPixel(double v) {
  if (!(v > 0) || std::isnan(v)) return 1.0;
  return std::clamp(v, TimeScale::kMinNsPerPixel, TimeScale::kMaxNsPerPixel);
}

// Splits a fractional time (relative to `base`) into an integer start and a fraction.
void splitTime(TimeNs base, double offset, TimeNs* start, double* fraction) {
  const double whole = std::floor(offset);
  *start = base + static_cast<TimeNs>(whole);
  *fraction = offset - whole;
}

}  // namespace

TimeScale::TimeScale(TimeNs start, double nsPerPixel, double widthPx)
    : start_(start), nsPerPixel_(clampNsPerPixel(nsPerPixel)), width_(std::max(1.0, widthPx)) {}

TimeScale TimeScale::fit(TimeNs start, TimeNs end, double widthPx) {
  const double w = std::max(1.0, widthPx);
  const double span = std::max<double>(1.0, static_cast<double>(end - start));
  return TimeScale(start, span / w, w);
}

TimeNs TimeScale::end() const {
  return start_ + static_cast<TimeNs>(std::ceil(fraction_ + duration()));
}

TimeNs TimeScale::toTime(double x) const {
  return start_ + static_cast<TimeNs>(std::floor(fraction_ + x * nsPerPixel_));
}

TimeScale TimeScale::zoomed(double factor, double anchorX) const {
  if (!(factor > 0)) return *this;
  TimeScale out = *this;
  out.nsPerPixel_ = clampNsPerPixel(nsPerPixel_ / factor);
  // The anchor's time offset from start must stay at anchorX pixels.
  const double anchorOffset = fraction_ + anchorX * nsPerPixel_;
  const double newOffset = anchorOffset - anchorX * out.nsPerPixel_;
  splitTime(start_, newOffset, &out.start_, &out.fraction_);
  return out;
}

TimeScale TimeScale::panned(double dx) const {
  TimeScale out = *this;
  splitTime(start_, fraction_ + dx * nsPerPixel_, &out.start_, &out.fraction_);
  return out;
}

TimeScale TimeScale::resized(double widthPx) const {
  TimeScale out = *this;
  out.width_ = std::max(1.0, widthPx);
  return out;
}

TimeScale TimeScale::shifted(TimeNs offset) const {
  TimeScale out = *this;
  out.start_ = start_ + offset;
  return out;
}

TimeScale TimeScale::clampedTo(TimeNs lo, TimeNs hi) const {
  if (hi < lo) return *this;
  TimeScale out = *this;
  const double span = static_cast<double>(hi - lo);
  const double shown = duration();
  if (shown >= span) {
    splitTime(lo, (span - shown) / 2, &out.start_, &out.fraction_);
    return out;
  }
  const double offset = static_cast<double>(start_ - lo) + fraction_;
  const double clamped = std::clamp(offset, 0.0, span - shown);
  splitTime(lo, clamped, &out.start_, &out.fraction_);
  return out;
}

}  // namespace gapscope::timeline
