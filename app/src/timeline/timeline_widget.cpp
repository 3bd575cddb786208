#include "timeline/timeline_widget.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "app_setup.h"
#include "gapscope/timeline/slice_queries.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

constexpr double kKeyZoomFactor = 1.25;  // W/S, one key press (auto-repeat keeps going)
constexpr double kKeyPanFraction = 0.15;  // A/D, of the visible width
constexpr double kDragThreshold = 4;     // pixels before a press becomes a drag
constexpr double kHitSlopPx = 3;         // thin slices are hit this far around

}  // namespace

TimelineWidget::TimelineWidget(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), palette_(TimelinePalette::forDark(paletteIsDark())) {
  setObjectName(QStringLiteral("timeline"));
  // Every pixel is painted each frame: no need for Qt to clear first.
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 200);
  connect(session_, &TraceSession::traceChanged, this, &TimelineWidget::onTraceChanged);
  connect(session_, &TraceSession::selectionChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::highlightsChanged, this, qOverload<>(&QWidget::update));
  connect(session_, &TraceSession::gapOverlayChanged, this, &TimelineWidget::invalidate);
  connect(session_, &TraceSession::revealRequested, this, &TimelineWidget::onReveal);
  connect(session_, &TraceSession::rangeChanged, this, [this] {
    const auto r = session_->range();
    measure_ = r ? std::optional(std::make_pair(r->start, r->end)) : std::nullopt;
    update();
    emit measureChanged();
  });
  onTraceChanged();
}

void TimelineWidget::onTraceChanged() {
  if (session_->liveUpdate()) {
    onLiveUpdate();
    return;
  }
  names_.reset(session_->hasTrace() ? &session_->trace() : nullptr);
  choices_ = {};
  if (session_->hasTrace()) {
    for (const auto& g : session_->layout().groups()) choices_.collapsedGroups.push_back(g.collapsedByDefault);
  }
  measure_.reset();
  panLimits_.reset();
  hoverSlice_ = kNoIndex;
  scrollY_ = 0;
  rebuildVertical();
  pinSmallGpuGroups();
  fitOpening();
  if (session_->hasTrace()) {
    shownContentStart_ = session_->layout().contentStart();
    shownContentEnd_ = session_->layout().contentEnd();
    laneCountShown_ = session_->layout().lanes().size();
  }
}

// Same lanes as before plus whatever appeared: the user's folding and
// pinning stay when the groups are the same ones, the time range stays
// unless following.
void TimelineWidget::onLiveUpdate() {
  const bool wasWhole = wholeContentShown();
  names_.reset(&session_->trace());
  const auto& groups = session_->layout().groups();
  // Choices name groups and lanes by index: kept only when no group or lane
  // appeared (a new thread or stream shifts the indices after it).
  if (choices_.collapsedGroups.size() != groups.size() || laneCountShown_ != session_->layout().lanes().size()) {
    choices_ = {};
    for (const auto& g : groups) choices_.collapsedGroups.push_back(g.collapsedByDefault);
    rebuildVertical();
    pinSmallGpuGroups();
  } else {
    rebuildVertical();
  }
  hoverSlice_ = kNoIndex;
  clampScroll();
  if (following_ && wasWhole) {
    fitAll();
  } else if (following_) {
    showContentEnd();
  } else {
    setScale(scale_);  // the pan limits grew with the content
  }
  shownContentStart_ = session_->layout().contentStart();
  shownContentEnd_ = session_->layout().contentEnd();
  laneCountShown_ = session_->layout().lanes().size();
  invalidate();
  emit verticalChanged();
}

bool TimelineWidget::wholeContentShown() const {
  return scale_.start() <= shownContentStart_ && scale_.end() >= shownContentEnd_;
}

// The user's zoom, the right edge at the end of the content (and its margin).
void TimelineWidget::showContentEnd() {
  const auto& layout = session_->layout();
  const TimeNs margin = std::max<TimeNs>((layout.contentEnd() - layout.contentStart()) / 20, 1);
  const double width = timeAreaWidth();
  const TimeNs start = layout.contentEnd() + margin - static_cast<TimeNs>(scale_.nsPerPixel() * width);
  setScale(timeline::TimeScale(start, scale_.nsPerPixel(), width));
}

