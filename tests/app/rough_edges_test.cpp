// The GUI's rough edges, as a first user met them: the Details pane's values
// in view and whole in their tooltips (also after View > Reset Layout), the
// timeline not crushed by the docks on a small screen (nor by a layout
// saved there), the utilisation strip following the dark theme, an About
// dialog that says what this build is, a kernel's name and a gap's why
// whole in a narrow Details pane, and chart labels slanted only when they
// must be.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include "about.h"
#include "app_test_support.h"
#include "gapscope/build_info.h"
#include "gapscope/version.h"
#include "main_window.h"
#include "panels/charts_panel.h"
#include "panels/details_panel.h"
#include "timeline/timeline_view.h"
#include "timeline/timeline_widget.h"
#include "timeline/utilisation_strip.h"
#include "trace_session.h"
#include "wrapped_title.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;
using gapscope::app::testing::waitUntil;

namespace {

bool openIn(MainWindow& w, const char* file) {
  QSignalSpy loaded(&w, &MainWindow::traceLoaded);
  return w.openTrace(testData(file)) && waitUntil([&] { return loaded.count() > 0; });
}

// The window shown at 1280 x 800 with `file` open.
bool showWith(MainWindow& w, const char* file) {
  w.resize(1280, 800);
  w.show();
  return openIn(w, file);
}

// The largest gap of a trace with deep stacks: its CPU work has long names.
std::uint32_t largestGap(const TraceSession& s) {
  std::uint32_t pick = kNoIndex;
  const auto& gaps = s.gaps().gaps;
  for (std::uint32_t i = 0; i < gaps.size(); ++i)
    if (pick == kNoIndex || gaps[i].dur > gaps[pick].dur) pick = i;
  return pick;
}

void expectValuesInView(DetailsPanel* details) {
  QTreeWidget* tree = details->tree();
  ASSERT_GT(tree->topLevelItemCount(), 0);
  // The Value column starts inside the pane, with room to show something.
  const int valueX = tree->header()->sectionViewportPosition(1);
  EXPECT_LT(valueX, tree->viewport()->width() - 40) << valueX << " of " << tree->viewport()->width();
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* item = tree->topLevelItem(i);
    if (!item->text(1).isEmpty() && item->toolTip(1) != QStringLiteral("Double-click to select")) {
      EXPECT_EQ(item->toolTip(1), item->text(1)) << item->text(0).toStdString();
    }
  }
}

}  // namespace

TEST(RoughEdges, DetailsValuesStayInViewAndWholeInTheirTooltips) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "h100/train_adam_stack.json"));
  w.session()->focusGap(largestGap(*w.session()));
  expectValuesInView(w.details());
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text() == QStringLiteral("&Reset Layout")) a->trigger();
  waitUntil([] { return false; }, 200);
  w.session()->focusGap(largestGap(*w.session()));
  expectValuesInView(w.details());
  w.close();
  QSettings().remove(QStringLiteral("mainWindow"));
}

TEST(RoughEdges, DocksLeaveTheTimelineRoomOnASmallScreenAndInTheLayoutSavedThere) {
  ensureApp();
  const auto timelineShare = [](MainWindow& w) {
    return static_cast<double>(w.findChild<TimelineView*>()->height()) / w.height();
  };
  {
    // On a big screen the user gives the tables most of the height.
    MainWindow big;
    big.resize(1600, 1000);
    big.show();
    ASSERT_TRUE(openIn(big, "h200/split_stack_eager.json"));
    big.resizeDocks({big.findChild<QDockWidget*>(QStringLiteral("opsDock"))}, {700}, Qt::Vertical);
    waitUntil([] { return false; }, 200);
    EXPECT_GT(big.findChild<QDockWidget*>(QStringLiteral("opsDock"))->height(), 500);
    big.close();  // saves the layout
  }
  {
    MainWindow small;  // that layout on a small screen
    small.resize(1024, 700);
    small.show();
    ASSERT_TRUE(openIn(small, "h200/split_stack_eager.json"));
    waitUntil([] { return false; }, 200);
    EXPECT_GE(timelineShare(small), 0.48) << timelineShare(small);
    small.close();  // saves the layout
  }
  {
    MainWindow again;  // the layout saved at 1024x700 comes back
    again.resize(1024, 700);
    again.show();
    ASSERT_TRUE(openIn(again, "h200/split_stack_eager.json"));
    waitUntil([] { return false; }, 200);
    EXPECT_GE(timelineShare(again), 0.48) << timelineShare(again);
    again.resize(1600, 1000);
    waitUntil([] { return false; }, 200);
    EXPECT_GE(timelineShare(again), 0.48) << timelineShare(again);
    again.close();
  }
  QSettings().remove(QStringLiteral("mainWindow"));
}

