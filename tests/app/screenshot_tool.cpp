// Takes the screenshots in docs/screenshots: opens a trace in the real main
// window, walks through the main views and saves a PNG of each. Not a test;
// run it under a real X server (xvfb-run) so fonts and styles are the
// platform's:
//   xvfb-run -s "-screen 0 1600x1000x24" gapscope_screenshots TRACE OUTDIR [WxH] [--dark]
//   xvfb-run -s "-screen 0 1600x1000x24" gapscope_screenshots --ranks RANKDIR OUTDIR [WxH] [--dark] [--with RANKDIR_B]
//       [--add-a RANKDIR]... [--add-b RANKDIR]...
// WxH sizes the window (default 1600x1000); --dark takes every shot in the
// dark theme. --ranks takes the Ranks window's shots of the rank set in
// RANKDIR (rank_screenshots.h; an empty RANKDIR gets a generated set);
// --with adds the window comparing it with the run in RANKDIR_B.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPixmap>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QThread>
#include <QTimer>

#include <cstdio>

#include "gapscope/io/heap_setup.h"
#include "about.h"
#include "app_setup.h"
#include "settle.h"
#include "gapscope/timeline/slice_queries.h"
#include "main_window.h"
#include "panels/analysis_panels.h"
#include "panels/issues_panel.h"
#include <QTreeWidget>
#if defined(GAPSCOPE_APP_HAVE_RECORDER) && defined(GAPSCOPE_FAKE_PROGRAM)
#include "record_dialog.h"
#endif
#include "panels/table_panel.h"
#ifdef GAPSCOPE_SCREENSHOTS_RANKS
#include "rank_screenshots.h"
#endif
#include "timeline/timeline_view.h"
#include <QComboBox>
#include <QLineEdit>

#include "calltree/flame_graph_panel.h"
#include "calltree/flame_graph_widget.h"
#include "timeline/timeline_widget.h"
#include "panels/memory_panel.h"
#include "trace_loader.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::saveGrab;
using gapscope::app::testing::settle;

namespace {

void raiseDock(MainWindow& w, const QString& name) {
  if (auto* d = w.findChild<QDockWidget*>(name)) {
    d->show();
    d->raise();
  }
}

// VmHWM of /proc/self/status ("1234567 kB"), or "unknown".
QString peakRssText() {
  QFile status(QStringLiteral("/proc/self/status"));
  if (!status.open(QIODevice::ReadOnly)) return QStringLiteral("unknown");
  for (const QByteArray& line : status.readAll().split('\n')) {
    if (line.startsWith("VmHWM:")) return QString::fromLatin1(line.mid(6).trimmed());
  }
  return QStringLiteral("unknown");
}

void pickTheme(MainWindow& w, const QString& name) {
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text() == name) a->trigger();
  settle(500);
}

std::uint32_t firstKernel(const Trace& t, const char* nameContains) {
  for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
    if (t.slices[i].kind == SliceKind::Kernel && t.str(t.slices[i].name).find(nameContains) != std::string_view::npos) {
      return i;
    }
  }
  return kNoIndex;
}

}  // namespace

