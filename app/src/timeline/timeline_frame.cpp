#include "timeline/timeline_frame.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "gapscope/format/number.h"
#include "gapscope/timeline/level_of_detail.h"

namespace gapscope::app {

namespace {

// Narrower than this a slice gets no label: not even one letter fits.
constexpr double kMinLabelWidth = 24;
// Major ticks this far apart at least, so labels never touch.
constexpr double kTickSpacing = 110;

class FrameBuilder {
 public:
  explicit FrameBuilder(const FrameInputs& in)
      : in_(in), fm_(in.font), left_(in.chrome.namesWidth), top_(in.chrome.axisHeight) {
    f_.key = in.key;
    f_.valid = true;
    f_.slices.resize(timeline::kColourClasses);
    // Level of detail runs in logical pixels at every device pixel ratio:
    // slices at least a logical pixel wide are drawn at their exact edges
    // (device resolution through the painter), narrower ones merge into runs
    // of whole logical pixels. Merging by device pixel instead doubled the
    // rects and the geometry's time at ratio 2 (12 ms for 10M slices) for
    // detail no eye could use: a run of sub-pixel slices only says "busy here".
    device_ = in.key.scale;
  }

  TimelineFrame build() {
    QElapsedTimer clock;
    clock.start();
    addGroupsAndLanes();
    addRows();
    addGapOverlay();
    addTicks();
    f_.buildMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return std::move(f_);
  }

 private:
  double toY(double contentY) const { return top_ + in_.vertical->screenY(contentY, in_.key.scrollY); }
  double toX(float px) const { return left_ + static_cast<double>(px); }
  // Content [y, y + h) fully in view: pinned content always; scrolled
  // content below the pinned section (a row half under it is left out, so
  // nothing scrolled draws over the pinned lanes).
  bool visible(double contentY, double h) const {
    const auto& v = *in_.vertical;
    if (contentY < v.pinnedHeight()) return true;
    const double y = contentY - in_.key.scrollY;
    return y >= v.pinnedHeight() && y < in_.key.height - top_ && y + h > 0;
  }

  void addHeader(double contentY, QString text, bool collapsed, std::uint32_t gapCount) {
    const double headerH = in_.vertical->metrics().groupHeader;
    if (!visible(contentY, headerH)) return;
    const double gy = toY(contentY);
    f_.headers.append(QRectF(0, gy, in_.key.width, headerH));
    TimelineFrame::LaneName name;
    name.rect = QRectF(4, gy, in_.key.width - 8, headerH);
    name.text = std::move(text);
    name.header = true;
    name.collapsed = collapsed;
    name.gapCount = gapCount;
    f_.laneNames.push_back(std::move(name));
  }

  // The content span [y, y + h) of a lane that is in view: all of it, or
  // for a tall lane scrolled part-way under the top of the scrolled area,
  // what is left below that top (its name then stays in view there, as
  // in Perfetto). Empty (h = 0) when none of it is.
  std::pair<double, double> shownPart(double laneY, double h) const {
    const auto& v = *in_.vertical;
    if (visible(laneY, h + v.metrics().laneGap)) return {laneY, h};
    const double top = in_.key.scrollY + v.pinnedHeight();  // content Y at the top of the scrolled area
    if (laneY < v.pinnedHeight() || laneY >= top || laneY + h <= top) return {laneY, 0};
    return {top, laneY + h - top};
  }