TEST(RoughEdges, TheUtilisationStripFollowsTheDarkTheme) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "h200/split_stack_eager.json"));
  auto pick = [&](const QString& theme) {
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == theme) a->trigger();
    waitUntil([] { return false; }, 100);
  };
  QCustomPlot* plot = w.findChild<UtilisationStrip*>()->plot();
  // A pixel near the top-right corner: above every curve, on the background.
  const auto background = [&] {
    plot->replot();
    return plot->grab().toImage().pixelColor(plot->width() - 3, 3);
  };
  pick(QStringLiteral("Dark"));
  EXPECT_LT(background().lightness(), 100);
  pick(QStringLiteral("Light"));
  EXPECT_GT(background().lightness(), 180);
  pick(QStringLiteral("System"));
  QSettings().remove(QStringLiteral("theme"));
}

TEST(RoughEdges, TheUtilisationStripsStepLabelsNeverOverlap) {
  // A DDP rank: 2 ms steps beside two of 32 ms, the whole trace in view.
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "h100-ddp/torch/rank-0.json.gz"));
  w.timeline()->fitAll();
  UtilisationStrip* strip = w.findChild<UtilisationStrip*>();
  ASSERT_TRUE(waitUntil([&] { return !strip->markedSteps().empty(); }, 2000));
  const auto& steps = w.session()->gaps().steps;
  const auto& marked = strip->markedSteps();
  const auto& labelled = strip->labelledSteps();
  EXPECT_EQ(marked.size(), steps.size());
  ASSERT_FALSE(labelled.empty());
  EXPECT_LT(labelled.size(), marked.size());
  EXPECT_EQ(labelled.front(), marked.front());
  // Each label (its text, 3 px right of its mark) ends before the next one
  // begins, with a few pixels between them; a step goes unnumbered only
  // where its label would have begun on or right after the last one.
  const QFontMetricsF metrics(strip->plot()->font());
  const auto& scale = w.timeline()->scale();
  double end = -1e9;
  std::size_t next = 0;
  for (std::size_t i : marked) {
    const double left = scale.toPixel(steps[i].cpuStart) + 3;
    const bool hasLabel = next < labelled.size() && labelled[next] == i;
    if (hasLabel) {
      EXPECT_GE(left, end + 4) << "step " << steps[i].number;
      ++next;
      end = left + metrics.horizontalAdvance(QStringLiteral("step %1").arg(steps[i].number));
    } else {
      EXPECT_LT(left, end + 8) << "step " << steps[i].number;
    }
  }
  EXPECT_EQ(next, labelled.size());
}

TEST(RoughEdges, AboutSaysWhatThisBuildIs) {
  const QString about = aboutText();
  EXPECT_TRUE(about.contains(QStringLiteral(GAPSCOPE_VERSION)));
  EXPECT_TRUE(about.contains(QStringLiteral(GAPSCOPE_COMMIT)));
  EXPECT_TRUE(about.contains(QStringLiteral(GAPSCOPE_BUILD_TYPE)));
  for (const char* part : {"Qt ", "QCustomPlot", "GPL-3.0", "LGPL-3.0", "simdjson", "Apache-2.0", "nlohmann/json",
                           "MIT", "zlib", "GPU recorder"})
    EXPECT_TRUE(about.contains(QString::fromLatin1(part))) << part;
}

