// The application as a user drives it: open a real trace, look at its
// lanes, click a slice, follow the launch arrow, search, click a gap.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include "app_test_support.h"
#include "gapscope/timeline/slice_queries.h"
#include "main_window.h"
#include "models/table_format.h"
#include "models/gap_list_model.h"
#include "panels/analysis_panels.h"
#include "panels/charts_panel.h"
#include "panels/details_panel.h"
#include "panels/issues_panel.h"
#include "timeline/timeline_widget.h"
#include "trace_loader.h"
#include "trace_session.h"

#ifdef GAPSCOPE_APP_HAVE_RECORDER
#include "gapscope/gpu/recorder.h"
#endif

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::ensureApp;
using gapscope::app::testing::testData;
using gapscope::app::testing::waitUntil;

namespace {

const char* kSplitStack = "h200/split_stack_eager.json";

// A shown main window with `file` (relative to tests/data) open.
class OpenWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    ensureApp();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1400, 900);
    window_->show();
    ASSERT_TRUE(open(testData(kSplitStack)));
  }

  bool open(const QString& path) {
    QSignalSpy loaded(window_.get(), &MainWindow::traceLoaded);
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    if (!window_->openTrace(path)) return false;
    return waitUntil([&] { return loaded.count() + failed.count() > 0; }) && loaded.count() == 1;
  }

  MainWindow& w() { return *window_; }
  TraceSession& s() { return *window_->session(); }
  const Trace& trace() { return s().trace(); }

  std::uint32_t firstKernel() {
    for (std::uint32_t i = 0; i < trace().slices.size(); ++i)
      if (trace().slices[i].kind == SliceKind::Kernel) return i;
    return kNoIndex;
  }

  std::uint32_t firstNamed(std::string_view name) {
    for (std::uint32_t i = 0; i < trace().slices.size(); ++i) {
      if (trace().str(trace().slices[i].name) == name) return i;
    }
    return kNoIndex;
  }

  // Clicks the middle of where slice `i` is drawn after fitting the view to it.
  void clickSlice(std::uint32_t i) {
    const Slice& sl = trace().slices[i];
    w().timeline()->fitRange(sl.start, sl.end());
    const QRectF r = w().timeline()->sliceRect(i);
    ASSERT_FALSE(r.isEmpty());
    QTest::mouseClick(w().timeline(), Qt::LeftButton, {}, r.center().toPoint());
  }

  std::unique_ptr<MainWindow> window_;
};

}  // namespace

TEST_F(OpenWindow, ShowsGpuThenCpuLanesAndTucksAwayKinetosOwn) {
  const auto& groups = s().layout().groups();
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].name, "GPU 0 (python3)");
  EXPECT_EQ(groups[1].name, "python3 (pid 495)");
  EXPECT_EQ(groups[2].name, "Spans");
  EXPECT_FALSE(w().timeline()->groupCollapsed(0));
  EXPECT_TRUE(w().timeline()->groupCollapsed(2));
  const auto& lanes = s().layout().lanes();
  EXPECT_EQ(lanes[groups[0].lanes[0]].name, "stream 7");
  EXPECT_EQ(lanes[groups[1].lanes[0]].name, "thread 495 (python3)");
  // Kernels nest under the gpu_user_annotation of their step.
  EXPECT_EQ(lanes[groups[0].lanes[0]].rowCount, 2u);
  // ProfilerStep > split_stack_eager > aten ops > ... > cudaLaunchKernel.
  EXPECT_GE(lanes[groups[1].lanes[0]].rowCount, 4u);
  // The GPU lanes are in view on open, above the fold.
  EXPECT_TRUE(w().timeline()->sliceRect(firstKernel()).intersects(w().timeline()->rect()));
  EXPECT_TRUE(w().windowTitle().startsWith(QStringLiteral("split_stack_eager.json")));
  EXPECT_TRUE(w().recentFiles().first().endsWith(QStringLiteral("split_stack_eager.json")));
  // The whole trace is in view.
  EXPECT_LE(w().timeline()->scale().start(), s().layout().contentStart());
  EXPECT_GE(w().timeline()->scale().end(), s().layout().contentEnd());
}

TEST_F(OpenWindow, ClickingALaunchSelectsItShowsItsArgsAndLinksItsKernel) {
  const std::uint32_t launch = firstNamed("cudaLaunchKernel");
  ASSERT_NE(launch, kNoIndex);
  clickSlice(launch);
  ASSERT_EQ(s().selectedSlice(), launch);
  const std::uint32_t kernel = s().partnerSlice();
  ASSERT_NE(kernel, kNoIndex);
  EXPECT_EQ(trace().slices[kernel].kind, SliceKind::Kernel);
  EXPECT_EQ(trace().slices[kernel].correlation, trace().slices[launch].correlation);

  DetailsPanel* details = w().details();
  EXPECT_EQ(details->field(QStringLiteral("Name")), QStringLiteral("cudaLaunchKernel"));
  EXPECT_FALSE(details->field(QStringLiteral("Self time")).isEmpty());
  EXPECT_TRUE(details->field(QStringLiteral("Launches")).startsWith(QStringLiteral("void ")));
  // Every arg of the event, e.g. Kineto's correlation id, in the file's order.
  EXPECT_TRUE(details->argsJson().contains(QStringLiteral("\"correlation\": %1").arg(trace().slices[launch].correlation)));
  const auto args = details->tree()->findItems(QStringLiteral("Args"), Qt::MatchExactly);
  ASSERT_EQ(args.size(), 1);
  EXPECT_GE(args[0]->childCount(), 2);

  // And back: clicking the kernel links the launch.
  clickSlice(kernel);
  ASSERT_EQ(s().selectedSlice(), kernel);
  EXPECT_EQ(s().partnerSlice(), launch);
  EXPECT_EQ(details->field(QStringLiteral("Launched by")).section(QLatin1Char(' '), 0, 0),
            QStringLiteral("cudaLaunchKernel"));
  EXPECT_FALSE(details->field(QStringLiteral("Launch")).isEmpty());  // grid and block
}