  void addLane(std::uint32_t l, int& laneCounter) {
    const auto& v = *in_.vertical;
    const double lh = v.laneHeight(l);
    const bool shaded = (laneCounter++ % 2) == 1;
    if (shadedLanes_.size() <= l) shadedLanes_.resize(l + 1, false);
    shadedLanes_[l] = shaded;
    const auto [shownY, shownH] = shownPart(v.laneY(l), lh);
    if (shownH <= 0) return;
    const double ly = toY(shownY);
    if (shaded) f_.laneShades.append(QRectF(0, ly, in_.key.width, shownH));
    const double sepY = ly + shownH + v.metrics().laneGap / 2;
    f_.separators.append(QLineF(0, sepY, in_.key.width, sepY));
    const double nameH = std::min(shownH, std::max(v.metrics().rowHeight, 18.0));
    if (nameH < fm_.height()) return;  // too little of the lane left to name it
    const timeline::Lane& lane = in_.layout->lanes()[l];
    TimelineFrame::LaneName name;
    name.rect = QRectF(18, ly, left_ - 24, nameH);
    // Lanes with nested rows fold on a click on their name.
    const QString arrow = lane.rowCount > 1 ? (v.laneCollapsed(l) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) : QString();
    const QString text = v.lanePinned(l) ? QString::fromStdString(in_.layout->groups()[lane.group].name + " / " + lane.name)
                                         : QString::fromStdString(lane.name);
    name.text = arrow + fm_.elidedText(text, Qt::ElideMiddle, name.rect.width() - fm_.horizontalAdvance(arrow));
    f_.laneNames.push_back(std::move(name));
  }

  void addGroupsAndLanes() {
    const auto& v = *in_.vertical;
    const auto& groups = in_.layout->groups();
    int laneCounter = 0;
    for (std::uint32_t g : v.sections()) {
      if (g == timeline::kPinnedGroup) {
        addHeader(v.pinnedLanesY(), QCoreApplication::translate("TimelineFrame", "Pinned"), false, 0);
        for (std::uint32_t l : v.pinnedLanes()) addLane(l, laneCounter);
        continue;
      }
      const QString pin = v.groupPinned(g) ? QStringLiteral(" \u2014 pinned") : QString();
      addHeader(v.groupY(g), QString::fromStdString(groups[g].name) + pin, v.groupCollapsed(g),
                in_.overlay ? static_cast<std::uint32_t>(in_.overlay->groupGaps(g).size()) : 0);
      if (v.groupCollapsed(g)) continue;
      for (std::uint32_t l : groups[g].lanes)
        if (!v.lanePinned(l)) addLane(l, laneCounter);
    }
    if (v.pinnedHeight() > 0) {
      const double y = top_ + v.pinnedHeight() - 0.5;
      f_.pinnedEdge = QLineF(0, y, in_.key.width, y);
    }
  }

  void addRows() {
    const auto& v = *in_.vertical;
    const double viewH = in_.key.height - top_;
    for (std::uint32_t row : v.rowsInView(in_.key.scrollY, viewH)) {
      if (!visible(v.rowY(row), v.rowHeight(row))) continue;
      const auto& lane = in_.layout->lanes()[in_.layout->rows()[row].lane];
      const double y = toY(v.rowY(row));
      const double h = v.rowHeight(row);
      if (lane.kind == timeline::LaneKind::Counter) {
        addCounter(lane, in_.trace->counters[lane.counter], y, h, f_.counterBars);
      } else if (lane.kind == timeline::LaneKind::Memory) {
        addMemory(lane, y, h);
      } else {
        addSlices(row, y, h);
      }
    }
  }

  void addSlices(std::uint32_t row, double y, double h) {
    rects_.clear();
    timeline::computeRowRects(*in_.trace, *in_.layout, row, device_, rects_);
    const double minW = 1.0;
    for (const auto& r : rects_) {
      const double x0 = toX(r.x0);
      const double x1 = toX(r.x1);
      const QRectF rect(x0, y + 1, std::max(x1 - x0, minW), h - 2);
      f_.slices[r.colour].append(rect);
      if (!r.merged && rect.width() >= kMinLabelWidth) addLabel(rect, r.index, r.colour);
    }
  }

