// TimelineWidget: painting (frame replay plus overlays) and tooltips.
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "gapscope/timeline/level_of_detail.h"
#include "gapscope/timeline/slice_queries.h"
#include "models/table_format.h"
#include "timeline/timeline_widget.h"

#include "gapscope/format/number.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

// Outlining more highlights than this per frame costs more than it tells.
constexpr std::size_t kMaxOutlinedHighlights = 4000;


}  // namespace

FrameKey TimelineWidget::currentKey(int width, int height, double dpr) const {
  FrameKey key;
  key.scale = scale_;
  key.scrollY = scrollY_;
  key.width = width;
  key.height = height;
  key.dpr = dpr;
  key.version = version_;
  return key;
}

const TimelineFrame& TimelineWidget::frameFor(int width, int height, double dpr) {
  const FrameKey key = currentKey(width, height, dpr);
  if (!frame_.valid || !(frame_.key == key)) {
    FrameInputs in;
    if (session_->hasTrace()) {
      in.trace = &session_->trace();
      in.layout = &session_->layout();
      in.gaps = session_->gapsShown() ? &session_->gaps() : nullptr;
      in.overlay = session_->gapsShown() ? &session_->gapOverlay() : nullptr;
    }
    in.vertical = &vertical_;
    in.palette = &palette_;
    in.axisOrigin = axisOrigin_;
    in.names = &names_;
    in.font = font();
    in.chrome = chrome_;
    in.key = key;
    frame_ = buildFrame(in);
  }
  return frame_;
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  QElapsedTimer clock;
  clock.start();
  QPainter p(this);
  paintContents(p, width(), height(), devicePixelRatioF());
  lastPaintMs_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

void TimelineWidget::renderTo(QImage& image) {
  const double dpr = image.devicePixelRatio();
  const int w = static_cast<int>(image.width() / dpr);
  const int h = static_cast<int>(image.height() / dpr);
  if (w != width() || h != height()) resize(w, h);
  QPainter p(&image);
  paintContents(p, w, h, dpr);
}

void TimelineWidget::paintContents(QPainter& p, int width, int height, double dpr) {
  if (!session_->hasTrace()) {
    p.fillRect(QRect(0, 0, width, height), palette_.background);
    p.setPen(palette_.laneText);
    p.drawText(QRect(0, 0, width, height), Qt::AlignCenter,
               tr("Open a trace: File > Open (Ctrl+O), or drop a .json / .json.gz file here."));
    return;
  }
  const TimelineFrame& frame = frameFor(width, height, dpr);
  paintFrame(p, frame, palette_, font(), chrome_);
  paintOverlays(p, width, height);
}

void TimelineWidget::paintOverlays(QPainter& p, int width, int height) {
  p.save();
  p.setClipRect(QRectF(chrome_.namesWidth, chrome_.axisHeight, width - chrome_.namesWidth,
                       height - chrome_.axisHeight));
  // Highlights: only those in the visible time range (they are sorted by start).
  const auto& hl = session_->highlights();
  if (!hl.empty()) {
    const auto& slices = session_->trace().slices;
    const TimeNs t1 = scale_.end();
    std::size_t drawn = 0;
    for (std::uint32_t s : hl) {
      if (slices[s].start > t1) break;
      if (slices[s].end() < scale_.start()) continue;
      paintSliceOutline(p, s, palette_.highlight, 1.5);
      if (++drawn >= kMaxOutlinedHighlights) break;
    }
  }
  if (hoverSlice_ != kNoIndex) {
    QColor hover = palette_.selection;
    hover.setAlpha(120);
    paintSliceOutline(p, hoverSlice_, hover, 1);
  }
  const Selection sel = session_->selection();
  if (sel.kind == Selection::Kind::Slice) {
    paintSliceOutline(p, sel.index, palette_.selection, 2);
    if (session_->partnerSlice() != kNoIndex) {
      paintSliceOutline(p, session_->partnerSlice(), palette_.selection, 2);
      paintFlowArrow(p);
    }
  } else if (sel.kind == Selection::Kind::Gap) {
    const QRectF r = gapRect(sel.index);
    if (!r.isEmpty()) {
      p.setRenderHint(QPainter::Antialiasing, false);
      p.setPen(QPen(palette_.selection, 2));
      p.setBrush(Qt::NoBrush);
      p.drawRect(r.adjusted(0, 1, 0, -1));
    }
  }
  p.restore();
  paintMeasure(p, height);
}

void TimelineWidget::paintSliceOutline(QPainter& p, std::uint32_t slice, const QColor& colour, double penWidth) {
  QRectF r = sliceRect(slice);
  if (r.isEmpty()) return;
  if (r.width() < 3) r.adjust(-1, 0, 1, 0);  // a hairline slice still shows its outline
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setPen(QPen(colour, penWidth));
  p.setBrush(Qt::NoBrush);
  p.drawRect(r.adjusted(penWidth / 2, penWidth / 2, -penWidth / 2, -penWidth / 2));
}

void TimelineWidget::paintFlowArrow(QPainter& p) {
  const std::uint32_t a = session_->selectedSlice();
  const std::uint32_t b = session_->partnerSlice();
  const auto& slices = session_->trace().slices;
  // Always from the launch call to the GPU work it launched.
  const bool aIsLaunch = !isGpuActivity(slices[a].kind);
  const std::uint32_t from = aIsLaunch ? a : b;
  const std::uint32_t to = aIsLaunch ? b : a;
  const auto rowY = [&](std::uint32_t s) {
    const std::uint32_t row = session_->layout().rowOfSlice(session_->trace(), s);
    if (row == kNoIndex || !vertical_.rowShown(row)) return std::optional<double>();
    return std::optional<double>(toScreenY(vertical_.rowY(row)) + vertical_.rowHeight(row) / 2);
  };
  const auto y0 = rowY(from);
  const auto y1 = rowY(to);
  if (!y0 || !y1) return;
  // From under the middle of the launch call (clear of its label) to the
  // left edge of the GPU work.
  const double callMid = (xOf(slices[from].start) + xOf(slices[from].end())) / 2;
  const double below = vertical_.metrics().rowHeight / 2 - 2;
  const QPointF start(callMid, *y0 + (*y1 > *y0 ? below : -below));
  const QPointF end(xOf(slices[to].start), *y1);
  p.setRenderHint(QPainter::Antialiasing, true);
  QPainterPath path(start);
  const double bend = std::max(30.0, std::abs(end.y() - start.y()) / 2);
  const double down = end.y() > start.y() ? bend : -bend;
  path.cubicTo(start + QPointF(0, down), end - QPointF(bend, 0), end);
  p.setPen(QPen(palette_.flow, 1.5));
  p.setBrush(Qt::NoBrush);
  p.drawPath(path);
  // Arrow head pointing along the curve's last tangent (horizontal).
  QPolygonF head;
  head << end << end + QPointF(-8, -4) << end + QPointF(-8, 4);
  p.setBrush(palette_.flow);
  p.drawPolygon(head);
  p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineWidget::paintMeasure(QPainter& p, int height) {
  if (!measure_) return;
  const double x0 = xOf(measure_->first);
  const double x1 = xOf(measure_->second);
  QColor fill = palette_.measure;
  fill.setAlpha(40);
  p.save();
  p.setClipRect(QRectF(chrome_.namesWidth, 0, timeAreaWidth(), height));
  p.fillRect(QRectF(x0, 0, x1 - x0, height), fill);
  p.setPen(QPen(palette_.measure, 1));
  p.drawLine(QPointF(x0, 0), QPointF(x0, height));
  p.drawLine(QPointF(x1, 0), QPointF(x1, height));
  const QString label = durationText(measure_->second - measure_->first);
  const QFontMetrics fm(font());
  const double w = fm.horizontalAdvance(label) + 12;
  const QRectF box((x0 + x1 - w) / 2, 2, w, chrome_.axisHeight - 4);
  // A tick label the badge would cut leaves its stray end ("…s") beside it:
  // those it touches are covered whole.
  QRectF cover = box;
  for (const auto& tick : frame_.ticks.ticks) {
    if (!tick.major) continue;
    const double left = std::round(chrome_.namesWidth + tick.x) + 4.5;
    const QRectF label(left, box.top(), fm.horizontalAdvance(QString::fromStdString(tick.label)), box.height());
    if (label.intersects(box)) cover = cover.united(label);
  }
  p.fillRect(cover, palette_.axisBackground);
  p.setPen(Qt::NoPen);
  p.setBrush(palette_.measure);
  p.drawRect(box);
  p.setPen(Qt::white);
  p.drawText(box, Qt::AlignCenter, label);
  p.restore();
}

bool TimelineWidget::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = tooltipAt(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      event->ignore();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QWidget::event(event);
}

QString TimelineWidget::tooltipAt(const QPointF& pos) const {
  if (!session_->hasTrace()) return {};
  const Trace& trace = session_->trace();
  const std::uint32_t slice = sliceAtPoint(pos);
  if (slice != kNoIndex) {
    const Slice& s = trace.slices[slice];
    const QString name = QString::fromUtf8(trace.str(s.name).data(), static_cast<qsizetype>(trace.str(s.name).size()));
    QString html = QStringLiteral("<b>%1</b><br>").arg(name.toHtmlEscaped());
    html += tr("Duration: %1<br>Self time: %2")
                .arg(durationText(s.dur), durationText(timeline::selfTime(trace, session_->layout(), slice)));
    html += tr("<br>Category: %1").arg(QString::fromUtf8(trace.str(s.category).data(),
                                                         static_cast<qsizetype>(trace.str(s.category).size())));
    return html;
  }
  if (pos.x() >= chrome_.namesWidth && pos.y() >= chrome_.axisHeight) {
    // A counter lane: the value in force at the mouse.
    const auto hit = vertical_.hitTest(toContentY(pos.y()));
    if (hit.lane != kNoIndex && session_->layout().lanes()[hit.lane].kind == timeline::LaneKind::Memory) {
      return memoryTooltip(session_->layout().lanes()[hit.lane], timeAt(pos.x()));
    }
    if (hit.lane != kNoIndex && session_->layout().lanes()[hit.lane].kind == timeline::LaneKind::Counter) {
      const auto& lane = session_->layout().lanes()[hit.lane];
      const CounterSeries& series = trace.counters[lane.counter];
      const std::optional<double> value = timeline::counterValueAt(series, timeAt(pos.x()));
      if (!value) return {};
      return tr("<b>%1</b><br>%2 (highest in the trace: %3)")
          .arg(QString::fromStdString(lane.name).toHtmlEscaped(), QString::number(*value, 'g', 8),
               QString::number(lane.counterMax, 'g', 8));
    }
  }
  const std::uint32_t gap = gapAtPoint(pos);
  if (gap != kNoIndex) {
    const auto& g = session_->gaps().gaps[gap];
    QString html = tr("<b>GPU idle: %1</b><br>Cause: %2<br>%3")
                       .arg(durationText(g.dur), QString::fromUtf8(analysis::gapCauseLabel(g.cause)),
                            QString::fromStdString(analysis::explainGap(trace, g)).toHtmlEscaped());
    return html;
  }
  return {};
}

// The memory held at `t` on the lane's device and its peak.
QString TimelineWidget::memoryTooltip(const timeline::Lane& lane, TimeNs t) const {
  const timeline::MemoryLane& m = session_->layout().memoryLanes()[lane.memory];
  const auto bytes = [t](const CounterSeries& series) {
    const std::optional<double> v = timeline::counterValueAt(series, t);
    return v ? QString::fromStdString(format::formatBytes(static_cast<std::int64_t>(*v))) : QStringLiteral("-");
  };
  return tr("<b>%1 memory</b><br>Allocated: %2<br>Reserved: %3<br>Peak allocated: %4 at %5<br>"
            "<i>Click to list the allocations live here</i>")
      .arg(QString::fromStdString(memory::deviceLabel(m.device)), bytes(m.allocated),
           bytes(m.reserved), QString::fromStdString(format::formatBytes(m.peakAllocated)),
           durationText(m.peakAllocatedTs - session_->layout().contentStart()));
}

}  // namespace gapscope::app
