// For the screenshot tools: lets the event loop run for a while, so layouts,
// workers and repaints finish before a window is grabbed; then grabs it.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QThread>
#include <QWidget>

#include <cstdio>

namespace gapscope::app::testing {

inline void settle(int ms = 300) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(10);
  }
}

// Settles, then saves `w` as DIR/NAME and prints the path.
inline void saveGrab(QWidget* w, const QString& dir, const QString& name) {
  settle();
  const QString path = dir + QLatin1Char('/') + name;
  if (!w->grab().save(path)) std::fprintf(stderr, "could not write %s\n", qPrintable(path));
  std::printf("%s\n", qPrintable(path));
}

}  // namespace gapscope::app::testing
