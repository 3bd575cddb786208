#include "ranks/heat_legend.h"

#include <QLinearGradient>
#include <QPainter>

#include "ranks/heat_colours.h"

namespace gapscope::app {

namespace {

constexpr int kRampWidth = 160;
constexpr int kSwatch = 14;
constexpr int kGap = 8;

}  // namespace

HeatLegend::HeatLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("heatLegend"));
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void HeatLegend::setRange(const QString& lowest, const QString& highest) {
  lowest_ = lowest;
  highest_ = highest;
  updateGeometry();
  update();
}

void HeatLegend::setWarmUp(bool shown) {
  warmUp_ = shown;
  updateGeometry();
  update();
}

QString HeatLegend::outlineText() const { return tr("outlined: the slowest rank of a straggling step"); }

QString HeatLegend::warmUpText() const { return tr("grey: warm-up, left out"); }

QSize HeatLegend::sizeHint() const {
  const QFontMetrics fm(font());
  int width = fm.horizontalAdvance(lowest_) + kRampWidth + fm.horizontalAdvance(highest_) + kSwatch +
              fm.horizontalAdvance(outlineText()) + 6 * kGap;
  if (warmUp_) width += kSwatch + fm.horizontalAdvance(warmUpText()) + 4 * kGap;
  return {width, fm.height() + 6};
}

QSize HeatLegend::minimumSizeHint() const { return {kRampWidth, sizeHint().height()}; }

void HeatLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QFontMetrics fm(font());
  const int h = fm.height();
  const int y = (height() - h) / 2;
  p.setPen(palette().color(QPalette::WindowText));
  int x = 0;
  p.drawText(QRect(x, y, fm.horizontalAdvance(lowest_), h), Qt::AlignVCenter, lowest_);
  x += fm.horizontalAdvance(lowest_) + kGap;
  QLinearGradient ramp(x, 0, x + kRampWidth, 0);
  for (int i = 0; i <= 8; ++i) ramp.setColorAt(i / 8.0, heatColour(i / 8.0));
  const QRect bar(x, y + h / 4, kRampWidth, h / 2);
  p.fillRect(bar, ramp);
  x += kRampWidth + kGap;
  p.drawText(QRect(x, y, fm.horizontalAdvance(highest_), h), Qt::AlignVCenter, highest_);
  x += fm.horizontalAdvance(highest_) + 3 * kGap;
  // The outline as the map draws it: a text-coloured ring around a base-coloured one.
  const QRect swatch(x, y + (h - kSwatch) / 2, kSwatch, kSwatch);
  p.fillRect(swatch, heatColour(0.9));
  p.setPen(QPen(palette().color(QPalette::Text), 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
  p.drawRect(QRectF(swatch).adjusted(-0.5, -0.5, 0.5, 0.5));
  p.setPen(QPen(palette().color(QPalette::Base), 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
  p.drawRect(QRectF(swatch).adjusted(2, 2, -2, -2));
  x += kSwatch + kGap;
  p.setPen(palette().color(QPalette::WindowText));
  p.drawText(QRect(x, y, width() - x, h), Qt::AlignVCenter, fm.elidedText(outlineText(), Qt::ElideRight, width() - x));
  if (!warmUp_) return;
  // Last, so that a narrow window drops it rather than cut the outline's key (the notes name the warm-up too).
  x += fm.horizontalAdvance(outlineText()) + 3 * kGap;
  if (x + kSwatch + kGap + fm.horizontalAdvance(warmUpText()) > width()) return;  // whole or not at all
  p.fillRect(QRect(x, y + (h - kSwatch) / 2, kSwatch, kSwatch), warmUpColour(palette()));
  x += kSwatch + kGap;
  p.drawText(QRect(x, y, fm.horizontalAdvance(warmUpText()), h), Qt::AlignVCenter, warmUpText());
}

}  // namespace gapscope::app
