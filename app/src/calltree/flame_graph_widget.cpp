#include "calltree/flame_graph_widget.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

#include "app_setup.h"
#include "calltree/call_tree_text.h"
#include "gapscope/analysis/percent.h"
#include "gapscope/timeline/layout.h"
#include "models/table_format.h"

namespace gapscope::app {

FlameGraphWidget::FlameGraphWidget(QWidget* parent)
    : QWidget(parent), palette_(TimelinePalette::forDark(paletteIsDark())) {
  setObjectName(QStringLiteral("flameGraph"));
  setMouseTracking(true);
  setMinimumHeight(120);
}

void FlameGraphWidget::setSource(FlameSource source) {
  source_ = std::move(source);
  selected_ = kNoIndex;
  options_.zoomNode = kNoIndex;
  relayout();
}

void FlameGraphWidget::setOptions(const FlameOptions& options) {
  options_ = options;
  relayout();
}

void FlameGraphWidget::setIcicle(bool icicle) {
  icicle_ = icicle;
  update();
}

void FlameGraphWidget::setSearch(const QString& text) {
  search_ = text.trimmed();
  updateSearchShare();
  update();
}

void FlameGraphWidget::setSelectedNode(std::uint32_t node) {
  selected_ = node;
  update();
}

double FlameGraphWidget::rowHeight() const { return std::ceil(QFontMetricsF(font()).height() + 6); }

void FlameGraphWidget::relayout() {
  layout_ = {};
  if (source_.tree && width() > 0) {
    FlameOptions o = options_;
    o.minFraction = 0.5 / std::max(1, width());  // under half a pixel: not drawn
    layout_ = layoutFlame(*source_.tree, o);
  }
  setMinimumHeight(std::max(120, static_cast<int>(rowHeight() * layout_.depths) + 2));
  updateSearchShare();
  update();
}

QString FlameGraphWidget::frameName(const FlameFrame& frame) const {
  if (!source_.trace || !source_.tree) return {};
  if (frame.node == kNoIndex) {
    return utf8(calltree::threadLabel(*source_.trace, source_.trace->tracks[source_.tree->threads[frame.thread].track]));
  }
  return utf8(calltree::nodeName(*source_.trace, source_.tree->nodes[frame.node]));
}

bool FlameGraphWidget::matches(const FlameFrame& frame) const {
  return !search_.isEmpty() && frame.node != kNoIndex && frameName(frame).contains(search_, Qt::CaseInsensitive);
}

// Outermost matches: a match inside a match is already in its width.
void FlameGraphWidget::updateSearchShare() {
  searchShare_ = 0;
  if (search_.isEmpty() || layout_.total <= 0) return;
  double covered = 0;
  for (const FlameFrame& f : layout_.frames) {  // parents first, left to right per parent
    if (!matches(f)) continue;
    bool inside = false;
    for (std::uint32_t a = source_.tree->nodes[f.node].parent; a != kNoIndex && !inside;
         a = source_.tree->nodes[a].parent) {
      inside = frameName({a, f.thread}).contains(search_, Qt::CaseInsensitive);
    }
    if (inside) continue;
    covered += f.x1 - f.x0;
  }
  searchShare_ = std::min(1.0, covered);
}

QRectF FlameGraphWidget::frameRect(const FlameFrame& frame) const {
  const double h = rowHeight();
  const double y = icicle_ ? frame.depth * h : height() - (frame.depth + 1) * h;
  return QRectF(frame.x0 * width(), y, (frame.x1 - frame.x0) * width(), h - 1);
}

const FlameFrame* FlameGraphWidget::frameAt(QPointF pos) const {
  for (const FlameFrame& f : layout_.frames) {
    if (frameRect(f).adjusted(0, 0, 0, 1).contains(pos)) return &f;
  }
  return nullptr;
}

QColor FlameGraphWidget::fillOf(const FlameFrame& frame) const {
  if (frame.node == kNoIndex) return palette_.header;
  const bool dim = !search_.isEmpty() && !matches(frame);
  if (dim) return palette_.laneAlternate.darker(palette_.background.lightness() < 128 ? 70 : 115);
  const StringId name = source_.tree->nodes[frame.node].name;
  return palette_.slice[source_.layout ? source_.layout->nameColourClass(name) : 0];
}

void FlameGraphWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette_.background);
  if (layout_.frames.empty()) {
    p.setPen(palette_.laneText);
    p.drawText(rect(), Qt::AlignCenter,
               source_.tree ? tr("Nothing to show for this metric") : tr("Open a trace to see its call tree"));
    return;
  }
  const QFontMetricsF metrics(font());
  for (const FlameFrame& f : layout_.frames) {
    const QRectF r = frameRect(f);
    const QColor fill = fillOf(f);
    p.fillRect(r, fill);
    if (f.node != kNoIndex && f.node == selected_) {
      p.setPen(QPen(palette_.selection, 2));
      p.drawRect(r.adjusted(1, 1, -1, -1));
    }
    if (r.width() < 3 * metrics.averageCharWidth()) continue;
    p.setPen(f.node == kNoIndex ? palette_.headerText : TimelinePalette::textOn(fill));
    const QString text = metrics.elidedText(frameName(f), Qt::ElideRight, r.width() - 6);
    p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
  }
}

QString FlameGraphWidget::frameTooltip(const FlameFrame& frame) const {
  const QString share = layout_.total > 0 ? percentText(analysis::percentOf(frame.value, layout_.total)) : QString();
  QString text = QStringLiteral("<b>%1</b><br>%2: %3 (%4 of the view)")
                     .arg(frameName(frame).toHtmlEscaped(), metricLabel(options_.metric),
                          metricValueText(options_.metric, frame.value), share);
  if (frame.node != kNoIndex) text += QStringLiteral("<br>") + nodeFiguresHtml(source_.tree->nodes[frame.node]);
  return text;
}

bool FlameGraphWidget::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (const FlameFrame* f = frameAt(help->pos())) {
      QToolTip::showText(help->globalPos(), frameTooltip(*f), this, frameRect(*f).toRect());
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(event);
}

void FlameGraphWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const FlameFrame* f = frameAt(event->position());
  if (!f) return;
  selected_ = f->node;
  update();
  emit framePicked(f->node, f->thread);
}

void FlameGraphWidget::mouseDoubleClickEvent(QMouseEvent* event) {
  const FlameFrame* f = frameAt(event->position());
  emit zoomRequested(f ? f->node : kNoIndex);
}

void FlameGraphWidget::resizeEvent(QResizeEvent*) { relayout(); }

void FlameGraphWidget::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
    palette_ = TimelinePalette::forDark(paletteIsDark());
    update();
  }
  QWidget::changeEvent(event);
}

}  // namespace gapscope::app