// "717.554 ms" -> 717554000: the Details' start read back exactly.
std::int64_t exactNsOf(const QString& text) {
  const QString number = text.section(QLatin1Char(' '), 0, 0);
  const QString unit = text.section(QLatin1Char(' '), 1, 1);
  const int decimals = unit == "s" ? 9 : unit == "ms" ? 6 : unit == QString::fromUtf8("µs") ? 3 : 0;
  const QString whole = number.section(QLatin1Char('.'), 0, 0);
  const QString fraction = number.section(QLatin1Char('.'), 1, 1);
  if (fraction.size() > decimals) return -1;
  return (whole + fraction.leftJustified(decimals, QLatin1Char('0'))).toLongLong();
}

// A slice's start in the Details is exact and ends at its last group of
// digits: no "717.554000 ms" for a trace in whole microseconds, nothing
// rounded away.
TEST_F(OpenWindow, TheDetailsGiveAStartExactlyWithNoTrailingZeros) {
  ASSERT_TRUE(open(testData("public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz")));
  int wholeMicros = 0;
  for (std::uint32_t i = 0; i < trace().slices.size(); i += 31) {
    s().selectSlice(i);
    const QString start = w().details()->field(QStringLiteral("Start"));
    const TimeNs sinceStart = trace().slices[i].start - s().layout().contentStart();
    EXPECT_EQ(exactNsOf(start), sinceStart) << start.toStdString();
    // Digits in groups of three (ms to us to ns), none of them all zeros at the end.
    if (start.contains(QLatin1Char('.'))) {
      EXPECT_FALSE(start.section(QLatin1Char(' '), 0, 0).endsWith("000")) << start.toStdString();
    }
    wholeMicros += sinceStart % 1000 == 0;
  }
  EXPECT_GT(wholeMicros, 20);
}

TEST_F(OpenWindow, ClickingEmptySpaceClearsTheSelection) {
  clickSlice(firstNamed("cudaLaunchKernel"));
  ASSERT_NE(s().selectedSlice(), kNoIndex);
  // Far right of the Spans header is empty of gaps; far below everything is nothing.
  const QPoint below(w().timeline()->width() - 5, w().timeline()->height() - 3);
  ASSERT_EQ(w().timeline()->sliceAtPoint(below), kNoIndex);
  QTest::mouseClick(w().timeline(), Qt::LeftButton, {}, below);
  EXPECT_EQ(s().selection().kind, Selection::Kind::None);
  EXPECT_TRUE(w().details()->field(QStringLiteral("Name")).isEmpty());
}

TEST_F(OpenWindow, SearchHighlightsEveryMatchAndStepsThroughThem) {
  auto* edit = w().findChild<QLineEdit*>(QStringLiteral("searchEdit"));
  auto* next = w().findChild<QToolButton*>(QStringLiteral("searchNext"));
  auto* prev = w().findChild<QToolButton*>(QStringLiteral("searchPrev"));
  auto* count = w().findChild<QLabel*>(QStringLiteral("searchCount"));
  ASSERT_TRUE(edit && next && prev && count);
  QTest::keyClicks(edit, QStringLiteral("LAYER_norm"));
  QTest::keyClick(edit, Qt::Key_Return);
  const auto expected = timeline::findSlicesByName(trace(), "layer_norm");
  ASSERT_GT(expected.size(), 2u);
  EXPECT_EQ(s().highlights(), expected);
  EXPECT_EQ(s().selectedSlice(), expected[0]);
  EXPECT_EQ(count->text(), QStringLiteral("1 / %1").arg(expected.size()));
  QTest::mouseClick(next, Qt::LeftButton);
  EXPECT_EQ(s().selectedSlice(), expected[1]);
  QTest::mouseClick(prev, Qt::LeftButton);
  QTest::mouseClick(prev, Qt::LeftButton);
  EXPECT_EQ(s().selectedSlice(), expected.back());  // wraps around
  EXPECT_EQ(count->text(), QStringLiteral("%1 / %1").arg(expected.size()));
  // The selected match is on screen.
  const QRectF r = w().timeline()->sliceRect(expected.back());
  EXPECT_TRUE(w().timeline()->rect().intersects(r.toAlignedRect()));
  QTest::keyClicks(edit, QStringLiteral("zzz-no-such-op"));
  QTest::keyClick(edit, Qt::Key_Return);
  EXPECT_EQ(count->text(), QStringLiteral("no match"));
}

