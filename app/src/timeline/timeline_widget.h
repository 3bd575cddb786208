// The timeline: a time axis on top, lane names on the left, and the lanes of
// the open trace (CPU threads, GPU streams, counters) with the launch-gap
// overlay. Navigation as in Perfetto and chrome://tracing: W/S zoom at the
// mouse, A/D pan, Ctrl+wheel zoom, wheel scroll, drag to pan, F fits the
// selection, 0 fits everything, a drag on the axis measures a range.
//
// Geometry is built once per (range, width, scroll, size) into a
// TimelineFrame; paintEvent only replays it and draws the few things that
// follow the mouse or the selection on top.
#pragma once

#include <QElapsedTimer>
#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

#include "gapscope/timeline/time_scale.h"
#include "gapscope/timeline/vertical_layout.h"
#include "timeline/name_cache.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_palette.h"

namespace gapscope::app {

class TraceSession;

class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineWidget(TraceSession* session, QWidget* parent = nullptr);

  const timeline::TimeScale& scale() const { return scale_; }
  void setScale(const timeline::TimeScale& scale);
  // Where the view may be panned and zoomed out to: by default the trace's
  // content with a little room; a view linked to another run's (compare)
  // widens it to cover what the other shows.
  void setPanLimits(TimeNs lo, TimeNs hi);
  void fitAll();
  // What a trace opens on: everything, or the events without a few far from them all.
  void fitOpening();
  void fitRange(TimeNs start, TimeNs end);  // with a little margin
  void fitSelection();
  void zoomAt(double factor, double x);       // x in widget coordinates
  void panBy(double dx);                      // pixels; positive moves right in time

  // Follow mode (a recording in progress): each new snapshot keeps the end
  // of the trace in view, at the user's zoom, or the whole trace while the
  // user has not zoomed in. Panning in time or jumping to a slice turns it
  // off; zooming and scrolling the lanes do not.
  bool following() const { return following_; }
  void setFollowing(bool on);

  double scrollY() const { return scrollY_; }
  void setScrollY(double y);
  double contentHeight() const { return vertical_.totalHeight(); }
  double viewHeight() const;

  bool groupCollapsed(std::uint32_t group) const;
  void setGroupCollapsed(std::uint32_t group, bool collapsed);
  // A collapsed lane shows its top-level slices only (one row).
  bool laneCollapsed(std::uint32_t lane) const;
  void setLaneCollapsed(std::uint32_t lane, bool collapsed);
  // Pinned lanes sit at the top, above the scrolling lanes, in pin order.
  bool lanePinned(std::uint32_t lane) const;
  void setLanePinned(std::uint32_t lane, bool pinned);
  // A pinned group (a GPU device, by default when its lanes take little
  // room) stays on top with its header and lanes.
  bool groupPinned(std::uint32_t group) const;
  void setGroupPinned(std::uint32_t group, bool pinned);
  const timeline::VerticalLayout& vertical() const { return vertical_; }
  // The lane whose name is at `pos` (on the left), or kNoIndex.
  std::uint32_t laneNameAt(const QPointF& pos) const;

  // Where a slice is drawn now (widget coordinates); empty when off screen
  // or in a collapsed group.
  QRectF sliceRect(std::uint32_t slice) const;
  // Where a lane's content is drawn now (its time area); null when folded away.
  QRectF laneRect(std::uint32_t lane) const;
  // The x of time `t` in widget coordinates.
  double xOfTime(TimeNs t) const { return xOf(t); }
  QRectF gapRect(std::uint32_t gap) const;
  // The slice / gap under a point, kNoIndex when none.
  std::uint32_t sliceAtPoint(const QPointF& pos) const;
  std::uint32_t gapAtPoint(const QPointF& pos) const;
  // The group whose header strip is at `pos`, kNoIndex when none.
  std::uint32_t groupHeaderAt(const QPointF& pos) const;

