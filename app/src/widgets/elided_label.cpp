#include "widgets/elided_label.h"

#include <QPainter>

namespace gapscope::app {

ElidedLabel::ElidedLabel(QWidget* parent) : QFrame(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void ElidedLabel::setText(const QString& text) {
  text_ = text;
  setToolTip(text);
  updateGeometry();
  update();
}

QSize ElidedLabel::sizeHint() const {
  return {fontMetrics().horizontalAdvance(text_), fontMetrics().height()};
}

QSize ElidedLabel::minimumSizeHint() const { return {fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4, fontMetrics().height()}; }

void ElidedLabel::paintEvent(QPaintEvent* event) {
  QFrame::paintEvent(event);
  QPainter p(this);
  p.setPen(palette().color(QPalette::WindowText));
  p.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter,
             fontMetrics().elidedText(text_, Qt::ElideRight, contentsRect().width()));
}

}  // namespace gapscope::app