TEST_F(OpenWindow, ClickingAGapSelectsItAndHighlightsTheBlamedCpuWork) {
  const auto& gaps = s().gaps().gaps;
  std::uint32_t pick = kNoIndex;
  for (std::uint32_t i = 0; i < gaps.size(); ++i) {
    if (gaps[i].stream >= 0 && gaps[i].launch != kNoIndex && gaps[i].after != kNoIndex &&
        gaps[i].dur >= s().minGapNs()) {
      pick = i;
      break;
    }
  }
  ASSERT_NE(pick, kNoIndex);
  const auto& g = gaps[pick];
  w().timeline()->fitRange(g.start, g.end());
  const QRectF gap = w().timeline()->gapRect(pick);
  const QRectF kernelRow = w().timeline()->sliceRect(g.after);  // the row kernels run in
  ASSERT_FALSE(gap.isEmpty());
  const QPoint inside(static_cast<int>(gap.center().x()), static_cast<int>(kernelRow.center().y()));
  ASSERT_EQ(w().timeline()->gapAtPoint(inside), pick);
  QTest::mouseClick(w().timeline(), Qt::LeftButton, {}, inside);
  ASSERT_EQ(s().selection().kind, Selection::Kind::Gap);
  EXPECT_EQ(s().selection().index, pick);
  EXPECT_EQ(w().details()->field(QStringLiteral("Cause")), QString::fromUtf8(analysis::gapCauseLabel(g.cause)));
  EXPECT_FALSE(w().details()->field(QStringLiteral("Why")).isEmpty());
  // The CPU work blamed for it lights up, and the view takes in its launch call.
  const auto& hl = s().highlights();
  EXPECT_NE(std::find(hl.begin(), hl.end(), g.launch), hl.end());
  // Zoomed to the gap and its launch call: both in view, and not much else.
  const TimeNs from = std::min(g.start, trace().slices[g.launch].start);
  const TimeNs to = std::max(g.end(), trace().slices[g.launch].end());
  EXPECT_LE(w().timeline()->scale().start(), from);
  EXPECT_GE(w().timeline()->scale().end(), to);
  EXPECT_LT(w().timeline()->scale().duration(), 1.2 * static_cast<double>(to - from));
  // The count beside the search says what is lit and from where; Esc lets it go.
  auto* count = w().findChild<QLabel*>(QStringLiteral("searchCount"));
  EXPECT_EQ(count->text(), QStringLiteral("%1 highlighted: %2").arg(hl.size()).arg(s().highlightOrigin()));
  QTest::keyClick(w().timeline(), Qt::Key_Escape);
  EXPECT_TRUE(s().highlights().empty());
  EXPECT_TRUE(count->text().isEmpty());
}

// A trace recorded with Python stacks: the CPU thread is dozens of rows deep.
TEST_F(OpenWindow, FocusingAGapShowsTheGapAndItsLaunchEvenUnderDeepStacks) {
  w().resize(1280, 800);
  ASSERT_TRUE(open(testData("h100/train_adam_stack.json")));
  TimelineWidget* t = w().timeline();
  const QRectF view = t->rect();
  const auto& gaps = s().gaps().gaps;
  std::uint32_t pick = kNoIndex;  // the largest device gap with a launch call to blame
  for (std::uint32_t i = 0; i < gaps.size(); ++i)
    if (gaps[i].stream < 0 && gaps[i].launch != kNoIndex && (pick == kNoIndex || gaps[i].dur > gaps[pick].dur)) pick = i;
  ASSERT_NE(pick, kNoIndex);
  s().focusGap(pick);
  const QRectF gap = t->gapRect(pick);
  const QRectF launch = t->sliceRect(gaps[pick].launch);
  ASSERT_FALSE(gap.isEmpty());
  ASSERT_FALSE(launch.isEmpty());
  EXPECT_TRUE(view.contains(gap.center())) << gap.y() << " " << view.height();
  EXPECT_TRUE(view.contains(launch.center())) << launch.y() << " " << view.height();
}

TEST_F(OpenWindow, PinnedLanesStayOnTopAndLanesFoldToTheirTopLevel) {
  ASSERT_TRUE(open(testData("h100/train_adam_stack.json")));
  TimelineWidget* t = w().timeline();
  const auto& layout = s().layout();
  const auto screenY = [&](double contentY) {
    return t->chrome().axisHeight + t->vertical().screenY(contentY, t->scrollY());
  };
  std::uint32_t deepest = kNoIndex;  // the CPU thread with the most rows
  for (std::uint32_t l = 0; l < layout.lanes().size(); ++l)
    if (deepest == kNoIndex || layout.lanes()[l].rowCount > layout.lanes()[deepest].rowCount) deepest = l;
  ASSERT_GT(layout.lanes()[deepest].rowCount, 10u);
  // The GPU device, a few rows, is pinned on open: the CPU threads scroll under it.
  EXPECT_TRUE(t->groupPinned(0));
  EXPECT_GT(t->vertical().pinnedHeight(), 0);
  // A click on its name keeps only its top-level slices.
  t->setScrollY(t->vertical().laneY(deepest) - t->vertical().pinnedHeight());
  const QPointF name(30, screenY(t->vertical().laneY(deepest)) + 5);
  ASSERT_EQ(t->laneNameAt(name), deepest);
  QTest::mouseClick(t, Qt::LeftButton, {}, name.toPoint());
  EXPECT_TRUE(t->laneCollapsed(deepest));
  EXPECT_DOUBLE_EQ(t->vertical().laneHeight(deepest), t->vertical().metrics().rowHeight);
  t->setLaneCollapsed(deepest, false);

  // Unpin the device, pin its first stream alone: scrolled to the bottom,
  // its kernels stay put.
  t->setGroupPinned(0, false);
  const std::uint32_t stream = layout.groups()[0].lanes[0];
  const Track& track = trace().tracks[layout.lanes()[stream].track];
  std::uint32_t kernel = kNoIndex;
  for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount && kernel == kNoIndex; ++i)
    if (trace().slices[i].kind == SliceKind::Kernel) kernel = i;
  ASSERT_NE(kernel, kNoIndex);
  t->setLanePinned(stream, true);
  ASSERT_TRUE(t->lanePinned(stream));
  t->setScrollY(0);
  t->fitRange(trace().slices[kernel].start, trace().slices[kernel].end());
  const double before = t->sliceRect(kernel).y();
  ASSERT_LT(before, screenY(t->vertical().pinnedHeight()));
  t->setScrollY(t->vertical().totalHeight());  // scrolled to the bottom
  EXPECT_GT(t->scrollY(), 0);
  EXPECT_DOUBLE_EQ(t->sliceRect(kernel).y(), before);  // the pinned lane did not move
  t->setLanePinned(stream, false);
  EXPECT_FALSE(t->lanePinned(stream));
  EXPECT_DOUBLE_EQ(t->vertical().pinnedHeight(), 0);
}

