// gapscope: the desktop application. `gapscope [TRACE] [--compare B]`,
// `gapscope --ranks DIR | FILE...`.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "app_setup.h"
#include "gapscope/io/heap_setup.h"
#include "main_window.h"

int main(int argc, char** argv) {
  gapscope::io::setUpHeap(argv);  // before Qt starts any thread
  QApplication app(argc, argv);
  gapscope::app::setupApplication(app);

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("GPU profiler trace viewer: where the GPU waited and why."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("trace"),
                               QStringLiteral("Chrome trace JSON (.json or .json.gz) to open."),
                               QStringLiteral("[TRACE]"));
  const QCommandLineOption compare(QStringLiteral("compare"),
                                   QStringLiteral("Compare TRACE (run A) with B (run B), side by side."),
                                   QStringLiteral("B"));
  parser.addOption(compare);
  const QCommandLineOption ranks(QStringLiteral("ranks"),
                                 QStringLiteral("Open the arguments (a directory, or several traces) as the ranks of "
                                                "one distributed run: the Ranks window."));
  parser.addOption(ranks);
  parser.process(app);

  gapscope::app::MainWindow window;
  window.show();
  const QStringList args = parser.positionalArguments();
  if (!args.isEmpty() && parser.isSet(ranks)) {
    window.openRanks(args);
  } else if (!args.isEmpty() && parser.isSet(compare)) {
    // Run A is the main window's trace: read once, shown in both windows.
    const QString b = parser.value(compare);
    QObject::connect(&window, &gapscope::app::MainWindow::traceLoaded, &window,
                     [&window, b] { window.compareWith(b); }, Qt::SingleShotConnection);
    window.openTrace(args.first());
  } else if (!args.isEmpty()) {
    window.openTrace(args.first());
  } else {
    // After the window is shown, so the offer appears on top of it.
    QTimer::singleShot(0, &window, &gapscope::app::MainWindow::offerSample);
  }
  return app.exec();
}
