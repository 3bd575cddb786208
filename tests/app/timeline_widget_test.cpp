// The timeline widget on its own, over a small synthetic trace: what it
// paints where, zooming at the mouse, tooltips.
#include <QImage>

#include <algorithm>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include "../support/slice_events.h"
#include "app_test_support.h"
#include "gapscope/model/trace_builder.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"

using namespace gapscope;
using namespace gapscope::app;
using gapscope::app::testing::analysed;
using gapscope::app::testing::ensureApp;

namespace {

// One thread: outer [0, 10 us) holding inner [2 us, 6 us); one GPU stream with
// two kernels 20 us apart (a launch gap between them).
Trace smallTrace() {
  TraceBuilder b;
  auto add = [&](const char* name, const char* cat, TimeNs start, TimeNs dur, std::int64_t pid, std::int64_t tid) {
    b.addComplete(gapscope::testing::sliceEvent(b, pid, tid, name, cat, start, dur, kNoCorrelation));
  };
  add("outer", "cpu_op", 0, 10000, 1, 1);
  add("inner", "cpu_op", 2000, 4000, 1, 1);
  add("k1", "kernel", 1000, 3000, 0, 7);
  add("k2", "kernel", 24000, 3000, 0, 7);
  b.addCounter(b.numericId(1), b.intern("memory"), 0, 5, 0);
  b.addCounter(b.numericId(1), b.intern("memory"), 8000, 42, 0);
  return b.finish();
}

struct Fixture {
  TraceSession session;
  TimelineWidget widget{&session};
  Fixture() {
    widget.resize(900, 300);
    session.setTrace(analysed(smallTrace()));
  }
  std::uint32_t named(std::string_view name) const {
    const Trace& t = session.trace();
    for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
      if (t.str(t.slices[i].name) == name) return i;
    }
    return kNoIndex;
  }
};

}  // namespace

TEST(TimelineWidget, PaintsSlicesWhereSliceRectSaysInTheirColour) {
  ensureApp();
  Fixture f;
  QImage image(900, 300, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::magenta);
  f.widget.renderTo(image);
  const TimelinePalette palette = TimelinePalette::forDark(false);
  for (const char* name : {"outer", "inner", "k1"}) {
    const std::uint32_t s = f.named(name);
    const QRectF r = f.widget.sliceRect(s);
    ASSERT_FALSE(r.isEmpty()) << name;
    // A point inside the slice but clear of its label text.
    const QPoint p(static_cast<int>(r.right()) - 2, static_cast<int>(r.bottom()) - 1);
    const QColor expected = palette.slice[f.session.layout().colourClass(f.session.trace().slices[s])];
    EXPECT_EQ(QColor(image.pixel(p)).name(), expected.name()) << name;
  }
  EXPECT_NE(QColor(image.pixel(5, 5)), QColor(Qt::magenta));  // every pixel painted (opaque widget)
  EXPECT_GT(f.widget.lastBuildMs(), 0.0);
}

TEST(TimelineWidget, NestedSlicesSitOneRowDeeper) {
  ensureApp();
  Fixture f;
  const QRectF outer = f.widget.sliceRect(f.named("outer"));
  const QRectF inner = f.widget.sliceRect(f.named("inner"));
  EXPECT_GT(inner.top(), outer.top());
  EXPECT_GT(inner.left(), outer.left());
  EXPECT_LT(inner.right(), outer.right());
}

