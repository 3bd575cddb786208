#include "elided_label.h"

#include <QPainter>
#include <QStyle>

namespace gapscope::app {

QSize ElidedLabel::minimumSizeHint() const {
  // A few characters: the label gives way to its neighbours, eliding.
  return {fontMetrics().averageCharWidth() * 6, QLabel::minimumSizeHint().height()};
}

QString ElidedLabel::shownText() const {
  return fontMetrics().elidedText(text(), Qt::ElideRight, contentsRect().width());
}

void ElidedLabel::paintEvent(QPaintEvent*) {
  const QString shown = shownText();
  setToolTip(shown == text() ? QString() : text());
  QPainter painter(this);
  style()->drawItemText(&painter, contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, palette(), isEnabled(), shown,
                        foregroundRole());
}

}  // namespace gapscope::app