void TimelineWidget::setFollowing(bool on) {
  if (following_ == on) return;
  following_ = on;
  if (on && session_->hasTrace()) showContentEnd();
  emit followingChanged(on);
}

// The GPU devices stay in view while the CPU threads scroll under them, as
// long as they take at most this share of the view: a trace of many GPUs
// keeps them all scrolling.
constexpr double kMaxAutoPinnedShare = 0.4;

void TimelineWidget::pinSmallGpuGroups() {
  if (!session_->hasTrace()) return;
  const auto& groups = session_->layout().groups();
  double height = 0;
  std::vector<std::uint32_t> gpu;
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    if (groups[g].kind != timeline::GroupKind::Gpu || groupCollapsed(g)) continue;
    gpu.push_back(g);
    height += vertical_.metrics().groupHeader;
    for (std::uint32_t l : groups[g].lanes) height += vertical_.laneHeight(l) + vertical_.metrics().laneGap;
  }
  if (gpu.empty() || height > kMaxAutoPinnedShare * std::max(viewHeight(), 400.0)) return;
  choices_.pinnedGroups.assign(groups.size(), false);
  for (std::uint32_t g : gpu) choices_.pinnedGroups[g] = true;
  rebuildVertical();
}

void TimelineWidget::rebuildVertical() {
  if (session_->hasTrace()) {
    const QFontMetrics fm(font());
    timeline::VerticalMetrics m;
    // Rows follow the font so HiDPI and large-font setups stay readable.
    m.rowHeight = std::max(16, fm.height() + 4);
    m.groupHeader = std::max(22, fm.height() + 8);
    m.counterHeight = 2.5 * m.rowHeight;
    vertical_ = timeline::VerticalLayout(session_->layout(), choices_, m);
  } else {
    vertical_ = timeline::VerticalLayout();
  }
  clampScroll();
  invalidate();
  emit verticalChanged();
}

void TimelineWidget::setAxisOrigin(std::optional<TimeNs> origin) {
  if (origin == axisOrigin_) return;
  axisOrigin_ = origin;
  invalidate();
}

void TimelineWidget::invalidate() {
  ++version_;
  update();
}

double TimelineWidget::timeAreaWidth() const { return std::max(1.0, width() - chrome_.namesWidth); }
double TimelineWidget::viewHeight() const { return std::max(0.0, height() - chrome_.axisHeight); }
double TimelineWidget::xOf(TimeNs t) const { return chrome_.namesWidth + scale_.toPixel(t); }
TimeNs TimelineWidget::timeAt(double x) const { return scale_.toTime(x - chrome_.namesWidth); }

void TimelineWidget::setScale(const timeline::TimeScale& scale) {
  timeline::TimeScale next = scale.resized(timeAreaWidth());
  if (panLimits_) {
    next = next.clampedTo(panLimits_->first, panLimits_->second);
  } else if (session_->hasTrace()) {
    // Some room beyond both ends, so the first and last slices are not glued to the edges.
    const auto& layout = session_->layout();
    const TimeNs span = layout.contentEnd() - layout.contentStart();
    const TimeNs pad = std::max<TimeNs>(span / 20, 1);
    next = next.clampedTo(layout.contentStart() - pad, layout.contentEnd() + pad);
  }
  if (next == scale_) return;
  scale_ = next;
  update();
  emit scaleChanged();
}

void TimelineWidget::setPanLimits(TimeNs lo, TimeNs hi) { panLimits_ = std::make_pair(lo, hi); }

void TimelineWidget::fitAll() {
  if (!session_->hasTrace()) {
    setScale(timeline::TimeScale::fit(0, 1000000, timeAreaWidth()));
    return;
  }
  fitRange(session_->layout().contentStart(), session_->layout().contentEnd());
}

// A few events far from all the others (analysis::OutlyingEvents) would
// leave the others in one pixel column: the trace opens on the others.
void TimelineWidget::fitOpening() {
  if (session_->hasTrace()) {
    const analysis::OutlyingEvents& o = session_->analysis().summary().outlying;
    if (o.count > 0) {
      fitRange(o.denseStart, o.denseEnd);
      return;
    }
  }
  fitAll();
}