int main(int argc, char** argv) {
  gapscope::io::setUpHeap(argv);  // as gapscope does: its load times and memory
  QApplication app(argc, argv);
  setupApplication(app);
  QApplication::setOrganizationName(QStringLiteral("gapscope-screenshots"));  // leaves the user's settings alone
  const bool rankShots = argc > 1 && QString::fromLocal8Bit(argv[1]) == QStringLiteral("--ranks");
  const int first = rankShots ? 2 : 1;  // TRACE or RANKDIR
  if (argc < first + 2) {
    std::fprintf(stderr, "usage: %s TRACE OUTDIR [WxH] [--dark] [--open-only]\n       %s --ranks RANKDIR OUTDIR [WxH] [--dark] [--with RANKDIR_B]\n",
                 argv[0], argv[0]);
    return 2;
  }
  const QString trace = QString::fromLocal8Bit(argv[first]);
  const QString out = QString::fromLocal8Bit(argv[first + 1]);
  QSize size(1600, 1000);
  bool dark = false;
  bool openOnly = false;  // stop once the trace is open and drawn (timing big traces)
  QString otherRun;       // --with: a second run of the rank set's job
  std::array<QStringList, 2> moreRuns;  // --add-a, --add-b: further runs of each side
  for (int i = first + 2; i < argc; ++i) {
    const QString arg = QString::fromLocal8Bit(argv[i]);
    if (arg == QStringLiteral("--dark")) dark = true;
    else if (arg == QStringLiteral("--with") && i + 1 < argc) otherRun = QString::fromLocal8Bit(argv[++i]);
    else if (arg == QStringLiteral("--add-a") && i + 1 < argc) moreRuns[0] << QString::fromLocal8Bit(argv[++i]);
    else if (arg == QStringLiteral("--add-b") && i + 1 < argc) moreRuns[1] << QString::fromLocal8Bit(argv[++i]);
    else if (arg == QStringLiteral("--open-only")) openOnly = true;
    else if (const QStringList wh = arg.split(QLatin1Char('x')); wh.size() == 2) size = QSize(wh[0].toInt(), wh[1].toInt());
  }
  QDir().mkpath(out);
  QSettings().clear();
  if (rankShots) {
#ifdef GAPSCOPE_SCREENSHOTS_RANKS
    QDir().mkpath(trace);
    return gapscope::app::testing::takeRankShots(trace, out, size, dark, otherRun, moreRuns);
#else
    std::fprintf(stderr, "built without bench/ranks: no rank screenshots\n");
    return 2;
#endif
  }

  MainWindow w;
  w.resize(size);
  w.show();
  if (dark) pickTheme(w, QStringLiteral("Dark"));
  saveGrab(&w, out, QStringLiteral("welcome.png"));
  QElapsedTimer loadClock;
  loadClock.start();
  w.openTrace(trace);
  bool savedProgress = false;
  while (w.loader()->busy() || !w.session()->hasTrace()) {
    settle(50);
    if (!w.lastError().isEmpty()) {
      std::fprintf(stderr, "%s\n", qPrintable(w.lastError()));
      return 1;
    }
    // A big trace: show the progress bar half way.
    if (!savedProgress && loadClock.elapsed() > 3000 && w.loader()->busy()) {
      saveGrab(&w, out, QStringLiteral("loading.png"));
      savedProgress = true;
    }
  }
  std::printf("opened in %.2f s (the status bar's reading and analysing: %.2f s)\n",
              static_cast<double>(loadClock.elapsed()) / 1000.0, w.session()->loaded().seconds);
  saveGrab(&w, out, QStringLiteral("overview.png"));
  // The process's peak memory so far: the trace opened and drawn, no more
  // (docs/performance.md quotes it for large traces).
  std::fprintf(stderr, "peak RSS after opening: %s\n", qPrintable(peakRssText()));
  if (openOnly) return 0;

  // A kernel selected: its launch call highlighted, linked by the arrow.
  TraceSession* s = w.session();
  const Trace& t = s->trace();
  std::uint32_t kernel = firstKernel(t, "layer_norm");
  if (kernel == kNoIndex) kernel = firstKernel(t, "");
  if (kernel != kNoIndex) {
    const std::uint32_t launch = timeline::launchPartner(t, kernel);
    const TimeNs from = launch != kNoIndex ? t.slices[launch].start : t.slices[kernel].start;
    w.timeline()->fitRange(from - 20000, t.slices[kernel].end() + 40000);
    s->selectSlice(kernel);
  }
  saveGrab(&w, out, QStringLiteral("selection.png"));

  // The longest device gap, with the CPU work blamed for it.
  std::uint32_t longest = kNoIndex;
  for (std::uint32_t i = 0; i < s->gaps().gaps.size(); ++i) {
    const auto& g = s->gaps().gaps[i];
    if (g.stream < 0 && (longest == kNoIndex || g.dur > s->gaps().gaps[longest].dur)) longest = i;
  }
  if (longest != kNoIndex) {
    raiseDock(w, QStringLiteral("gapsDock"));
    s->focusGap(longest);
  }
  saveGrab(&w, out, QStringLiteral("gap.png"));

  raiseDock(w, QStringLiteral("chartsDock"));
  saveGrab(&w, out, QStringLiteral("charts.png"));

  // A step picked in the Steps dock: its range selected, the tables follow.
  const auto& steps = s->gaps().steps;
  if (!steps.empty()) {
    s->clearSelection();
    raiseDock(w, QStringLiteral("stepsDock"));
    s->selectStep(steps[steps.size() / 2]);
    saveGrab(&w, out, QStringLiteral("steps.png"));
    raiseDock(w, QStringLiteral("kernelsDock"));
    saveGrab(&w, out, QStringLiteral("range-kernels.png"));
    s->setRange(std::nullopt);
  }

  raiseDock(w, QStringLiteral("issuesDock"));
  saveGrab(&w, out, QStringLiteral("issues.png"));
  // The first issue picked: its event as written, then shown on the timeline.
  if (QTreeWidgetItem* first = w.issues()->tree()->topLevelItem(0)) {
    if (first->childCount() > 0) {
      first->setExpanded(true);
      first = first->child(0);
    }
    w.issues()->tree()->setCurrentItem(first);
    saveGrab(&w, out, QStringLiteral("issue-source.png"));
    w.issues()->showOnTimeline();
    saveGrab(&w, out, QStringLiteral("issue-shown.png"));
    s->clearSelection();
    s->setHighlights({}, QString());
  }

  // The Call Tree dock by blamed idle, a frame a few levels down that owns
  // the most of it picked (shallow enough for the icicle to show its callers).
  raiseDock(w, QStringLiteral("callTreeDock"));
  w.callTree()->waitForTrees();
  w.callTree()->metricBox()->setCurrentIndex(3);
  if (const calltree::CallTree* tree = w.callTree()->views().topDown.get()) {
    // The most idle, the deepest among equals: where the idle narrows down.
    std::uint32_t heaviest = kNoIndex;
    const auto key = [&](std::uint32_t n) { return std::pair(tree->nodes[n].idleNs.total, tree->nodes[n].depth); };
    for (std::uint32_t n = 0; n < tree->nodes.size(); ++n) {
      if (tree->nodes[n].depth < 2 || tree->nodes[n].depth > 12) continue;
      if (heaviest == kNoIndex || key(n) > key(heaviest)) heaviest = n;
    }
    if (heaviest != kNoIndex) w.callTree()->pickNode(heaviest);
  }
  saveGrab(&w, out, QStringLiteral("calltree.png"));
  w.callTree()->searchEdit()->setText(QStringLiteral("nn.Module: Linear"));
  saveGrab(&w, out, QStringLiteral("calltree-search.png"));
  w.callTree()->searchEdit()->clear();
  if (w.callTree()->flame()->selectedNode() != kNoIndex) {
    emit w.callTree()->flame()->zoomRequested(w.callTree()->flame()->selectedNode());
    saveGrab(&w, out, QStringLiteral("calltree-zoom.png"));
    emit w.callTree()->flame()->zoomRequested(kNoIndex);
  }
  w.callTree()->directionBox()->setCurrentIndex(1);
  saveGrab(&w, out, QStringLiteral("calltree-bottom-up.png"));
  w.callTree()->directionBox()->setCurrentIndex(0);
  s->clearSelection();

  // The memory lanes and the Memory dock, the allocations live at the peak.
  if (!s->layout().memoryLanes().empty()) {
    raiseDock(w, QStringLiteral("memoryDock"));
    const timeline::MemoryLane& lane = s->layout().memoryLanes().back();
    w.timeline()->fitAll();
    w.timeline()->setScrollY(0);  // the GPU groups, where the GPU's memory lane is
    s->pickMemoryTime(lane.device, lane.peakAllocatedTs);
    saveGrab(&w, out, QStringLiteral("memory.png"));
  }

  raiseDock(w, QStringLiteral("opsDock"));
  s->clearSelection();
  w.timeline()->fitAll();
  s->search(QStringLiteral("layer_norm"));
  s->searchNext();
  saveGrab(&w, out, QStringLiteral("search.png"));

  // View > Theme > Dark, as a user would pick it.
  pickTheme(w, QStringLiteral("Dark"));
  saveGrab(&w, out, QStringLiteral("dark.png"));
  if (!dark) pickTheme(w, QStringLiteral("Light"));

  QMessageBox about(QMessageBox::Information, QObject::tr("About gapscope"), aboutText(), QMessageBox::Ok, &w);
  about.show();
  saveGrab(&about, out, QStringLiteral("about.png"));
  about.hide();

#if defined(GAPSCOPE_APP_HAVE_RECORDER) && defined(GAPSCOPE_FAKE_PROGRAM)
  // Record > Your program, filled in, and a recording of it shown live (the
  // fake CUDA program of the tests: a kernel every 10 ms on one stream).
  {
    RecordDialog dialog(&w);
    ProgramChoice example;
    example.commandLine = QStringLiteral("python3 train.py --epochs 1 --batch-size 64");
    example.workingDirectory = QDir::homePath() + QStringLiteral("/work/model");
    example.environment = {QStringLiteral("CUDA_VISIBLE_DEVICES=0"), QStringLiteral("OMP_NUM_THREADS=8")};
    example.capture = ProgramChoice::Capture::Nvtx;
    example.nvtxName = QStringLiteral("ProfilerStep#5");
    example.torchOps = true;
    dialog.showProgramPage();
    dialog.setProgram(example);
    dialog.show();
    saveGrab(&dialog, out, QStringLiteral("record-program.png"));
    dialog.hide();
  }
  gpu::ProgramOptions fake;
  fake.command = {GAPSCOPE_FAKE_PROGRAM, "forever"};
  fake.injectionLibrary = GAPSCOPE_FAKE_PROGRAM;
  fake.killOnStop = true;
  if (w.recordProgram(fake)) {
    settle(2500);
    saveGrab(&w, out, QStringLiteral("live.png"));
    w.stopRecording();
    while (w.recording()) settle(50);
    QFile::remove(w.session()->loaded().path);
  } else {
    std::fprintf(stderr, "live recording: %s\n", qPrintable(w.lastError()));
  }
#endif

  // The same trace cut at two thirds: what was read opens, a banner names the fault.
  if (!trace.endsWith(QStringLiteral(".gz"))) {
    QFile whole(trace);
    const QString cut = out + QStringLiteral("/cut-trace.json");
    QFile part(cut);
    if (whole.open(QIODevice::ReadOnly) && part.open(QIODevice::WriteOnly)) {
      // Copied a megabyte at a time: reading two thirds of a 10 GB trace
      // at once would make this tool's memory the figure measured.
      for (qint64 left = whole.size() * 2 / 3; left > 0;) {
        const QByteArray block = whole.read(std::min<qint64>(left, qint64{1} << 20));
        if (block.isEmpty()) break;
        part.write(block);
        left -= block.size();
      }
      part.close();
      w.openTrace(cut);
      while (w.loader()->busy()) settle(50);
      saveGrab(&w, out, QStringLiteral("read-error.png"));
      QFile::remove(cut);
    }
  }
  return 0;
}
