#include "app_test_support.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QThread>

#include <memory>

#include "app_setup.h"
#include "panels/step_times_chart.h"

#include <qcustomplot.h>

namespace gapscope::app::testing {

QApplication& ensureApp() {
  // Never destroyed: tearing QApplication down from a static destructor,
  // after main() returned, crashes in Qt's own cleanup.
  static QApplication* instance = nullptr;
  if (!instance) {
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    // Settings and the extracted sample go to a directory of this process
    // alone: ctest runs test processes side by side, and the user's own
    // settings must stay untouched.
    static QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", (home.path() + QStringLiteral("/cache")).toLocal8Bit());
    static int argc = 1;
    static char name[] = "app_tests";
    static char* argv[] = {name, nullptr};
    instance = new QApplication(argc, argv);
    setupApplication(*instance);
    QApplication::setOrganizationName(QStringLiteral("gapscope-tests"));
  }
  return *instance;
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  QApplication::processEvents();
  return true;
}

QString testData(const std::string& relative) {
  return QString::fromStdString(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relative);
}

LoadedTrace analysed(Trace&& trace, const QString& name) { return analyseTrace(std::move(trace), name); }

QPoint pixelOfStep(const StepTimesChart& chart, int run, qint64 step) {
  chart.plot()->replot();
  const QCPGraph* line = chart.plot()->graph(2 * run);
  for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it) {
    if (it->key != static_cast<double>(step)) continue;
    return QPoint(static_cast<int>(line->keyAxis()->coordToPixel(it->key)),
                  static_cast<int>(line->valueAxis()->coordToPixel(it->value)));
  }
  return QPoint(-1, -1);
}

}  // namespace gapscope::app::testing