TEST_F(OpenWindow, TheVerdictIsShownWholeAtTheSmallestSize) {
  w().resize(1024, 700);
  waitUntil([&] { return w().width() <= 1024; });
  auto* verdict = w().findChild<QLabel*>(QStringLiteral("verdict"));
  ASSERT_NE(verdict, nullptr);
  EXPECT_EQ(verdict->text().toStdString(), s().gaps().verdict.line);
  EXPECT_TRUE(verdict->wordWrap());
  // Tall enough for every wrapped line: nothing cut off.
  waitUntil([&] { return verdict->height() >= verdict->heightForWidth(verdict->width()); }, 2000);
  EXPECT_GE(verdict->height(), verdict->heightForWidth(verdict->width()));
}

// The legend sums the painted device gaps of the whole trace while the
// verdict of a trace with steps is over their GPU windows: each names its
// scope (a DDP rank: 6 s of start-up idle in the legend, 78 ms in the steps).
TEST_F(OpenWindow, TheGapLegendAndTheVerdictEachNameTheirScope) {
  ASSERT_TRUE(open(testData("h200-ddp4/gapscope/rank-1.json.gz")));
  auto* scope = w().findChild<QLabel*>(QStringLiteral("gapLegendScope"));
  ASSERT_NE(scope, nullptr);
  EXPECT_TRUE(scope->isVisible());
  EXPECT_TRUE(scope->text().contains("whole trace"));
  TimeNs launchIdle = 0;
  for (const auto& g : s().gaps().gaps) {
    if (g.stream < 0 && g.dur >= s().minGapNs() && g.cause == analysis::GapCause::LaunchOverhead) launchIdle += g.dur;
  }
  auto* legend = w().findChild<QLabel*>(QStringLiteral("gapLegend_launch_overhead"));
  ASSERT_NE(legend, nullptr);
  EXPECT_TRUE(legend->text().endsWith(durationText(launchIdle)));
  ASSERT_TRUE(s().gaps().verdict.overSteps);
  EXPECT_NE(w().findChild<QLabel*>(QStringLiteral("verdict"))->text().indexOf("steps' GPU windows"), -1);
}

TEST_F(OpenWindow, KeysZoomPanAndFit) {
  TimelineWidget* t = w().timeline();
  t->setFocus();
  const double npp = t->scale().nsPerPixel();
  QTest::keyClick(t, Qt::Key_W);
  EXPECT_LT(t->scale().nsPerPixel(), npp);
  QTest::keyClick(t, Qt::Key_S);
  QTest::keyClick(t, Qt::Key_S);
  EXPECT_GT(t->scale().nsPerPixel(), npp);
  QTest::keyClick(t, Qt::Key_W);
  QTest::keyClick(t, Qt::Key_W);
  QTest::keyClick(t, Qt::Key_W);
  const TimeNs start = t->scale().start();
  QTest::keyClick(t, Qt::Key_D);
  EXPECT_GT(t->scale().start(), start);
  QTest::keyClick(t, Qt::Key_A);
  QTest::keyClick(t, Qt::Key_A);
  EXPECT_LT(t->scale().start(), start);
  s().selectSlice(firstNamed("cudaLaunchKernel"));
  QTest::keyClick(t, Qt::Key_F);
  const Slice& sel = trace().slices[s().selectedSlice()];
  EXPECT_NEAR(t->scale().duration(), static_cast<double>(sel.dur) * 1.1, sel.dur * 0.02);
  QTest::keyClick(t, Qt::Key_0);
  EXPECT_LE(t->scale().start(), s().layout().contentStart());
}

TEST_F(OpenWindow, ADragOnTheAxisMeasuresARange) {
  TimelineWidget* t = w().timeline();
  const int y = static_cast<int>(t->chrome().axisHeight / 2);
  const int x0 = static_cast<int>(t->chrome().namesWidth) + 100;
  const int x1 = x0 + 300;
  QTest::mousePress(t, Qt::LeftButton, {}, QPoint(x0, y));
  QTest::mouseMove(t, QPoint(x0 + 150, y));
  QTest::mouseMove(t, QPoint(x1, y));
  QTest::mouseRelease(t, Qt::LeftButton, {}, QPoint(x1, y));
  const auto range = t->measuredRange();
  ASSERT_TRUE(range.has_value());
  EXPECT_NEAR(static_cast<double>(range->second - range->first), t->scale().nsFor(300), t->scale().nsPerPixel() * 2);
  QTest::keyClick(t, Qt::Key_Escape);
  EXPECT_FALSE(t->measuredRange().has_value());
}

