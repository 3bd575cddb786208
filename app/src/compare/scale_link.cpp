#include "compare/scale_link.h"

#include <algorithm>

#include "timeline/timeline_widget.h"

namespace gapscope::app {

ScaleLink::ScaleLink(TimelineWidget* a, TimelineWidget* b, QObject* parent) : QObject(parent), a_(a), b_(b) {
  connect(a_, &TimelineWidget::scaleChanged, this, [this] { follow(a_, b_, offset_); });
  connect(b_, &TimelineWidget::scaleChanged, this, [this] { follow(b_, a_, -offset_); });
}

void ScaleLink::setOffset(TimeNs offset) {
  offset_ = offset;
  follow(a_, b_, offset_);
}

void ScaleLink::setContents(TimeNs aStart, TimeNs aEnd, TimeNs bStart, TimeNs bEnd) {
  // Some room beyond both ends, as a single timeline has.
  const TimeNs lo = std::min(aStart, bStart - offset_);
  const TimeNs hi = std::max(aEnd, bEnd - offset_);
  const TimeNs pad = std::max<TimeNs>((hi - lo) / 20, 1);
  a_->setPanLimits(lo - pad, hi + pad);
  b_->setPanLimits(lo - pad + offset_, hi + pad + offset_);
}

void ScaleLink::follow(TimelineWidget* from, TimelineWidget* to, TimeNs offset) {
  if (following_) return;
  following_ = true;
  to->setScale(from->scale().shifted(offset));
  following_ = false;
}

}  // namespace gapscope::app
