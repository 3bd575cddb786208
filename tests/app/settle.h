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

// Settles, then saves `w` as DIR/NAME and prints the path, with the time
// since the last grab was saved: what the steps between took, the settle
// (300 ms at least) and the grab included. A step that blocks the event
// loop on a big trace shows there.
inline void saveGrab(QWidget* w, const QString& dir, const QString& name) {
  static QElapsedTimer sinceLast;
  settle();
  const QString path = dir + QLatin1Char('/') + name;
  if (!w->grab().save(path)) std::fprintf(stderr, "could not write %s\n", qPrintable(path));
  const double seconds = sinceLast.isValid() ? static_cast<double>(sinceLast.elapsed()) / 1000.0 : 0.0;
  std::printf("%s (%.2f s since the last grab)\n", qPrintable(path), seconds);
  std::fflush(stdout);
  sinceLast.start();
}

}  // namespace gapscope::app::testing