TEST_F(OpenWindow, ClickingAProcessHeaderCollapsesIt) {
  TimelineWidget* t = w().timeline();
  const std::uint32_t kernel = firstKernel();
  ASSERT_FALSE(t->sliceRect(kernel).isEmpty());
  const QPoint header(20, static_cast<int>(t->chrome().axisHeight) + 5);  // the GPU device strip
  ASSERT_EQ(t->groupHeaderAt(header), 0u);
  QTest::mouseClick(t, Qt::LeftButton, {}, header);
  EXPECT_TRUE(t->groupCollapsed(0));
  EXPECT_TRUE(t->sliceRect(kernel).isEmpty());
  QTest::mouseClick(t, Qt::LeftButton, {}, header);
  EXPECT_FALSE(t->sliceRect(kernel).isEmpty());
}

TEST_F(OpenWindow, AFailedLoadShowsTheReadersMessageAndKeepsTheTrace) {
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("broken.json"));
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"traceEvents\": [ {\"ph\": \"X\", \"name\": oops } ]}");
  f.close();
  const auto before = s().loaded().trace;
  EXPECT_FALSE(open(bad));
  EXPECT_TRUE(w().lastError().contains(QStringLiteral("broken.json"))) << w().lastError().toStdString();
  EXPECT_EQ(s().loaded().trace, before);
  auto* box = w().findChild<QWidget*>(QStringLiteral("loadErrorBox"));
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->isVisible());
}

TEST_F(OpenWindow, ASyntaxErrorPartWayShowsWhatCameBeforeWithABanner) {
  // A real trace with its events array broken after the 100th event.
  QFile src(testData(kSplitStack));
  ASSERT_TRUE(src.open(QIODevice::ReadOnly));
  const QByteArray json = src.readAll();
  int at = json.indexOf("\"traceEvents\"");
  for (int i = 0; i < 100 && at >= 0; ++i) at = json.indexOf("\n  {", at + 1);
  ASSERT_GT(at, 0);
  QByteArray broken = json.left(at) + "\n  {\"ph\": \"X\", \"ts\": oops}," + json.mid(at);
  const int line = static_cast<int>(json.left(at).count('\n')) + 2;  // the broken event's line
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("half.json"));
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(broken);
  f.close();
  ASSERT_TRUE(open(path));
  // What came before the fault is shown: the events of the prefix, counted here.
  std::string head = json.left(at).toStdString();
  while (!head.empty() && (std::isspace(static_cast<unsigned char>(head.back())) || head.back() == ',')) head.pop_back();
  const auto prefix = nlohmann::json::parse(head + "]}");
  std::uint64_t before = 0;
  for (const auto& e : prefix["traceEvents"]) before += e.value("ph", "") == "X";
  EXPECT_GT(before, 0u);
  EXPECT_EQ(s().trace().slices.size(), before);
  auto* banner = w().findChild<QWidget*>(QStringLiteral("readErrorBanner"));
  ASSERT_NE(banner, nullptr);
  EXPECT_TRUE(banner->isVisible());
  const QString text = w().findChild<QLabel*>(QStringLiteral("readErrorText"))->text();
  EXPECT_TRUE(text.contains(QStringLiteral("half.json:%1:").arg(line))) << text.toStdString();
  // The verdict is of the part read, and says so.
  auto* verdict = w().findChild<QLabel*>(QStringLiteral("verdict"));
  ASSERT_NE(verdict, nullptr);
  EXPECT_TRUE(verdict->text().startsWith(QStringLiteral("In the part read: "))) << verdict->text().toStdString();
  // A good file afterwards: no banner.
  ASSERT_TRUE(open(testData(kSplitStack)));
  EXPECT_FALSE(banner->isVisible());
  EXPECT_FALSE(verdict->text().startsWith(QStringLiteral("In the part read"))) << verdict->text().toStdString();
}

TEST_F(OpenWindow, CancellingALoadKeepsTheOpenTrace) {
  const auto before = s().loaded().trace;
  QSignalSpy finished(w().loader(), &TraceLoader::finished);
  ASSERT_TRUE(w().openTrace(testData("h200/mlp_eager.json")));
  auto* cancel = w().findChild<QWidget*>(QStringLiteral("loadCancel"));
  ASSERT_NE(cancel, nullptr);
  EXPECT_TRUE(cancel->isVisible());
  w().loader()->cancel();  // what the Cancel button does, before the reader can finish
  ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
  EXPECT_TRUE(finished.at(0).at(0).value<LoadOutcome>().cancelled);
  EXPECT_EQ(s().loaded().trace, before);
  EXPECT_FALSE(cancel->isVisible());
}

TEST_F(OpenWindow, ImportProblemsShowABadgeAndAList) {
  auto* badge = w().findChild<QToolButton*>(QStringLiteral("issuesBadge"));
  ASSERT_NE(badge, nullptr);
  // B events never closed: the reader counts them, a problem.
  ASSERT_TRUE(open(testData("public/cat-unclosed-slices-array/main_thread_has_unclosed_slices.json")));
  ASSERT_EQ(problemCount(trace().issues.all()), 4u);
  EXPECT_TRUE(badge->isVisible());
  EXPECT_EQ(badge->text(), QStringLiteral("4 import problems"));
  QTest::mouseClick(badge, Qt::LeftButton);
  auto* tree = w().issues()->tree();
  EXPECT_EQ(tree->topLevelItemCount(), static_cast<int>(trace().issues.all().size()));
  EXPECT_EQ(w().issues()->quirksGroup(), nullptr);
  EXPECT_TRUE(w().findChild<QDockWidget*>(QStringLiteral("issuesDock"))->isVisible());
}