// The idle-time bars read in a unit that fits them: the alexnet trace's
// 12.8 s of launch-overhead idle was "1·10⁷" on an axis of µs. Each bar is
// the gap list's idle time of its bin and cause, in that unit.
TEST(RoughEdges, TheGapChartReadsInAUnitThatFitsItsBars) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz"));
  ChartsPanel* charts = w.charts();
  EXPECT_EQ(charts->idleUnit(), QStringLiteral("s"));
  EXPECT_EQ(charts->gapPlot()->yAxis->label(), QStringLiteral("idle time (s)"));
  const auto& h = charts->gapHistogram();
  std::vector<double> seconds(h.bins(), 0);
  for (const auto& g : w.session()->gaps().gaps) {
    if (g.stream < 0 && g.dur >= w.session()->minGapNs() && g.cause == analysis::GapCause::LaunchOverhead)
      seconds[h.binOf(g.dur)] += static_cast<double>(g.dur) / 1e9;
  }
  QCPBars* launch = nullptr;
  for (int i = 0; i < charts->gapPlot()->plottableCount(); ++i) {
    if (charts->gapPlot()->plottable(i)->name() == QStringLiteral("launch overhead"))
      launch = qobject_cast<QCPBars*>(charts->gapPlot()->plottable(i));
  }
  ASSERT_NE(launch, nullptr);
  for (std::size_t b = 0; b < h.bins(); ++b) EXPECT_NEAR(launch->data()->at(static_cast<int>(b))->value, seconds[b], 1e-12);
  EXPECT_TRUE(charts->gapNote().isEmpty());
}

// A trace whose GPU never waited a listed gap says so on the chart instead
// of showing empty axes (HTA's Triton example: one kernel).
TEST(RoughEdges, AnEmptyGapChartSaysWhy) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "public/hta-triton-example/triton_example.json.gz"));
  std::size_t listed = 0;
  for (const auto& g : w.session()->gaps().gaps) listed += g.stream < 0 && g.dur >= w.session()->minGapNs();
  ASSERT_EQ(listed, 0u);
  EXPECT_TRUE(w.charts()->gapNote().startsWith(QStringLiteral("No device gaps of 1"))) << w.charts()->gapNote().toStdString();
}

// A trace whose few early events lie 13 days before the rest (catapult's
// fuchsia trace) opens on the rest, and says so; Fit All shows everything.
TEST(RoughEdges, ATraceOpensOnItsEventsNotOnAFewFarFromThem) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "public/cat-fuchsia-ns/fuchsia_trace.json.gz"));
  const analysis::OutlyingEvents& o = w.session()->analysis().summary().outlying;
  ASSERT_GT(o.count, 0u);
  const timeline::TimeScale& shown = w.timeline()->scale();
  EXPECT_LE(shown.start(), o.denseStart);
  EXPECT_GT(shown.start(), o.denseStart - (o.denseEnd - o.denseStart));  // not reaching back to the early events
  auto* banner = w.findChild<QWidget*>(QStringLiteral("readErrorBanner"));
  ASSERT_NE(banner, nullptr);
  EXPECT_TRUE(banner->isVisible());
  const QString text = w.findChild<QLabel*>(QStringLiteral("readErrorText"))->text();
  EXPECT_TRUE(text.startsWith(QStringLiteral("%1 events lie").arg(o.count))) << text.toStdString();
  w.timeline()->fitAll();
  EXPECT_LE(w.timeline()->scale().start(), w.session()->trace().minTime());
  // A trace without outlying events opens on all of it, with no banner.
  ASSERT_TRUE(openIn(w, "h200/split_stack_eager.json"));
  EXPECT_FALSE(banner->isVisible());
}