void TimelineWidget::fitRange(TimeNs start, TimeNs end) {
  if (end < start) std::swap(start, end);
  const TimeNs margin = std::max<TimeNs>((end - start) / 20, 1);
  setScale(timeline::TimeScale::fit(start - margin, end + margin, timeAreaWidth()));
}

void TimelineWidget::fitSelection() {
  if (!session_->hasTrace()) return;
  const Selection sel = session_->selection();
  if (sel.kind == Selection::Kind::Slice) {
    const Slice& s = session_->trace().slices[sel.index];
    fitRange(s.start, s.end());
  } else if (sel.kind == Selection::Kind::Gap) {
    const auto& g = session_->gaps().gaps[sel.index];
    fitRange(g.start, g.end());
  } else if (measure_) {
    fitRange(measure_->first, measure_->second);
  }
}

void TimelineWidget::zoomAt(double factor, double x) {
  const double px = std::clamp(x - chrome_.namesWidth, 0.0, timeAreaWidth());
  setScale(scale_.zoomed(factor, px));
}

void TimelineWidget::panBy(double dx) {
  setFollowing(false);
  setScale(scale_.panned(dx));
}

void TimelineWidget::setScrollY(double y) {
  const double old = scrollY_;
  scrollY_ = y;
  clampScroll();
  if (scrollY_ != old) {
    update();
    emit verticalChanged();
  }
}

void TimelineWidget::clampScroll() {
  scrollY_ = std::clamp(scrollY_, 0.0, vertical_.maxScroll(viewHeight()));
  scrollY_ = std::round(scrollY_);  // whole pixels keep edges sharp
}

bool TimelineWidget::groupCollapsed(std::uint32_t group) const {
  return group < choices_.collapsedGroups.size() && choices_.collapsedGroups[group];
}

void TimelineWidget::setGroupCollapsed(std::uint32_t group, bool collapsed) {
  if (group >= choices_.collapsedGroups.size() || choices_.collapsedGroups[group] == collapsed) return;
  choices_.collapsedGroups[group] = collapsed;
  rebuildVertical();
}

bool TimelineWidget::laneCollapsed(std::uint32_t lane) const {
  return lane < choices_.collapsedLanes.size() && choices_.collapsedLanes[lane];
}

void TimelineWidget::setLaneCollapsed(std::uint32_t lane, bool collapsed) {
  if (!session_->hasTrace() || lane >= session_->layout().lanes().size() || laneCollapsed(lane) == collapsed) return;
  choices_.collapsedLanes.resize(session_->layout().lanes().size(), false);
  choices_.collapsedLanes[lane] = collapsed;
  rebuildVertical();
}

bool TimelineWidget::groupPinned(std::uint32_t group) const {
  return group < choices_.pinnedGroups.size() && choices_.pinnedGroups[group];
}

void TimelineWidget::setGroupPinned(std::uint32_t group, bool pinned) {
  if (!session_->hasTrace() || group >= session_->layout().groups().size() || groupPinned(group) == pinned) return;
  choices_.pinnedGroups.resize(session_->layout().groups().size(), false);
  choices_.pinnedGroups[group] = pinned;
  rebuildVertical();
}

bool TimelineWidget::lanePinned(std::uint32_t lane) const {
  return std::find(choices_.pinnedLanes.begin(), choices_.pinnedLanes.end(), lane) != choices_.pinnedLanes.end();
}

void TimelineWidget::setLanePinned(std::uint32_t lane, bool pinned) {
  if (!session_->hasTrace() || lane >= session_->layout().lanes().size() || lanePinned(lane) == pinned) return;
  if (pinned) choices_.pinnedLanes.push_back(lane);
  else std::erase(choices_.pinnedLanes, lane);
  rebuildVertical();
}

std::uint32_t TimelineWidget::laneNameAt(const QPointF& pos) const {
  if (!session_->hasTrace() || pos.x() >= chrome_.namesWidth || pos.y() < chrome_.axisHeight) return kNoIndex;
  const auto hit = vertical_.hitTest(toContentY(pos.y()));
  return hit.header ? kNoIndex : hit.lane;
}

