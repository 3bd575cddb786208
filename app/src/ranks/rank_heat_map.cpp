#include "ranks/rank_heat_map.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>

#include "models/table_format.h"
#include "ranks/heat_colours.h"
#include "timeline/timeline_palette.h"

namespace gapscope::app {

namespace {

QString rankLabel(std::int64_t rank) { return QObject::tr("rank %1").arg(rank); }

// Cells big enough to be told apart keep a one-pixel seam between them.
bool heatCellsHaveSeams(const HeatMapGeometry& g) { return g.cellWidth >= 8 && g.cellHeight >= 8; }

}  // namespace

RankHeatMap::RankHeatMap(QWidget* parent)
    : QWidget(parent), hbar_(new QScrollBar(Qt::Horizontal, this)), vbar_(new QScrollBar(Qt::Vertical, this)) {
  setObjectName(QStringLiteral("rankHeatMap"));
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  hbar_->hide();
  vbar_->hide();
  connect(hbar_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  connect(vbar_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
  for (QScrollBar* bar : {hbar_, vbar_}) connect(bar, &QScrollBar::actionTriggered, this, [this] { shown_.reset(); });
}

void RankHeatMap::setGrid(RankGrid grid) {
  grid_ = std::move(grid);
  hover_.reset();
  pressed_.reset();
  shown_.reset();
  scale_ = grid_.range(metric_);
  straggling_.clear();
  for (int row = 0; row < grid_.rows(); ++row) {
    for (int column = 0; column < grid_.columns(); ++column) {
      if (grid_.cell(row, column).straggling) straggling_.push_back({row, column});
    }
  }
  consecutiveRanks_ = consecutive(grid_.rankNumbers());
  consecutiveSteps_ = consecutive(grid_.stepNumbers());
  relayout();
}

void RankHeatMap::setMetric(RankMetric metric) {
  metric_ = metric;
  scale_ = grid_.range(metric_);
  update();
}

void RankHeatMap::setPlaceholder(const QString& text) {
  placeholder_ = text;
  update();
}

QColor RankHeatMap::colourOf(double value) const {
  const double span = scale_.second - scale_.first;
  // A flat grid (every rank alike) sits in the middle of the scale.
  return heatColour(span > 0 ? (value - scale_.first) / span : 0.5);
}

int RankHeatMap::preferredHeight() const {
  const int line = QFontMetrics(font()).height();
  return 8 + line + 6 + grid_.rows() * (2 * line + 4);
}

QSize RankHeatMap::sizeHint() const { return {640, std::min(preferredHeight(), 600)}; }
QSize RankHeatMap::minimumSizeHint() const { return {240, 120}; }

HeatMapFont RankHeatMap::fontFigures() const {
  const QFontMetrics fm(font());
  HeatMapFont f;
  f.lineHeight = fm.height();
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics bm(bold);  // straggler labels are bold
  for (int row = 0; row < grid_.rows(); ++row) {
    f.rowLabelWidth = std::max(f.rowLabelWidth, bm.horizontalAdvance(rankLabel(grid_.rankNumber(row))));
  }
  f.rowLabelWidth = std::max(f.rowLabelWidth, fm.horizontalAdvance(tr("step"))) + 4;
  for (int column = 0; column < grid_.columns(); ++column) {
    f.columnLabelWidth = std::max(f.columnLabelWidth, fm.horizontalAdvance(QString::number(grid_.stepNumber(column))));
  }
  return f;
}

void RankHeatMap::relayout() {
  const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
  geometry_ = layoutHeatMap(grid_.rows(), grid_.columns(), rect().adjusted(4, 4, -4, -4), fontFigures(), bar);
  const QRect& cells = geometry_.cells;
  hbar_->setVisible(geometry_.scrollsHorizontally);
  vbar_->setVisible(geometry_.scrollsVertically);
  hbar_->setGeometry(cells.left(), height() - bar, cells.width(), bar);
  vbar_->setGeometry(width() - bar, cells.top(), bar, cells.height());
  hbar_->setRange(0, std::max(0, geometry_.content.width() - cells.width()));
  hbar_->setPageStep(cells.width());
  hbar_->setSingleStep(geometry_.cellWidth);
  vbar_->setRange(0, std::max(0, geometry_.content.height() - cells.height()));
  vbar_->setPageStep(cells.height());
  vbar_->setSingleStep(geometry_.cellHeight);
  if (shown_) scrollToCell(shown_->first, shown_->second);
  update();
}

QRect RankHeatMap::cellRect(int row, int column) const {
  const HeatMapGeometry& g = geometry_;
  return {g.cells.left() + column * g.cellWidth - hbar_->value(), g.cells.top() + row * g.cellHeight - vbar_->value(),
          g.cellWidth, g.cellHeight};
}

std::optional<RankHeatMap::Cell> RankHeatMap::cellAt(const QPoint& pos) const {
  const HeatMapGeometry& g = geometry_;
  if (!g.cells.contains(pos) || g.cellWidth <= 0 || g.cellHeight <= 0) return std::nullopt;
  const int column = (pos.x() - g.cells.left() + hbar_->value()) / g.cellWidth;
  const int row = (pos.y() - g.cells.top() + vbar_->value()) / g.cellHeight;
  if (row < 0 || row >= grid_.rows() || column < 0 || column >= grid_.columns()) return std::nullopt;
  return Cell{row, column};
}

void RankHeatMap::showCell(int row, int column) {
  if (row < 0 || row >= grid_.rows() || column >= grid_.columns()) return;
  shown_ = Cell{row, column};
  scrollToCell(row, column);
}

void RankHeatMap::scrollToCell(int row, int column) {
  const HeatMapGeometry& g = geometry_;
  const int x = column * g.cellWidth, y = row * g.cellHeight;
  if (column >= 0 && (x < hbar_->value() || x + g.cellWidth > hbar_->value() + g.cells.width())) {
    hbar_->setValue(x - (g.cells.width() - g.cellWidth) / 2);
  }
  if (y < vbar_->value() || y + g.cellHeight > vbar_->value() + g.cells.height()) {
    vbar_->setValue(y - (g.cells.height() - g.cellHeight) / 2);
  }
}

std::pair<int, int> RankHeatMap::visibleRows() const {
  const HeatMapGeometry& g = geometry_;
  return {vbar_->value() / g.cellHeight,
          std::min(grid_.rows() - 1, (vbar_->value() + g.cells.height()) / g.cellHeight)};
}

std::pair<int, int> RankHeatMap::visibleColumns() const {
  const HeatMapGeometry& g = geometry_;
  return {hbar_->value() / g.cellWidth,
          std::min(grid_.columns() - 1, (hbar_->value() + g.cells.width()) / g.cellWidth)};
}

bool RankHeatMap::isStraggler(int row) const {
  const auto& stragglers = grid_.ranks()->analysis.stragglers;
  return std::find(stragglers.begin(), stragglers.end(), grid_.rankNumber(row)) != stragglers.end();
}

QString RankHeatMap::toolTipFor(int row, int column) const {
  const RankCell& c = grid_.cell(row, column);
  const std::int64_t rank = grid_.rankNumber(row), step = grid_.stepNumber(column);
  QString text = QStringLiteral("<b>%1 · %2</b>").arg(rankLabel(rank), tr("step %1").arg(step));
  if (!c.step) return text + QStringLiteral("<br>") + tr("this rank has no step %1").arg(step);
  if (grid_.isWarmUp(column)) {
    text += QStringLiteral("<br>") +
            tr("a warm-up step (start-up or compilation): left out of the colour scale and the straggler analysis");
  }
  if (c.straggling) {
    const ranks::StepRow& s = grid_.ranks()->analysis.steps[static_cast<std::size_t>(column)];
    text += QStringLiteral("<br>") + tr("straggling: the slowest rank, its own time %1 over the median rank's %2")
                                         .arg(durationText(s.slowestNs - s.medianNs), durationText(s.medianNs));
  }
  text += QStringLiteral("<table>");
  for (int m = 0; m < kRankMetricCount; ++m) {
    const auto metric = static_cast<RankMetric>(m);
    const auto v = grid_.value(metric, row, column);
    const QString figure = v ? metricExactText(metric, *v) : tr("no GPU work");
    const QString cell = QStringLiteral("<td>%1</td><td align='right'>&nbsp;%2</td>").arg(metricLabel(metric), figure);
    text += metric == metric_ ? QStringLiteral("<tr style='font-weight:bold'>%1</tr>").arg(cell)
                              : QStringLiteral("<tr>%1</tr>").arg(cell);
  }
  text += QStringLiteral("</table>");
  return text + tr("Click to open the timeline of %1 at step %2").arg(rankLabel(rank)).arg(step);
}

bool RankHeatMap::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  auto* help = static_cast<QHelpEvent*>(event);
  const auto cell = cellAt(help->pos());
  if (!cell) {
    QToolTip::hideText();
    event->ignore();
    return true;
  }
  QToolTip::showText(help->globalPos(), toolTipFor(cell->first, cell->second), this,
                     cellRect(cell->first, cell->second));
  return true;
}

void RankHeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (grid_.rows() == 0 || grid_.columns() == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
    return;
  }
  p.save();
  p.setClipRect(geometry_.cells);
  paintCells(p);
  p.restore();
  // Outlines reach a little past their cell: clipped to the map's margin, not its cells.
  p.save();
  p.setClipRect(geometry_.cells.adjusted(-3, -3, 3, 3));
  paintOutlines(p);
  p.restore();
  paintLabels(p);
}

void RankHeatMap::paintCells(QPainter& p) const {
  const HeatMapGeometry& g = geometry_;
  const int seam = heatCellsHaveSeams(g) ? 1 : 0;
  const auto [firstRow, lastRow] = visibleRows();
  const auto [firstColumn, lastColumn] = visibleColumns();
  const QFontMetrics fm(font());
  // Narrow cells (20 steps in a 1024 px window) take the figure a size smaller.
  QFont small = font();
  small.setPointSizeF(font().pointSizeF() * 0.85);
  const QFontMetrics smallFm(small);
  const QBrush missing(palette().color(QPalette::Mid), Qt::BDiagPattern);
  for (int row = firstRow; row <= lastRow; ++row) {
    for (int column = firstColumn; column <= lastColumn; ++column) {
      const QRect r = cellRect(row, column).adjusted(0, 0, -seam, -seam);
      const auto v = grid_.value(metric_, row, column);
      if (!v) {
        p.fillRect(r, missing);
        continue;
      }
      const QColor fill = grid_.isWarmUp(column) ? warmUpColour(palette()) : colourOf(*v);
      p.fillRect(r, fill);
      // The figure itself where it fits; the tooltip has it otherwise.
      const QString text = metricText(metric_, *v);
      const bool fits = fm.horizontalAdvance(text) + 6 <= r.width() && fm.height() <= r.height();
      const bool fitsSmall = smallFm.horizontalAdvance(text) + 4 <= r.width() && smallFm.height() <= r.height();
      if (fits || fitsSmall) {
        p.setFont(fits ? font() : small);
        p.setPen(TimelinePalette::textOn(fill));
        p.drawText(r, Qt::AlignCenter, text);
      }
    }
  }
}

// Straggling cells get a thick ring of the text colour straddling their
// edge with a base-coloured ring inside it: one of the two stands out on
// any colour of the scale. Cells too small for both get the outer ring only,
// around them.
void RankHeatMap::paintOutlines(QPainter& p) const {
  const QColor outer = palette().color(QPalette::Text);
  const QColor inner = palette().color(QPalette::Base);
  const int seam = heatCellsHaveSeams(geometry_) ? 1 : 0;
  const bool roomInside = geometry_.cellWidth >= 12 && geometry_.cellHeight >= 12;
  p.setBrush(Qt::NoBrush);
  for (const auto& [row, column] : straggling_) {
    const QRectF r = QRectF(cellRect(row, column).adjusted(0, 0, -seam, -seam));
    if (!r.intersects(geometry_.cells)) continue;
    p.setPen(QPen(outer, 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(roomInside ? r.adjusted(-0.5, -0.5, 0.5, 0.5) : r.adjusted(-1.5, -1.5, 1.5, 1.5));
    if (!roomInside) continue;
    p.setPen(QPen(inner, 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(2, 2, -2, -2));
  }
  if (hover_) {
    p.setPen(QPen(outer, 1));
    p.drawRect(QRectF(cellRect(hover_->first, hover_->second)).adjusted(0.5, 0.5, -0.5 - seam, -0.5 - seam));
  }
}

void RankHeatMap::paintLabels(QPainter& p) const {
  const HeatMapGeometry& g = geometry_;
  const QFontMetrics fm(font());
  p.setPen(palette().color(QPalette::Text));
  const QRect labelColumn(4, g.cells.top(), g.cells.left() - 10, g.cells.height());
  // A label may stand half a line past the first or last row, never out of
  // the widget; one that would be cut is left out.
  const QRect room = labelColumn.adjusted(0, -fm.height() / 2, 0, fm.height() / 2).intersected(rect());
  QFont bold = font();
  bold.setBold(true);
  const auto [firstRow, lastRow] = visibleRows();
  for (int row = firstRow; row <= lastRow; ++row) {
    if (!labelledAt(row, grid_.rankNumber(row), consecutiveRanks_, g.rowLabelStride)) continue;
    const int centre = cellRect(row, 0).center().y();
    const QRect label(labelColumn.left(), centre - fm.height() / 2, labelColumn.width(), fm.height());
    if (!room.contains(label)) continue;
    p.setFont(isStraggler(row) ? bold : font());
    p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, rankLabel(grid_.rankNumber(row)));
  }
  p.setFont(font());
  paintColumnLabels(p);
}

void RankHeatMap::paintColumnLabels(QPainter& p) const {
  const HeatMapGeometry& g = geometry_;
  const QFontMetrics fm(font());
  const int top = g.cells.top() - fm.height() - 6;
  p.drawText(QRect(4, top, g.cells.left() - 10, fm.height()), Qt::AlignRight | Qt::AlignVCenter, tr("step"));
  // A label may reach a little past the first or last visible column, never
  // into the corner's "step" nor out of the widget; one that would be cut is left out.
  const int slack = 2 * fm.averageCharWidth();
  const QRect room = QRect(g.cells.left() - slack, top, g.cells.width() + 2 * slack, fm.height()).intersected(rect());
  const auto [firstColumn, lastColumn] = visibleColumns();
  for (int column = firstColumn; column <= lastColumn; ++column) {
    if (!labelledAt(column, grid_.stepNumber(column), consecutiveSteps_, g.columnLabelStride)) continue;
    const QString text = QString::number(grid_.stepNumber(column));
    const int w = fm.horizontalAdvance(text);
    const QRect label(cellRect(0, column).center().x() - w / 2 - 2, top, w + 4, fm.height());
    if (room.contains(label)) p.drawText(label, Qt::AlignCenter, text);
  }
}

void RankHeatMap::resizeEvent(QResizeEvent*) { relayout(); }

void RankHeatMap::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) relayout();
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) update();
}