  void addLabel(const QRectF& rect, std::uint32_t slice, std::uint16_t colour) {
    // Clip to the visible area so a long slice keeps its label on screen.
    const double x0 = std::max(rect.left(), left_) + 3;
    const double x1 = std::min(rect.right(), static_cast<double>(in_.key.width)) - 3;
    if (x1 - x0 < kMinLabelWidth - 6) return;
    const Slice& s = in_.trace->slices[slice];
    const QString& text = s.kind == SliceKind::Kernel ? in_.names->label(s.name) : in_.names->name(s.name);
    QString elided = fm_.elidedText(text, Qt::ElideRight, x1 - x0);
    // "…" alone says nothing; leave the slice bare.
    if (elided.isEmpty() || elided == QStringLiteral("…")) return;
    const bool light = TimelinePalette::textOn(in_.palette->slice[colour]).lightness() > 128;
    f_.labels.push_back({QRectF(x0, rect.top(), x1 - x0, rect.height()), std::move(elided), light});
  }

  void addMemory(const timeline::Lane& lane, double y, double h) {
    const timeline::MemoryLane& m = in_.layout->memoryLanes()[lane.memory];
    // Reserved as its top edge only: the allocated area under it stays clear.
    addCounter(lane, m.reserved, y, h, f_.memoryReserved, 2.0);
    addCounter(lane, m.allocated, y, h, f_.memoryAllocated);
    const double x = left_ + device_.toPixel(m.peakAllocatedTs);
    if (x < left_ || x > in_.key.width) return;
    f_.memoryPeaks.append(QLineF(x, y + 1, x, y + h - 1));
    const QString text = QCoreApplication::translate("TimelineFrame", "peak %1")
                             .arg(QString::fromStdString(format::formatBytes(m.peakAllocated)));
    const double w = fm_.horizontalAdvance(text) + 8;
    const bool fitsRight = x + w < in_.key.width;
    f_.peakLabels.push_back({QRectF(fitsRight ? x + 3 : x - w, y + 1, w, fm_.height()), text, false});
  }

  // Bars up to each value (or, with `edge`, only their top `edge` pixels).
  void addCounter(const timeline::Lane& lane, const CounterSeries& series, double y, double h,
                  QVector<QRectF>& out, double edge = 0) {
    bars_.clear();
    timeline::computeCounterBars(series, device_, bars_);
    const double range = lane.counterMax - lane.counterMin;
    const double usable = h - 4;
    for (const auto& b : bars_) {
      const double frac = range > 0 ? (b.value - lane.counterMin) / range : 1.0;
      const double bh = std::max(1.0, std::clamp(frac, 0.0, 1.0) * usable);
      const double x0 = toX(b.x0);
      out.append(QRectF(x0, y + h - 2 - bh, toX(b.x1) - x0, edge > 0 ? std::min(edge, bh) : bh));
    }
  }

  void addGapOverlay() {
    if (!in_.overlay || !in_.gaps) return;
    const auto& v = *in_.vertical;
    const auto& layout = *in_.layout;
    for (std::uint32_t l = 0; l < layout.lanes().size(); ++l) {
      const auto& indices = in_.overlay->laneGaps(l);
      if (indices.empty() || v.laneHeight(l) <= 0) continue;
      const double lh = v.laneHeight(l);
      if (!visible(v.laneY(l), lh)) continue;
      addGapRects(indices, toY(v.laneY(l)), lh, true, l < shadedLanes_.size() && shadedLanes_[l]);
    }
    for (std::uint32_t g = 0; g < layout.groups().size(); ++g) {
      const auto& indices = in_.overlay->groupGaps(g);
      const double headerH = v.metrics().groupHeader;
      if (indices.empty() || !visible(v.groupY(g), headerH)) continue;
      // Device gaps: a band along the bottom of the device's header strip.
      addGapRects(indices, toY(v.groupY(g)) + headerH - 6, 6, false, false);
    }
  }

  // Only gaps at least a pixel wide: a run of sub-pixel gaps says only "not
  // fully busy here", which the utilisation strip shows better, and painting
  // it would cover a zoomed-out lane in red.
  void addGapRects(const timeline::GapList& list, double y, double h, bool fill, bool shadedLane) {
    gapRects_.clear();
    timeline::computeWideGapRects(*in_.gaps, list, device_, gapRects_);
    const double minW = 1.0;
    for (const auto& r : gapRects_) {
      const double x0 = toX(r.x0);
      const double w = std::max(toX(r.x1) - x0, minW);
      if (fill) {
        f_.gaps[shadedLane ? 1 : 0][r.colour].append(QRectF(x0, y, w, h));
        f_.gapBands[r.colour].append(QRectF(x0, y + h - 3, w, 3));
      } else {
        f_.gapBands[r.colour].append(QRectF(x0, y, w, h));
      }
    }
  }

