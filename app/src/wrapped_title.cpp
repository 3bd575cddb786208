#include "wrapped_title.h"

#include <QPainter>
#include <QTextLayout>
#include <QTextOption>

#include <algorithm>

namespace gapscope::app {

WrappedTitle::WrappedTitle(int maxLines, QWidget* parent) : QWidget(parent), maxLines_(std::max(maxLines, 1)) {
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

void WrappedTitle::setText(const QString& text) {
  text_ = text;
  setToolTip(text);
  setVisible(!text.isEmpty());
  updateGeometry();
  update();
}

QStringList WrappedTitle::linesAt(int width) const {
  QStringList lines;
  if (text_.isEmpty() || width <= 0) return lines;
  QTextLayout layout(text_, font());
  QTextOption option;
  option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  layout.setTextOption(option);
  layout.beginLayout();
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(width);
    if (lines.size() == maxLines_ - 1) {
      // The last line allowed holds the rest, elided.
      lines << fontMetrics().elidedText(text_.mid(line.textStart()), Qt::ElideRight, width);
      break;
    }
    lines << text_.mid(line.textStart(), line.textLength());
  }
  layout.endLayout();
  return lines;
}

int WrappedTitle::heightForWidth(int width) const {
  const int lines = static_cast<int>(linesAt(width - contentsMargins().left() - contentsMargins().right()).size());
  return std::max(lines, 1) * fontMetrics().lineSpacing() + contentsMargins().top() + contentsMargins().bottom();
}

QSize WrappedTitle::sizeHint() const {
  return {fontMetrics().averageCharWidth() * 30, heightForWidth(width() > 0 ? width() : 300)};
}

QSize WrappedTitle::minimumSizeHint() const {
  return {fontMetrics().averageCharWidth() * 6, heightForWidth(width() > 0 ? width() : 300)};
}

void WrappedTitle::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setPen(palette().color(foregroundRole()));
  const QRect r = contentsRect();
  int y = r.top() + fontMetrics().ascent();
  for (const QString& line : linesAt(r.width())) {
    painter.drawText(r.left(), y, line);
    y += fontMetrics().lineSpacing();
  }
}

}  // namespace gapscope::app