  // The measured range (drag on the axis), if any.
  std::optional<std::pair<TimeNs, TimeNs>> measuredRange() const;

  const TimelineChrome& chrome() const { return chrome_; }
  double lastBuildMs() const { return frame_.buildMs; }
  // The geometry painted last (what renderTo or paintEvent drew).
  const TimelineFrame& lastFrame() const { return frame_; }
  // The time the axis counts from (its "0"); nullopt: the content's start.
  void setAxisOrigin(std::optional<TimeNs> origin);
  double lastPaintMs() const { return lastPaintMs_; }
  // Renders the current view into `image` (its size), as paintEvent would.
  void renderTo(QImage& image);

 signals:
  void scaleChanged();
  void verticalChanged();  // content height, view height or scroll changed
  void measureChanged();
  void followingChanged(bool on);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  QString memoryTooltip(const timeline::Lane& lane, TimeNs t) const;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void onTraceChanged();
  void onLiveUpdate();
  bool wholeContentShown() const;
  void showContentEnd();
  void onReveal(qint64 start, qint64 end, quint32 slice, bool fit);
  void rebuildVertical();
  // Screen y of content y (the pinned section does not scroll), and back.
  double toScreenY(double contentY) const { return chrome_.axisHeight + vertical_.screenY(contentY, scrollY_); }
  double toContentY(double screenY) const { return vertical_.contentY(screenY - chrome_.axisHeight, scrollY_); }
  void showLaneMenu(std::uint32_t lane, const QPoint& globalPos);
  void showGroupMenu(std::uint32_t group, const QPoint& globalPos);
  void pinSmallGpuGroups();
  void invalidate();  // the frame must be rebuilt
  void clampScroll();
  void clickAt(const QPointF& pos);
  void ensureRowVisible(std::uint32_t row);
  void revealRow(std::uint32_t slice);
  // Content y and height of where a gap is drawn (its lane, or its device's
  // header band); nullopt when hidden.
  std::optional<std::pair<double, double>> gapContentSpan(std::uint32_t gap) const;
  double timeAreaWidth() const;
  double xOf(TimeNs t) const;
  TimeNs timeAt(double x) const;
  FrameKey currentKey(int width, int height, double dpr) const;
  const TimelineFrame& frameFor(int width, int height, double dpr);
  void paintContents(QPainter& p, int width, int height, double dpr);
  void paintOverlays(QPainter& p, int width, int height);
  void paintSliceOutline(QPainter& p, std::uint32_t slice, const QColor& colour, double penWidth);
  void paintFlowArrow(QPainter& p);
  void paintMeasure(QPainter& p, int height);
  QString tooltipAt(const QPointF& pos) const;

  TraceSession* session_;
  timeline::TimeScale scale_;
  double scrollY_ = 0;
  timeline::VerticalChoices choices_;  // collapsed groups and lanes, pinned lanes
  timeline::VerticalLayout vertical_;
  TimelineChrome chrome_;
  TimelinePalette palette_;
  NameCache names_;
  TimelineFrame frame_;
  quint64 version_ = 1;
  std::optional<TimeNs> axisOrigin_;
  double lastPaintMs_ = 0;

  // Mouse state.
  enum class Drag { None, Pending, Pan, Measure };
  Drag drag_ = Drag::None;
  QPointF pressPos_;
  QPointF lastPos_;
  bool pressOnAxis_ = false;
  bool pressSelects_ = false;  // the press began a range selection
  std::optional<std::pair<TimeNs, TimeNs>> measure_;
  std::optional<std::pair<TimeNs, TimeNs>> panLimits_;
  std::uint32_t hoverSlice_ = kNoIndex;
  bool following_ = false;
  // The content shown before a live update, to tell whether it was all in view.
  TimeNs shownContentStart_ = 0;
  TimeNs shownContentEnd_ = 0;
  std::size_t laneCountShown_ = 0;
};

}  // namespace gapscope::app
