// For the screenshot tools: lets the event loop run for a while, so layouts,
// workers and repaints finish before a window is grabbed.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>

namespace gapscope::app::testing {

inline void settle(int ms = 300) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(10);
  }
}

}  // namespace gapscope::app::testing
