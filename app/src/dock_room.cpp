#include "dock_room.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

namespace gapscope::app {

DockRoom::DockRoom(QMainWindow* window, double maxBottomShare, double maxSideShare)
    : QObject(window), window_(window), maxBottomShare_(maxBottomShare), maxSideShare_(maxSideShare) {
  window->installEventFilter(this);
}

bool DockRoom::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::Resize) queueCheck();
  return false;
}

// The docks have their new sizes only once the layout has run: check then.
void DockRoom::queueCheck() {
  if (queued_) return;
  queued_ = true;
  QTimer::singleShot(0, this, [this] {
    queued_ = false;
    check();
  });
}

void DockRoom::check() {
  QList<QDockWidget*> bottom, side;
  QList<int> heights, widths;
  const int maxHeight = static_cast<int>(maxBottomShare_ * window_->height());
  const int maxWidth = static_cast<int>(maxSideShare_ * window_->width());
  for (QDockWidget* d : window_->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
    if (d->isFloating() || !d->isVisible()) continue;
    const Qt::DockWidgetArea area = window_->dockWidgetArea(d);
    if (area == Qt::BottomDockWidgetArea && d->height() > maxHeight) {
      bottom.append(d);
      heights.append(maxHeight);
    } else if ((area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) && d->width() > maxWidth) {
      side.append(d);
      widths.append(maxWidth);
    }
  }
  if (!bottom.isEmpty()) window_->resizeDocks(bottom, heights, Qt::Vertical);
  if (!side.isEmpty()) window_->resizeDocks(side, widths, Qt::Horizontal);
}

}  // namespace gapscope::app