QRectF TimelineWidget::sliceRect(std::uint32_t slice) const {
  if (!session_->hasTrace()) return {};
  const std::uint32_t row = session_->layout().rowOfSlice(session_->trace(), slice);
  if (row == kNoIndex || !vertical_.rowShown(row)) return {};
  const Slice& s = session_->trace().slices[slice];
  const double x0 = xOf(s.start);
  const double x1 = xOf(s.end());
  const double y = toScreenY(vertical_.rowY(row));
  return QRectF(x0, y + 1, std::max(x1 - x0, 1.0), vertical_.rowHeight(row) - 2);
}

QRectF TimelineWidget::laneRect(std::uint32_t lane) const {
  if (!session_->hasTrace() || lane >= session_->layout().lanes().size()) return {};
  const double h = vertical_.laneHeight(lane);
  if (h <= 0) return {};
  return QRectF(chrome_.namesWidth, toScreenY(vertical_.laneY(lane)), width() - chrome_.namesWidth, h);
}

std::optional<std::pair<double, double>> TimelineWidget::gapContentSpan(std::uint32_t gap) const {
  if (!session_->hasTrace() || gap >= session_->gaps().gaps.size()) return std::nullopt;
  const auto& g = session_->gaps().gaps[gap];
  const auto& overlay = session_->gapOverlay();
  const std::uint32_t lane = overlay.laneOfGap(g);
  if (lane != kNoIndex) {
    if (vertical_.laneHeight(lane) <= 0) return std::nullopt;
    return std::make_pair(vertical_.laneY(lane), vertical_.laneHeight(lane));
  }
  // A device gap: the band along the bottom of the device's header strip.
  const std::uint32_t group = overlay.groupOfGap(g);
  if (group == kNoIndex || group >= session_->layout().groups().size()) return std::nullopt;
  return std::make_pair(vertical_.groupY(group) + vertical_.metrics().groupHeader - 6, 6.0);
}

QRectF TimelineWidget::gapRect(std::uint32_t gap) const {
  const auto span = gapContentSpan(gap);
  if (!span) return {};
  const auto& g = session_->gaps().gaps[gap];
  const double x0 = xOf(g.start);
  return QRectF(x0, toScreenY(span->first), std::max(xOf(g.end()) - x0, 1.0), span->second);
}

std::uint32_t TimelineWidget::sliceAtPoint(const QPointF& pos) const {
  if (!session_->hasTrace() || pos.x() < chrome_.namesWidth || pos.y() < chrome_.axisHeight) return kNoIndex;
  const auto hit = vertical_.hitTest(toContentY(pos.y()));
  if (hit.row == kNoIndex) return kNoIndex;
  const auto slop = static_cast<TimeNs>(std::ceil(scale_.nsFor(kHitSlopPx)));
  const double px = pos.x() - chrome_.namesWidth;
  const TimeNs t = scale_.toTime(px);
  return timeline::sliceAt(session_->trace(), session_->layout(), hit.row, t, slop);
}

std::uint32_t TimelineWidget::gapAtPoint(const QPointF& pos) const {
  if (!session_->hasTrace() || !session_->gapsShown() || pos.x() < chrome_.namesWidth) return kNoIndex;
  const auto hit = vertical_.hitTest(toContentY(pos.y()));
  const auto& overlay = session_->gapOverlay();
  const std::vector<std::uint32_t>* candidates = nullptr;
  if (hit.lane != kNoIndex) {
    candidates = &overlay.laneGaps(hit.lane).indices;
  } else if (hit.header && hit.group < session_->layout().groups().size()) {
    candidates = &overlay.groupGaps(hit.group).indices;
  }
  if (!candidates || candidates->empty()) return kNoIndex;
  const auto& gaps = session_->gaps().gaps;
  const TimeNs t = timeAt(pos.x());
  const auto slop = static_cast<TimeNs>(std::ceil(scale_.nsFor(kHitSlopPx)));
  // Gaps of one lane are disjoint and sorted: the first ending after t - slop.
  const auto it = std::partition_point(candidates->begin(), candidates->end(),
                                       [&](std::uint32_t g) { return gaps[g].end() < t - slop; });
  if (it == candidates->end() || gaps[*it].start > t + slop) return kNoIndex;
  return *it;
}

