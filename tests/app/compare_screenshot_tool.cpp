// Screenshots of the compare window for looking at it as a user would:
// opens A and B, aligns them at step 2, picks the largest kernel group (or
// kernel), and saves a PNG at 1920x1080, 1280x800 and 1024x700, light and
// dark. Not a test; run it under a real X server, once as is and once with
// QT_SCALE_FACTOR=2 (the files then end in "@2x"):
//   xvfb-run -s "-screen 0 2000x1200x24" gapscope_compare_screenshots A B OUTDIR [--a FILE]... [--b FILE]...
// --a and --b add further recordings of A and of B (Add Recordings of A…),
// and the Recordings tab is shot too.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QThread>

#include <cstdio>

#include "app_setup.h"
#include "settle.h"
#include "compare/compare_panel.h"
#include "panels/table_panel.h"
#include "compare/compare_window.h"
#include "main_window.h"
#include "models/report_table_model.h"

using namespace gapscope::app;
using gapscope::app::testing::settle;

namespace {

void pickTheme(MainWindow& themes, const QString& name) {
  for (QAction* a : themes.findChildren<QAction*>())
    if (a->text() == name) a->trigger();
  settle();
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  setupApplication(app);
  QApplication::setOrganizationName(QStringLiteral("gapscope-screenshots"));  // leaves the user's settings alone
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s A B OUTDIR\n", argv[0]);
    return 2;
  }
  QSettings().clear();
  const QString out = QString::fromLocal8Bit(argv[3]);
  QDir().mkpath(out);
  const QString suffix = qEnvironmentVariable("QT_SCALE_FACTOR") == QStringLiteral("2") ? QStringLiteral("@2x") : QString();
  MainWindow themes;  // owns View > Theme
  CompareWindow w;
  QSignalSpy compared(&w, &CompareWindow::comparisonReady);
  w.show();
  w.openPair(QString::fromLocal8Bit(argv[1]), QString::fromLocal8Bit(argv[2]));
  QElapsedTimer clock;
  clock.start();
  while (compared.isEmpty() && clock.elapsed() < 60000) settle(50);
  if (compared.isEmpty()) {
    std::fprintf(stderr, "the pair was not compared: %s\n", qPrintable(w.lastError()));
    return 1;
  }
  QStringList more[2];
  for (int i = 4; i + 1 < argc; i += 2) more[QString::fromLocal8Bit(argv[i]) == QStringLiteral("--b") ? 1 : 0] << QString::fromLocal8Bit(argv[i + 1]);
  for (CompareWindow::Side side : {CompareWindow::A, CompareWindow::B}) {
    if (more[side].isEmpty()) continue;
    compared.clear();
    w.addRecordings(side, more[side]);
    clock.restart();
    while (compared.isEmpty() && clock.elapsed() < 120000) settle(50);
  }
  ComparePanel* panel = w.panel();
  const bool groups = panel->model("kernel_groups")->rowCount() > 0;
  QWidget* rowsTab = panel->panel(groups ? "kernel_groups" : "kernels");
  panel->tabs()->setCurrentWidget(rowsTab);
  for (const QString& theme : {QStringLiteral("Light"), QStringLiteral("Dark")}) {
    pickTheme(themes, theme);
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 800), QSize(1024, 700)}) {
      w.resize(size);
      settle();
      w.alignAtStep(1);
      if (groups) panel->activateGroup(0);
      else panel->activateKernel(0);
      settle();
      const QString path = QStringLiteral("%1/compare-%2x%3-%4%5.png")
                               .arg(out).arg(size.width()).arg(size.height()).arg(theme.toLower(), suffix);
      if (!w.grab().save(path)) std::fprintf(stderr, "could not write %s\n", qPrintable(path));
      std::printf("%s\n", qPrintable(path));
    }
    // The per-step and step-times tabs, at the middle size and the smallest.
    for (const QSize size : {QSize(1280, 800), QSize(1024, 700)}) {
      w.resize(size);
      const int recordingsTab = panel->tabs()->indexOf(panel->panel("recordings"));
      for (const auto& [tab, name] : {std::pair{0, QStringLiteral("per-step")}, std::pair{1, QStringLiteral("step-times")},
                                      std::pair{recordingsTab, QStringLiteral("recordings")}}) {
        if (!panel->tabs()->isTabVisible(tab)) continue;
        panel->tabs()->setCurrentIndex(tab);
        settle();
        const QString path = QStringLiteral("%1/compare-%2-%3x%4-%5%6.png")
                                 .arg(out, name).arg(size.width()).arg(size.height()).arg(theme.toLower(), suffix);
        if (!w.grab().save(path)) std::fprintf(stderr, "could not write %s\n", qPrintable(path));
        std::printf("%s\n", qPrintable(path));
      }
    }
    panel->tabs()->setCurrentWidget(rowsTab);
  }
  return 0;
}