// The kernel and operator tables' name column takes the room the other
// columns leave: kernel names are long signatures, and cut to a fixed
// width two different kernels read alike beside blank space.
TEST(RoughEdges, TheNameColumnTakesTheRoomTheOthersLeave) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "h200/combined_eager.json"));
  for (const char* name : {"kernelTable", "opsTable"}) {
    SCOPED_TRACE(name);
    auto* view = w.findChild<QTableView*>(QString::fromLatin1(name));
    ASSERT_NE(view, nullptr);
    view->resize(1800, 300);
    QCoreApplication::processEvents();
    int widths = 0;
    for (int c = 0; c < view->model()->columnCount(); ++c) widths += view->isColumnHidden(c) ? 0 : view->columnWidth(c);
    EXPECT_GE(widths, view->viewport()->width() - 1);
    view->resize(500, 300);
    QCoreApplication::processEvents();
    EXPECT_GE(view->columnWidth(0), 300);  // never below its least width
  }
}

// An unmarked loop's steps are named by its data loader's next() on every
// row: the name column is no wider than a ProfilerStep's, so at 1024 px the
// figures are in view, and the tooltip keeps the name whole.
TEST(RoughEdges, AnIterationMarkersLongNameLeavesTheStepFiguresInView) {
  ensureApp();
  MainWindow w;
  w.resize(1024, 700);
  ASSERT_TRUE(showWith(w, "h100-user/eager-gapscope.json.gz"));
  auto* view = w.findChild<QTableView*>(QStringLiteral("stepTable"));
  ASSERT_NE(view, nullptr);
  const QString name = view->model()->index(1, 0).data().toString();
  ASSERT_TRUE(name.startsWith(QStringLiteral("enumerate(DataLoader)")));
  EXPECT_LT(view->columnWidth(0), view->fontMetrics().horizontalAdvance(name));
  EXPECT_LE(view->columnWidth(0), view->fontMetrics().horizontalAdvance(QStringLiteral("ProfilerStep#00000 (warm-up)")) + 16);
  EXPECT_TRUE(view->model()->index(1, 0).data(Qt::ToolTipRole).toString().contains(name));
}

// The gap chart's measure chooser sits in the tab bar's corner (the bars get
// the row it took) and only while the gap chart is shown.
TEST(RoughEdges, TheChartsMeasureChooserIsInTheTabBarForTheGapChartOnly) {
  ensureApp();
  MainWindow w;
  w.resize(1024, 700);
  ASSERT_TRUE(showWith(w, "h200/combined_eager.json"));
  auto* tabs = w.charts()->findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  QWidget* corner = tabs->cornerWidget(Qt::TopRightCorner);
  ASSERT_NE(corner, nullptr);
  EXPECT_NE(corner->findChild<QComboBox*>(QStringLiteral("gapMeasure")), nullptr);
  tabs->setCurrentIndex(0);
  EXPECT_FALSE(corner->isHidden());
  tabs->setCurrentIndex(1);
  EXPECT_TRUE(corner->isHidden());
  tabs->setCurrentIndex(0);
  EXPECT_FALSE(corner->isHidden());
}

namespace {

// The kernel with the longest name: a C++ signature, one long word.
std::uint32_t longestKernelName(const Trace& t) {
  std::uint32_t pick = kNoIndex;
  for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
    if (t.slices[i].kind != SliceKind::Kernel) continue;
    if (pick == kNoIndex || t.str(t.slices[i].name).size() > t.str(t.slices[pick].name).size()) pick = i;
  }
  return pick;
}

// The function a kernel's signature names: its last scope before the
// argument list, template arguments left out.
QString functionName(QString signature) {
  signature.remove(QStringLiteral("(anonymous namespace)::"));
  QString head;
  int depth = 0;
  for (const QChar c : signature) {
    if (c == QLatin1Char('(') && depth == 0) break;
    if (c == QLatin1Char('<')) ++depth;
    else if (c == QLatin1Char('>')) --depth;
    else if (depth == 0) head += c;
  }
  return head.section(QStringLiteral("::"), -1);
}

}  // namespace