void RankHeatMap::mouseMoveEvent(QMouseEvent* event) {
  const auto cell = cellAt(event->position().toPoint());
  const bool clickable = cell && grid_.cell(cell->first, cell->second).step;
  setCursor(clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
  if (cell != hover_) {
    hover_ = cell;
    update();
  }
}

void RankHeatMap::mousePressEvent(QMouseEvent* event) {
  pressed_ = event->button() == Qt::LeftButton ? cellAt(event->position().toPoint()) : std::nullopt;
}

void RankHeatMap::mouseReleaseEvent(QMouseEvent* event) {
  const auto cell = event->button() == Qt::LeftButton ? cellAt(event->position().toPoint()) : std::nullopt;
  if (cell && cell == pressed_ && grid_.cell(cell->first, cell->second).step) {
    emit cellActivated(cell->first, cell->second);
  }
  pressed_.reset();
}

void RankHeatMap::leaveEvent(QEvent*) {
  if (!hover_) return;
  hover_.reset();
  update();
}

void RankHeatMap::wheelEvent(QWheelEvent* event) {
  const QPoint delta = event->angleDelta();
  const bool sideways = delta.x() != 0 || (event->modifiers() & Qt::ShiftModifier);
  QScrollBar* bar = sideways ? hbar_ : vbar_;
  shown_.reset();
  const int steps = (delta.x() != 0 ? delta.x() : delta.y()) / 40;
  bar->setValue(bar->value() - steps * bar->singleStep());
  event->accept();
}

}  // namespace gapscope::app