// A torch.profiler trace of a CUDA graph: its 52 issues are Kineto's
// habits (flow ends on runtime calls, one flow end per graph kernel, sync
// flows): no badge, one collapsed group in the panel.
TEST_F(OpenWindow, KnownProducerQuirksRaiseNoBadgeAndSitInACollapsedGroup) {
  auto* badge = w().findChild<QToolButton*>(QStringLiteral("issuesBadge"));
  ASSERT_NE(badge, nullptr);
  ASSERT_TRUE(open(testData("public/cat-unclosed-slices-array/main_thread_has_unclosed_slices.json")));
  ASSERT_TRUE(badge->isVisible());
  ASSERT_TRUE(open(testData("h100/cudagraph_replay.json")));
  const auto& issues = trace().issues.all();
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(problemCount(issues), 0u);
  EXPECT_FALSE(badge->isVisible());  // hidden again after the file with problems
  auto* tree = w().issues()->tree();
  QTreeWidgetItem* group = w().issues()->quirksGroup();
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(tree->topLevelItemCount(), 1);
  EXPECT_FALSE(group->isExpanded());
  EXPECT_EQ(group->childCount(), static_cast<int>(issues.size()));
  EXPECT_EQ(group->text(IssuesPanel::Count).toULongLong(), quirkCount(issues));
  std::uint64_t sum = 0;
  for (int i = 0; i < group->childCount(); ++i) sum += group->child(i)->text(IssuesPanel::Count).toULongLong();
  EXPECT_EQ(sum, quirkCount(issues));
  EXPECT_EQ(group->child(0)->text(IssuesPanel::Issue).toStdString(), issues.front().name);
}

// An issue leads to where it is: its first occurrence as written in the
// file (read from the file here), the slice read from it selected and every
// slice it marks highlighted (the four B events Chrome never closed).
TEST_F(OpenWindow, AnImportIssueShowsItsFirstEventAndLeadsToItsSlices) {
  const QString path = testData("public/cat-unclosed-slices-array/main_thread_has_unclosed_slices.json");
  ASSERT_TRUE(open(path));
  const ImportIssue* issue = trace().issues.find("unclosed_begin");
  ASSERT_NE(issue, nullptr);
  IssuesPanel* panel = w().issues();
  QTreeWidgetItem* row = nullptr;
  for (int i = 0; i < panel->tree()->topLevelItemCount(); ++i) {
    if (panel->tree()->topLevelItem(i)->text(IssuesPanel::Issue) == "unclosed_begin") row = panel->tree()->topLevelItem(i);
  }
  ASSERT_NE(row, nullptr);
  EXPECT_FALSE(panel->showButton()->isEnabled());
  panel->tree()->setCurrentItem(row);
  EXPECT_TRUE(panel->sourceHeading()->text().contains(QString("byte %1").arg(issue->firstOffset)));
  const QByteArray shown = panel->sourceView()->toPlainText().toUtf8();
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray bytes = file.readAll();
  EXPECT_EQ(bytes.mid(static_cast<qsizetype>(issue->firstOffset), shown.size()), shown);
  EXPECT_TRUE(shown.startsWith("{") && shown.endsWith("}}") && shown.contains("\"ph\":\"B\"")) << shown.toStdString();
  ASSERT_TRUE(panel->showButton()->isEnabled());
  QTest::mouseClick(panel->showButton(), Qt::LeftButton);
  const std::uint32_t selected = s().selectedSlice();
  ASSERT_NE(selected, kNoIndex);
  EXPECT_TRUE(shown.contains("\"name\":\"" + QByteArray::fromStdString(std::string(trace().str(trace().slices[selected].name))) + "\""));
  EXPECT_EQ(s().highlights().size(), issue->count);
  for (std::uint32_t h : s().highlights()) EXPECT_TRUE(trace().slices[h].flags & kSliceUnclosed);
  EXPECT_NE(std::find(s().highlights().begin(), s().highlights().end(), selected), s().highlights().end());
}

// A file cut short: its "truncated" issue points at the end of the file,
// which is still there to read (it said the file was read from a pipe).
TEST_F(OpenWindow, ACutFilesTruncatedIssueSaysWhereTheFileEnds) {
  QFile whole(testData("h200/mlp_eager.json"));
  ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
  QTemporaryDir dir;
  const QString path = dir.filePath("cut.json");
  QFile cut(path);
  ASSERT_TRUE(cut.open(QIODevice::WriteOnly));
  cut.write(whole.read(20000));
  cut.close();
  ASSERT_TRUE(open(path));
  IssuesPanel* panel = w().issues();
  QTreeWidgetItem* row = nullptr;
  for (int i = 0; i < panel->tree()->topLevelItemCount(); ++i) {
    if (panel->tree()->topLevelItem(i)->text(IssuesPanel::Issue) == "truncated") row = panel->tree()->topLevelItem(i);
  }
  ASSERT_NE(row, nullptr);
  panel->tree()->setCurrentItem(row);
  EXPECT_TRUE(panel->sourceHeading()->text().contains("where the file ends")) << panel->sourceHeading()->text().toStdString();
  EXPECT_FALSE(panel->showButton()->isEnabled());
}

TEST_F(OpenWindow, DroppingAFileOpensIt) {
  const QString path = testData("h200/linear_64x4096_eager.json");
  QSignalSpy loaded(&w(), &MainWindow::traceLoaded);
  QMimeData data;
  data.setUrls({QUrl::fromLocalFile(path)});
  // As a drag from a file manager arrives: enter (accepted), then drop.
  QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w(), &enter);
  ASSERT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w(), &drop);
  ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
  EXPECT_EQ(s().loaded().displayName, QStringLiteral("linear_64x4096_eager.json"));
}