  void addTicks() {
    f_.ticks = timeline::computeAxisTicks(in_.key.scale, in_.axisOrigin.value_or(in_.layout->contentStart()), kTickSpacing);
    for (const auto& t : f_.ticks.ticks) {
      if (!t.major) continue;
      const double x = std::round(left_ + t.x) + 0.5;
      f_.grid.append(QLineF(x, top_, x, in_.key.height));
    }
  }

  const FrameInputs& in_;
  QFontMetricsF fm_;
  double left_;
  double top_;
  timeline::TimeScale device_;  // the scale the level of detail runs at (logical pixels)
  TimelineFrame f_;
  std::vector<timeline::IntervalRect> rects_;
  std::vector<timeline::IntervalRect> gapRects_;
  std::vector<timeline::CounterBar> bars_;
  std::vector<bool> shadedLanes_;  // by lane index: drawn on the alternate background
};

// `top` at `alpha` over an opaque `bottom`, as the translucent fill would look.
QColor blendedOver(const QColor& top, int alpha, const QColor& bottom) {
  const double a = alpha / 255.0;
  auto mix = [a](int t, int b) { return static_cast<int>(std::lround(t * a + b * (1 - a))); };
  return QColor(mix(top.red(), bottom.red()), mix(top.green(), bottom.green()), mix(top.blue(), bottom.blue()));
}

constexpr int kGapTintAlpha = 60;

void paintAxis(QPainter& p, const TimelineFrame& frame, const TimelinePalette& palette, const QFont& font,
               const TimelineChrome& chrome) {
  const double w = frame.key.width;
  const double h = chrome.axisHeight;
  p.fillRect(QRectF(0, 0, w, h), palette.axisBackground);
  p.setPen(palette.separator);
  p.drawLine(QPointF(0, h - 0.5), QPointF(w, h - 0.5));
  p.setFont(font);
  p.save();
  p.setClipRect(QRectF(chrome.namesWidth, 0, w - chrome.namesWidth, h));
  for (const auto& t : frame.ticks.ticks) {
    const double x = std::round(chrome.namesWidth + t.x) + 0.5;
    p.setPen(palette.tick);
    p.drawLine(QPointF(x, t.major ? h * 0.45 : h * 0.75), QPointF(x, h));
    if (t.major) {
      p.setPen(palette.axisText);
      p.drawText(QRectF(x + 4, 0, 200, h * 0.8), Qt::AlignLeft | Qt::AlignVCenter,
                 QString::fromStdString(t.label));
    }
  }
  p.restore();
}

void paintNames(QPainter& p, const TimelineFrame& frame, const TimelinePalette& palette, const QFont& font,
                const TimelineChrome& chrome) {
  p.fillRect(QRectF(0, chrome.axisHeight, chrome.namesWidth, frame.key.height - chrome.axisHeight),
             palette.axisBackground);
  QFont bold = font;
  bold.setBold(true);
  for (const auto& n : frame.laneNames) {
    if (n.header) continue;
    p.setFont(font);
    p.setPen(palette.laneText);
    p.drawText(n.rect, Qt::AlignLeft | Qt::AlignVCenter, n.text);
  }
  // Headers span the whole width and come after the lane names they cover.
  p.setPen(Qt::NoPen);
  p.setBrush(palette.header);
  p.drawRects(frame.headers);
  for (const auto& n : frame.laneNames) {
    if (!n.header) continue;
    p.setFont(bold);
    p.setPen(palette.headerText);
    const QString arrow = n.collapsed ? QStringLiteral("▸ ") : QStringLiteral("▾ ");
    p.drawText(n.rect, Qt::AlignLeft | Qt::AlignVCenter, arrow + n.text);
  }
  p.setPen(palette.separator);
  p.drawLine(QPointF(chrome.namesWidth - 0.5, chrome.axisHeight),
             QPointF(chrome.namesWidth - 0.5, frame.key.height));
  if (!frame.pinnedEdge.isNull()) {
    // Where the pinned lanes end and the scrolling ones begin.
    p.setPen(QPen(palette.axisText, 2));
    p.drawLine(frame.pinnedEdge);
  }
}

}  // namespace

TimelineFrame buildFrame(const FrameInputs& in) {
  if (!in.trace || !in.layout || !in.vertical || !in.palette || !in.names) {
    TimelineFrame empty;
    empty.key = in.key;
    return empty;
  }
  return FrameBuilder(in).build();
}

void paintFrame(QPainter& p, const TimelineFrame& frame, const TimelinePalette& palette, const QFont& font,
                const TimelineChrome& chrome) {
  p.setRenderHint(QPainter::Antialiasing, false);
  const QRectF area(chrome.namesWidth, chrome.axisHeight, frame.key.width - chrome.namesWidth,
                    frame.key.height - chrome.axisHeight);
  p.fillRect(QRectF(0, 0, frame.key.width, frame.key.height), palette.background);
  p.setPen(Qt::NoPen);
  p.setBrush(palette.laneAlternate);
  p.drawRects(frame.laneShades);

  p.save();
  p.setClipRect(area);
  p.setPen(Qt::NoPen);
  // Gaps first: where a zoomed-out run of gaps meets kernels, the kernels stay crisp.
  for (std::size_t shaded = 0; shaded < frame.gaps.size(); ++shaded) {
    const QColor& under = shaded ? palette.laneAlternate : palette.background;
    for (std::size_t c = 0; c < frame.gaps[shaded].size(); ++c) {
      if (frame.gaps[shaded][c].isEmpty()) continue;
      p.setBrush(blendedOver(palette.gap[c], kGapTintAlpha, under));
      p.drawRects(frame.gaps[shaded][c]);
    }
  }
  // The grid over the tint (which is opaque), under the slices.
  p.setPen(palette.separator);
  p.drawLines(frame.grid);
  p.setPen(Qt::NoPen);
  for (std::size_t c = 0; c < frame.slices.size(); ++c) {
    if (frame.slices[c].isEmpty()) continue;
    p.setBrush(palette.slice[c]);
    p.drawRects(frame.slices[c]);
  }
  p.setBrush(palette.counter);
  p.drawRects(frame.counterBars);
  p.setBrush(palette.memoryReserved);
  p.drawRects(frame.memoryReserved);
  p.setBrush(palette.memoryAllocated);
  p.drawRects(frame.memoryAllocated);
  p.setPen(QPen(palette.memoryPeak, 1.5));
  p.drawLines(frame.memoryPeaks);
  p.setFont(font);
  for (const auto& l : frame.peakLabels) p.drawText(l.rect, Qt::AlignLeft | Qt::AlignVCenter, l.text);
  const QColor darkText = TimelinePalette::textOn(QColor(Qt::white));
  for (const auto& l : frame.labels) {
    p.setPen(l.lightText ? QColor(Qt::white) : darkText);
    p.drawText(l.rect, Qt::AlignLeft | Qt::AlignVCenter, l.text);
  }
  p.setPen(palette.separator);
  p.drawLines(frame.separators);
  p.restore();

  paintNames(p, frame, palette, font, chrome);
  // Gap bands go over the header strips (device gaps live there).
  p.save();
  p.setClipRect(area);
  p.setPen(Qt::NoPen);
  for (std::size_t c = 0; c < frame.gapBands.size(); ++c) {
    p.setBrush(palette.gap[c]);
    p.drawRects(frame.gapBands[c]);
  }
  p.restore();
  paintAxis(p, frame, palette, font, chrome);
}

}  // namespace gapscope::app