// At 1024 px the Details pane is about 250 px wide: a kernel's name was cut
// after "gapscope::gpu::c", before the part that tells kernels apart. The
// title above the fields wraps it, at most three lines, the rest elided.
TEST(RoughEdges, TheDetailsTitleShowsAKernelsDistinctiveNameInANarrowPane) {
  ensureApp();
  MainWindow w;
  w.resize(1024, 700);
  w.show();
  ASSERT_TRUE(openIn(w, "h200/split_stack_eager.json"));
  const Trace& t = w.session()->trace();
  const std::uint32_t kernel = longestKernelName(t);
  ASSERT_NE(kernel, kNoIndex);
  w.session()->selectSlice(kernel);
  waitUntil([] { return false; }, 100);
  const QString name = QString::fromStdString(std::string(t.str(t.slices[kernel].name)));
  WrappedTitle* title = w.details()->title();
  EXPECT_EQ(title->text(), name);
  EXPECT_EQ(title->toolTip(), name);
  const int width = title->contentsRect().width();
  ASSERT_LT(width, 400) << "the pane is narrow at 1024 px";
  const QStringList lines = title->linesAt(width);
  ASSERT_GE(lines.size(), 2);
  ASSERT_LE(lines.size(), 3);
  const QFontMetrics metrics(title->font());
  for (const QString& line : lines) EXPECT_LE(metrics.horizontalAdvance(line), width) << line.toStdString();
  // Every line but the last is the name's text in order; the last holds the
  // rest, or its start and "…".
  QString shown = lines.mid(0, lines.size() - 1).join(QString());
  EXPECT_TRUE(name.startsWith(shown));
  const QString last = lines.back();
  if (last.endsWith(QChar(0x2026))) EXPECT_TRUE(name.mid(shown.size()).startsWith(last.chopped(1)));
  else EXPECT_EQ(shown + last, name);
  // The kernel's own name, after its namespaces, is in view.
  const QString function = functionName(name);
  ASSERT_FALSE(function.isEmpty()) << name.toStdString();
  EXPECT_TRUE((shown + last).contains(function)) << function.toStdString();
  EXPECT_TRUE(w.details()->subtitle()->isHidden());
}

// A gap's "why" is the sentence a user reads the gap for: under the title,
// wrapped, as the Why row says it.
TEST(RoughEdges, TheDetailsOfAGapSayWhyUnderItsTitle) {
  ensureApp();
  MainWindow w;
  w.resize(1024, 700);
  w.show();
  ASSERT_TRUE(openIn(w, "h100/train_adam_stack.json"));
  const std::uint32_t gap = largestGap(*w.session());
  w.session()->focusGap(gap);
  const auto& g = w.session()->gaps().gaps[gap];
  const QString why = QString::fromStdString(analysis::explainGap(w.session()->trace(), g));
  EXPECT_EQ(w.details()->subtitle()->text(), why);
  EXPECT_EQ(w.details()->field(QStringLiteral("Why")), why);
  EXPECT_TRUE(w.details()->title()->text().startsWith(QStringLiteral("GPU idle ")));
  EXPECT_FALSE(w.details()->subtitle()->isHidden());
}

// The charts' bin labels stand upright when they fit side by side (slanted
// they took three times the height of a short dock's bars) and slant when
// the chart is too narrow for them.
TEST(RoughEdges, TheChartsBinLabelsSlantOnlyWhenTheyDoNotFit) {
  ensureApp();
  MainWindow w;
  ASSERT_TRUE(showWith(w, "public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz"));
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("chartsDock"));
  ASSERT_NE(dock, nullptr);
  dock->show();
  dock->raise();
  dock->setFloating(true);
  QCustomPlot* plot = w.charts()->gapPlot();
  ASSERT_GE(w.charts()->gapHistogram().bins(), 8u);
  dock->resize(1600, 300);
  waitUntil([] { return false; }, 100);
  EXPECT_EQ(plot->xAxis->tickLabelRotation(), 0);
  dock->resize(300, 300);
  waitUntil([] { return false; }, 100);
  EXPECT_EQ(plot->xAxis->tickLabelRotation(), -30);
  dock->setFloating(false);
}