std::uint32_t TimelineWidget::groupHeaderAt(const QPointF& pos) const {
  if (!session_->hasTrace() || pos.y() < chrome_.axisHeight) return kNoIndex;
  const auto hit = vertical_.hitTest(toContentY(pos.y()));
  return hit.header && hit.group != timeline::kPinnedGroup ? hit.group : kNoIndex;
}

std::optional<std::pair<TimeNs, TimeNs>> TimelineWidget::measuredRange() const {
  const auto r = session_->range();
  return r ? std::optional(std::make_pair(r->start, r->end)) : std::nullopt;
}

void TimelineWidget::onReveal(qint64 start, qint64 end, quint32 slice, bool fit) {
  if (!session_->hasTrace()) return;
  setFollowing(false);  // the user went somewhere
  if (fit) {
    fitRange(start, end);
    revealRow(slice);
    return;
  }
  const double x0 = scale_.toPixel(start);
  const double x1 = scale_.toPixel(end);
  const bool fullyVisible = x0 >= 0 && x1 <= scale_.width();
  const bool tooSmall = x1 - x0 < 2;
  if (!fullyVisible || tooSmall) {
    const double span = static_cast<double>(end - start);
    if (!tooSmall && span < scale_.duration() * 0.8) {
      // Keep the zoom, centre the range.
      const double centre = (x0 + x1) / 2;
      setScale(scale_.panned(centre - scale_.width() / 2));
    } else {
      fitRange(start, end);
    }
  }
  revealRow(slice);
}

// Shows the row of `slice`; with a gap selected, the gap's lane too when
// both fit: the GPU lanes are on top and the CPU work blamed for the gap is
// further down.
void TimelineWidget::revealRow(std::uint32_t slice) {
  if (slice == kNoIndex) return;
  const std::uint32_t row = session_->layout().rowOfSlice(session_->trace(), slice);
  if (row == kNoIndex) return;
  ensureRowVisible(row);
  const Selection sel = session_->selection();
  if (sel.kind != Selection::Kind::Gap) return;
  const auto gap = gapContentSpan(sel.index);
  const double pinned = vertical_.pinnedHeight();
  if (!gap || gap->first < pinned || vertical_.rowY(row) < pinned) return;  // a pinned one is in view
  const double top = std::min(gap->first, vertical_.rowY(row));
  const double bottom = std::max(gap->first + gap->second, vertical_.rowY(row) + vertical_.rowHeight(row));
  const double room = viewHeight() - pinned;
  if (bottom - top > room) return;  // the row wins: it is what the user asked to see
  const double shownTop = scrollY_ + pinned;
  if (top >= shownTop && bottom <= scrollY_ + viewHeight()) return;
  constexpr double kMargin = 8;
  setScrollY(top - pinned - std::min(kMargin, room - (bottom - top)));
}

void TimelineWidget::ensureRowVisible(std::uint32_t row) {
  const std::uint32_t lane = session_->layout().rows()[row].lane;
  const std::uint32_t group = session_->layout().lanes()[lane].group;
  if (groupCollapsed(group)) setGroupCollapsed(group, false);
  if (!vertical_.rowShown(row)) setLaneCollapsed(lane, false);  // a nested slice of a collapsed lane
  const double y = vertical_.rowY(row);
  const double h = vertical_.rowHeight(row);
  const double pinned = vertical_.pinnedHeight();
  if (y < pinned) return;  // pinned: always in view
  const double top = y - scrollY_;  // below the axis
  if (top >= pinned && top + h <= viewHeight()) return;
  setScrollY(y - pinned - (viewHeight() - pinned) / 3);
}

void TimelineWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Keep the visible time range (as chrome://tracing does): a wider window
  // shows the same stretch in more detail.
  const double fraction = scale_.startFraction();
  timeline::TimeScale next(scale_.start(), scale_.duration() / timeAreaWidth(), timeAreaWidth());
  setScale(next.panned(fraction / next.nsPerPixel()));
  clampScroll();
  emit verticalChanged();
}

void TimelineWidget::wheelEvent(QWheelEvent* event) {
  const QPoint angle = event->angleDelta();
  const QPointF pos = event->position();
  if (event->modifiers() & Qt::ControlModifier) {
    zoomAt(std::pow(1.2, angle.y() / 120.0), pos.x());
  } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(angle.x()) > std::abs(angle.y())) {
    const int delta = angle.x() != 0 ? angle.x() : angle.y();
    panBy(-delta / 120.0 * timeAreaWidth() * 0.1);
  } else {
    setScrollY(scrollY_ - angle.y() / 120.0 * 3 * vertical_.metrics().rowHeight);
  }
  event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  setFocus(Qt::MouseFocusReason);
  pressPos_ = lastPos_ = event->position();
  pressOnAxis_ = pressPos_.y() < chrome_.axisHeight && pressPos_.x() >= chrome_.namesWidth;
  // A drag on the axis, or a shift-drag anywhere on the lanes, selects a range.
  pressSelects_ = pressOnAxis_ || ((event->modifiers() & Qt::ShiftModifier) && pressPos_.x() >= chrome_.namesWidth);
  drag_ = Drag::Pending;
  event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  if (drag_ == Drag::Pending && (pos - pressPos_).manhattanLength() >= kDragThreshold) {
    drag_ = pressSelects_ ? Drag::Measure : Drag::Pan;
    if (drag_ == Drag::Pan) setCursor(Qt::ClosedHandCursor);
  }
  if (drag_ == Drag::Pan) {
    const QPointF d = pos - lastPos_;
    panBy(-d.x());
    setScrollY(scrollY_ - d.y());
  } else if (drag_ == Drag::Measure) {
    const TimeNs a = timeAt(pressPos_.x());
    const TimeNs b = timeAt(pos.x());
    measure_ = std::make_pair(std::min(a, b), std::max(a, b));
    update();
    emit measureChanged();
  } else {
    const std::uint32_t hover = sliceAtPoint(pos);
    if (hover != hoverSlice_) {
      hoverSlice_ = hover;
      update();
    }
  }
  lastPos_ = pos;
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
  const Drag was = drag_;
  drag_ = Drag::None;
  unsetCursor();
  if (was == Drag::Pending) clickAt(event->position());
  // The selected range reaches the tables once the drag ends.
  if (was == Drag::Measure && measure_) session_->setRange(TimeRange{measure_->first, measure_->second});
  event->accept();
}

void TimelineWidget::clickAt(const QPointF& pos) {
  if (!session_->hasTrace()) return;
  if (pressOnAxis_) {
    session_->setRange(std::nullopt);  // a click on the axis clears the range
    return;
  }
  const std::uint32_t group = groupHeaderAt(pos);
  if (group != kNoIndex && pos.x() < chrome_.namesWidth) {
    setGroupCollapsed(group, !groupCollapsed(group));
    return;
  }
  // A click on a lane's name folds its nested rows away (or back).
  const std::uint32_t lane = laneNameAt(pos);
  if (lane != kNoIndex && session_->layout().lanes()[lane].rowCount > 1) {
    setLaneCollapsed(lane, !laneCollapsed(lane));
    return;
  }
  const std::uint32_t slice = sliceAtPoint(pos);
  if (slice != kNoIndex) {
    session_->selectSlice(slice);
    return;
  }
  const auto laneHit = vertical_.hitTest(toContentY(pos.y()));
  const std::uint32_t curveLane = laneHit.header ? kNoIndex : laneHit.lane;
  if (curveLane != kNoIndex && pos.x() >= chrome_.namesWidth &&
      session_->layout().lanes()[curveLane].kind == timeline::LaneKind::Memory) {
    const timeline::Lane& lane = session_->layout().lanes()[curveLane];
    session_->pickMemoryTime(session_->layout().memoryLanes()[lane.memory].device, timeAt(pos.x()));
    return;
  }
  const std::uint32_t gap = gapAtPoint(pos);
  if (gap != kNoIndex) {
    session_->focusGap(gap);  // select it, highlight the CPU work blamed for it
    return;
  }
  if (group != kNoIndex) {
    setGroupCollapsed(group, !groupCollapsed(group));
    return;
  }
  session_->clearSelection();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  const std::uint32_t slice = sliceAtPoint(event->position());
  if (slice != kNoIndex) {
    session_->selectSlice(slice);
    fitSelection();
  }
  event->accept();
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* event) {
  const std::uint32_t lane = laneNameAt(event->pos());
  const std::uint32_t group = groupHeaderAt(event->pos());
  if (lane != kNoIndex) {
    showLaneMenu(lane, event->globalPos());
  } else if (group != kNoIndex) {
    showGroupMenu(group, event->globalPos());
  } else {
    return QWidget::contextMenuEvent(event);
  }
  event->accept();
}