TEST(TimelineWidget, CtrlWheelZoomsKeepingTheTimeUnderTheMouse) {
  ensureApp();
  Fixture f;
  const QPointF at(500, 100);
  const double px = at.x() - f.widget.chrome().namesWidth;
  const TimeNs before = f.widget.scale().toTime(px);
  const double npp = f.widget.scale().nsPerPixel();
  QWheelEvent wheel(at, f.widget.mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::ControlModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(&f.widget, &wheel);
  EXPECT_NEAR(f.widget.scale().nsPerPixel(), npp / 1.44, npp * 0.01);
  EXPECT_NEAR(static_cast<double>(f.widget.scale().toTime(px)), static_cast<double>(before), npp);
}

TEST(TimelineWidget, DraggingPansTheView) {
  ensureApp();
  Fixture f;
  f.widget.zoomAt(4, 500);
  const TimeNs start = f.widget.scale().start();
  const double npp = f.widget.scale().nsPerPixel();
  QTest::mousePress(&f.widget, Qt::LeftButton, {}, QPoint(600, 200));
  QTest::mouseMove(&f.widget, QPoint(580, 200));
  QTest::mouseMove(&f.widget, QPoint(500, 200));
  QTest::mouseRelease(&f.widget, Qt::LeftButton, {}, QPoint(500, 200));
  // Dragged 100 px left: the view moved 100 px later in time.
  EXPECT_NEAR(static_cast<double>(f.widget.scale().start() - start), 100 * npp, 2 * npp);
  EXPECT_EQ(f.session.selection().kind, Selection::Kind::None);  // a drag is not a click
}

TEST(TimelineWidget, HoverTooltipNamesTheSliceWithDurationAndSelfTime) {
  ensureApp();
  Fixture f;
  f.widget.show();
  const QRectF r = f.widget.sliceRect(f.named("outer"));
  const QPoint p(static_cast<int>(r.left()) + 3, static_cast<int>(r.center().y()));
  QHelpEvent help(QEvent::ToolTip, p, f.widget.mapToGlobal(p));
  QApplication::sendEvent(&f.widget, &help);
  const QString text = QToolTip::text();
  EXPECT_TRUE(text.contains(QStringLiteral("outer"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("Duration: 10.0 µs"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("Self time: 6.00 µs"))) << text.toStdString();
  QToolTip::hideText();
}

TEST(TimelineWidget, TheLaunchGapIsDrawnAndClickable) {
  ensureApp();
  Fixture f;
  const auto& gaps = f.session.gaps().gaps;
  std::uint32_t streamGap = kNoIndex;
  for (std::uint32_t i = 0; i < gaps.size(); ++i) {
    if (gaps[i].stream == 7) streamGap = i;
  }
  ASSERT_NE(streamGap, kNoIndex);
  EXPECT_EQ(gaps[streamGap].start, 4000);
  EXPECT_EQ(gaps[streamGap].dur, 20000);
  const QRectF r = f.widget.gapRect(streamGap);
  ASSERT_FALSE(r.isEmpty());
  QTest::mouseClick(&f.widget, Qt::LeftButton, {}, r.center().toPoint());
  EXPECT_EQ(f.session.selection(), (Selection{Selection::Kind::Gap, streamGap}));
  f.session.setGapsShown(false);
  EXPECT_EQ(f.widget.gapAtPoint(r.center()), kNoIndex);
}

TEST(TimelineWidget, CounterLanesShowTheirValueUnderTheMouse) {
  ensureApp();
  Fixture f;
  f.widget.show();
  const auto& layout = f.session.layout();
  std::uint32_t lane = kNoIndex;
  for (std::uint32_t l = 0; l < layout.lanes().size(); ++l) {
    if (layout.lanes()[l].kind == timeline::LaneKind::Counter) lane = l;
  }
  ASSERT_NE(lane, kNoIndex);
  // The counter lane sits below the thread lane; find its row on screen.
  const QRectF inner = f.widget.sliceRect(f.named("inner"));
  const std::uint32_t row = layout.lanes()[lane].firstRow;
  int y = -1;
  for (int probe = static_cast<int>(inner.bottom()); probe < f.widget.height(); ++probe) {
    QHelpEvent help(QEvent::ToolTip, QPoint(static_cast<int>(inner.center().x()), probe), QPoint());
    QApplication::sendEvent(&f.widget, &help);
    if (QToolTip::text().contains(QStringLiteral("memory"))) {
      y = probe;
      break;
    }
  }
  ASSERT_GE(y, 0) << "no counter tooltip below the thread lane (row " << row << ")";
  // inner spans 2..6 us: the 5 set at 0 is in force there, not the 42 set at 8 us.
  EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("<br>5 (highest in the trace: 42)"))) << QToolTip::text().toStdString();
  QToolTip::hideText();
}

TEST(TimelineWidget, ATallLaneKeepsItsNameInViewWhenItsTopIsScrolledAway) {
  // A GPU stream (pinned) and a thread 40 calls deep: taller than the view.
  ensureApp();
  TraceBuilder b;
  b.addComplete(gapscope::testing::sliceEvent(b, 0, 7, "k", "kernel", 0, 3000, kNoCorrelation));
  for (int depth = 0; depth < 40; ++depth) {
    b.addComplete(gapscope::testing::sliceEvent(b, 1, 1, "call", "cpu_op", depth * 10, 100000 - depth * 20,
                                                kNoCorrelation));
  }
  TraceSession session;
  TimelineWidget widget(&session);
  widget.resize(900, 300);
  session.setTrace(analysed(b.finish()));
  QImage image(900, 300, QImage::Format_ARGB32_Premultiplied);
  widget.renderTo(image);
  const auto& lanes = session.layout().lanes();
  std::uint32_t thread = kNoIndex;
  for (std::uint32_t l = 0; l < lanes.size(); ++l)
    if (lanes[l].name.find("thread 1") != std::string::npos) thread = l;
  ASSERT_NE(thread, kNoIndex);
  ASSERT_FALSE(widget.lastFrame().pinnedEdge.isNull());
  const double edge = widget.lastFrame().pinnedEdge.y1();
  // Scroll until the lane's top is 60 px under the pinned lanes.
  while (widget.laneRect(thread).top() > edge - 60 && widget.scrollY() < widget.contentHeight()) {
    widget.setScrollY(widget.scrollY() + 10);
  }
  const QRectF lane = widget.laneRect(thread);
  ASSERT_LT(lane.top(), edge - 50);
  ASSERT_GT(lane.bottom(), edge + 100);
  widget.renderTo(image);
  const auto& names = widget.lastFrame().laneNames;
  auto named = std::find_if(names.begin(), names.end(),
                            [](const auto& n) { return !n.header && n.text.contains(QStringLiteral("thread 1")); });
  ASSERT_NE(named, names.end()) << "the lane's name scrolled away with its top";
  EXPECT_GE(named->rect.top(), edge - 1);
  EXPECT_LT(named->rect.top(), edge + 20);
}