TEST(MainWindowStart, OffersTheBundledSample) {
  ensureApp();
  MainWindow w;
  w.show();
  w.offerSample();
  ASSERT_FALSE(MainWindow::bundledSamples().isEmpty());
  auto* sample = w.findChild<QPushButton*>(QStringLiteral("welcomeSample"));
  ASSERT_NE(sample, nullptr);
  EXPECT_TRUE(sample->isVisible());
  QSignalSpy loaded(&w, &MainWindow::traceLoaded);
  QTest::mouseClick(sample, Qt::LeftButton);
  ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
  EXPECT_GT(w.session()->trace().slices.size(), 100u);
  EXPECT_TRUE(w.timeline()->isVisible());
}

TEST_F(OpenWindow, ClickingAGapBarFiltersTheGapListAndFocusesItsLongestGap) {
  ChartsPanel* charts = w().charts();
  w().findChild<QDockWidget*>(QStringLiteral("chartsDock"))->raise();
  waitUntil([&] { return charts->gapPlot()->isVisible() && charts->gapPlot()->width() > 100; });
  charts->gapPlot()->replot();
  const auto& h = charts->gapHistogram();
  ASSERT_GT(h.bins(), 0u);
  // The fullest bin's launch-overhead bar, clicked at its middle.
  std::size_t bin = 0;
  for (std::size_t b = 0; b < h.bins(); ++b) bin = h.count[b] > h.count[bin] ? b : bin;
  const auto cause = analysis::GapCause::LaunchOverhead;
  QCPBars* bars = nullptr;
  for (int i = 0; i < charts->gapPlot()->plottableCount(); ++i) {
    if (charts->gapPlot()->plottable(i)->name() == QString::fromUtf8(analysis::gapCauseLabel(cause))) {
      bars = qobject_cast<QCPBars*>(charts->gapPlot()->plottable(i));
    }
  }
  ASSERT_NE(bars, nullptr);
  const double value = bars->data()->at(static_cast<int>(bin))->value;
  ASSERT_GT(value, 0);
  const QPoint at(static_cast<int>(bars->keyAxis()->coordToPixel(static_cast<double>(bin))),
                  static_cast<int>(bars->valueAxis()->coordToPixel(value / 2)));
  QTest::mouseClick(charts->gapPlot(), Qt::LeftButton, {}, at);

  const auto range = w().gaps()->model()->durationRange();
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->first, h.lo[bin]);
  EXPECT_EQ(range->second, h.hi[bin]);
  for (int r = 0; r < w().gaps()->model()->rowCount(); ++r) {
    const auto& g = s().gaps().gaps[w().gaps()->model()->gapIndex(r)];
    EXPECT_TRUE(g.dur >= h.lo[bin] && g.dur < h.hi[bin]);
  }
  ASSERT_EQ(s().selection().kind, Selection::Kind::Gap);
  const auto& picked = s().gaps().gaps[s().selection().index];
  EXPECT_EQ(picked.cause, cause);
  EXPECT_EQ(picked.stream, -1);  // the histogram counts device gaps
  for (const auto& g : s().gaps().gaps) {
    if (g.stream < 0 && g.cause == cause && h.binOf(g.dur) == bin) {
      EXPECT_LE(g.dur, picked.dur);
    }
  }
}

TEST_F(OpenWindow, GapBarsShowIdleTimeOrTheNumberOfGaps) {
  ChartsPanel* charts = w().charts();
  // Counted here from the gap list: per bin, launch-overhead device gaps and their idle time.
  const auto& h = charts->gapHistogram();
  std::vector<double> idleUs(h.bins(), 0), count(h.bins(), 0);
  for (const auto& g : s().gaps().gaps) {
    if (g.stream >= 0 || g.dur < s().minGapNs() || g.cause != analysis::GapCause::LaunchOverhead) continue;
    idleUs[h.binOf(g.dur)] += static_cast<double>(g.dur) / 1000.0;
    count[h.binOf(g.dur)] += 1;
  }
  auto bars = [&] {
    for (int i = 0; i < charts->gapPlot()->plottableCount(); ++i)
      if (charts->gapPlot()->plottable(i)->name() ==
          QString::fromUtf8(analysis::gapCauseLabel(analysis::GapCause::LaunchOverhead)))
        return qobject_cast<QCPBars*>(charts->gapPlot()->plottable(i));
    return static_cast<QCPBars*>(nullptr);
  };
  ASSERT_NE(bars(), nullptr);
  EXPECT_EQ(charts->gapMeasure(), ChartsPanel::GapMeasure::IdleTime);
  for (std::size_t b = 0; b < h.bins(); ++b)
    EXPECT_NEAR(bars()->data()->at(static_cast<int>(b))->value, idleUs[b], 1e-6) << b;
  charts->setGapMeasure(ChartsPanel::GapMeasure::Count);
  for (std::size_t b = 0; b < h.bins(); ++b) EXPECT_EQ(bars()->data()->at(static_cast<int>(b))->value, count[b]) << b;
  charts->setGapMeasure(ChartsPanel::GapMeasure::IdleTime);
}

TEST_F(OpenWindow, TheGapChartsLegendCoversNoBar) {
  QCustomPlot* plot = w().charts()->gapPlot();
  plot->resize(640, 240);
  plot->replot();
  ASSERT_TRUE(plot->legend->visible());
  const QRect legend = plot->legend->outerRect();
  EXPECT_FALSE(legend.isEmpty());
  EXPECT_FALSE(legend.intersects(plot->axisRect()->rect())) << "legend over the bars";
  EXPECT_EQ(plot->legend->itemCount(), static_cast<int>(analysis::kGapCauseCount));
}