void TimelineWidget::showGroupMenu(std::uint32_t group, const QPoint& globalPos) {
  QMenu menu(this);
  const bool pinned = groupPinned(group);
  menu.addAction(pinned ? tr("Unpin") : tr("Pin to Top"), this, [this, group, pinned] { setGroupPinned(group, !pinned); });
  const bool collapsed = groupCollapsed(group);
  menu.addAction(collapsed ? tr("Expand") : tr("Collapse"), this,
                 [this, group, collapsed] { setGroupCollapsed(group, !collapsed); });
  menu.exec(globalPos);
}

void TimelineWidget::showLaneMenu(std::uint32_t lane, const QPoint& globalPos) {
  QMenu menu(this);
  const bool pinned = lanePinned(lane);
  menu.addAction(pinned ? tr("Unpin") : tr("Pin to Top"), this, [this, lane, pinned] { setLanePinned(lane, !pinned); });
  if (session_->layout().lanes()[lane].rowCount > 1) {
    const bool collapsed = laneCollapsed(lane);
    menu.addAction(collapsed ? tr("Show Nested Rows") : tr("Top-Level Slices Only"), this,
                   [this, lane, collapsed] { setLaneCollapsed(lane, !collapsed); });
  }
  menu.exec(globalPos);
}

void TimelineWidget::keyPressEvent(QKeyEvent* event) {
  const QPoint cursor = mapFromGlobal(QCursor::pos());
  const double anchor = rect().contains(cursor) ? cursor.x() : chrome_.namesWidth + timeAreaWidth() / 2;
  switch (event->key()) {
    case Qt::Key_W: zoomAt(kKeyZoomFactor, anchor); break;
    case Qt::Key_S: zoomAt(1 / kKeyZoomFactor, anchor); break;
    case Qt::Key_A:
    case Qt::Key_Left: panBy(-timeAreaWidth() * kKeyPanFraction); break;
    case Qt::Key_D:
    case Qt::Key_Right: panBy(timeAreaWidth() * kKeyPanFraction); break;
    case Qt::Key_Up: setScrollY(scrollY_ - vertical_.metrics().rowHeight * 3); break;
    case Qt::Key_Down: setScrollY(scrollY_ + vertical_.metrics().rowHeight * 3); break;
    case Qt::Key_F: fitSelection(); break;
    case Qt::Key_0: fitAll(); break;
    case Qt::Key_Escape:
      session_->clearSelection();
      session_->setRange(std::nullopt);
      // A search's matches stay until the search is cleared; other highlights go.
      if (session_->searchText().isEmpty()) session_->setHighlights({}, QString());
      update();
      break;
    default: return QWidget::keyPressEvent(event);
  }
  event->accept();
}

void TimelineWidget::leaveEvent(QEvent* event) {
  if (hoverSlice_ != kNoIndex) {
    hoverSlice_ = kNoIndex;
    update();
  }
  QWidget::leaveEvent(event);
}

void TimelineWidget::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
    palette_ = TimelinePalette::forDark(paletteIsDark());
    invalidate();
  } else if (event->type() == QEvent::FontChange) {
    rebuildVertical();
  }
  QWidget::changeEvent(event);
}

}  // namespace gapscope::app
