#include "app_test_support.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QThread>

#include <memory>

#include "app_setup.h"

namespace gapscope::app::testing {

QApplication& ensureApp() {
  static std::unique_ptr<QApplication> instance;
  if (!instance) {
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    static int argc = 1;
    static char name[] = "app_tests";
    static char* argv[] = {name, nullptr};
    instance = std::make_unique<QApplication>(argc, argv);
    setupApplication(*instance);
    // Never touch the user's settings.
    QApplication::setOrganizationName(QStringLiteral("gapscope-tests"));
    QSettings().clear();
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

}  // namespace gapscope::app::testing