TEST_F(OpenWindow, AQueueTimeBarHighlightsTheLaunchesItCounts) {
  ChartsPanel* charts = w().charts();
  const auto& h = charts->queueHistogram();
  ASSERT_GT(h.bins(), 0u);
  std::size_t bin = 0;
  for (std::size_t b = 0; b < h.bins(); ++b) bin = h.count[b] > h.count[bin] ? b : bin;
  charts->activateQueueBin(bin);
  EXPECT_EQ(s().highlights().size(), h.count[bin]);
  for (std::uint32_t call : s().highlights()) {
    EXPECT_TRUE(isLaunchCallName(trace().str(trace().slices[call].name)));
  }
  EXPECT_NE(s().selectedSlice(), kNoIndex);
}

TEST(MainWindowSettings, RemembersTheDockLayout) {
  ensureApp();
  {
    MainWindow first;
    first.show();
    auto* charts = first.findChild<QDockWidget*>(QStringLiteral("chartsDock"));
    ASSERT_NE(charts, nullptr);
    charts->close();
    first.close();  // saves the layout
  }
  {
    MainWindow second;
    second.show();
    EXPECT_FALSE(second.findChild<QDockWidget*>(QStringLiteral("chartsDock"))->isVisible());
    EXPECT_TRUE(second.findChild<QDockWidget*>(QStringLiteral("detailsDock"))->isVisible());
    second.close();
  }
  QSettings().remove(QStringLiteral("mainWindow"));
}

#ifdef GAPSCOPE_APP_HAVE_RECORDER
TEST(MainWindowStart, TheRecordButtonSaysWhyItIsOff) {
  ensureApp();
  MainWindow w;
  auto* record = w.findChild<QAction*>(QStringLiteral("recordAction"));
  ASSERT_NE(record, nullptr);
  ASSERT_TRUE(waitUntil([&] { return !record->toolTip().startsWith(QStringLiteral("Checking")); }));
  const gpu::Availability a = gpu::recordingAvailability();
  EXPECT_EQ(record->isEnabled(), a.available);
  if (!a.available) {
    EXPECT_TRUE(record->toolTip().contains(QString::fromStdString(a.reason))) << record->toolTip().toStdString();
  }
}
#endif

// The status bar: the trace's slices and kernels (counted here), and how
// long it took to open in a unit that reads (a small trace: milliseconds,
// never "0.00 s").
TEST_F(OpenWindow, TheStatusBarSaysWhatOpenedAndHowLongItTook) {
  auto* info = w().findChild<QLabel*>(QStringLiteral("traceInfo"));
  ASSERT_NE(info, nullptr);
  std::uint64_t kernels = 0;
  for (const Slice& sl : trace().slices) kernels += sl.kind == SliceKind::Kernel;
  const QString text = info->text();
  EXPECT_TRUE(text.startsWith(QStringLiteral("%1 slices · %2 kernels").arg(trace().slices.size()).arg(kernels)))
      << text.toStdString();
  const double seconds = s().loaded().seconds;
  ASSERT_GT(seconds, 0.0);
  const QString opened = QStringLiteral(" · opened in ") + durationText(static_cast<TimeNs>(seconds * 1e9));
  EXPECT_TRUE(text.endsWith(opened)) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("0.00 s"))) << text.toStdString();
}

// File > Export Report: enabled with a trace open, writes the report off
// the GUI thread and says so; a bad path is reported, not a crash.
TEST_F(OpenWindow, ExportsAHotspotReport) {
  auto* action = window_->findChild<QAction*>(QStringLiteral("exportReportAction"));
  ASSERT_NE(action, nullptr);
  EXPECT_TRUE(action->isEnabled());
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("report.md"));
  QSignalSpy done(window_.get(), &MainWindow::reportExported);
  const analysis::TraceAnalysis& held = s().analysis();
  // Everything but the call tree computed while loading, the gap list's
  // ranking too (the Call Tree dock builds the tree when shown).
  EXPECT_GE(held.partsComputed(), 7);
  ASSERT_TRUE(window_->exportReport(path, report::ReportFormat::Markdown));
  ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
  EXPECT_EQ(done.at(0).at(1).toString(), QString());
  EXPECT_EQ(held.partsComputed(), 8);  // the report read the held results, the call tree once
  EXPECT_EQ(&s().analysis(), &held);
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(file.readAll());
  EXPECT_TRUE(text.contains(QStringLiteral("launch-overhead bound"))) << text.left(300).toStdString();

  const QString bad = dir.filePath(QStringLiteral("missing-folder/report.html"));
  window_->hide();  // no modal warning box in a test
  ASSERT_TRUE(window_->exportReport(bad, report::ReportFormat::Html));
  ASSERT_TRUE(waitUntil([&] { return done.count() == 2; }));
  EXPECT_FALSE(done.at(1).at(1).toString().isEmpty());
  EXPECT_FALSE(QFile::exists(bad));
}

TEST(MainWindowExport, DisabledWithoutATrace) {
  ensureApp();
  MainWindow window;
  auto* action = window.findChild<QAction*>(QStringLiteral("exportReportAction"));
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isEnabled());
  EXPECT_FALSE(window.exportReport(QStringLiteral("/tmp/never.html"), report::ReportFormat::Html));
}
