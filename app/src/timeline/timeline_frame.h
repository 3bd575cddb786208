// The geometry of one timeline frame: every rectangle, label and tick for
// one (visible range, width, vertical scroll, size, device pixel ratio),
// built once from the level-of-detail data and replayed by paint until the
// view changes (after Qt Creator's track painter). Rectangles are batched by
// colour so paint is one drawRects call per colour.
#pragma once

#include <QColor>
#include <QLineF>
#include <QFont>
#include <QRectF>
#include <QString>
#include <QVector>

#include <array>
#include <optional>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/timeline/axis_ticks.h"
#include "gapscope/timeline/gap_overlay.h"
#include "gapscope/timeline/layout.h"
#include "gapscope/timeline/time_scale.h"
#include "gapscope/timeline/vertical_layout.h"
#include "timeline/name_cache.h"
#include "timeline/timeline_palette.h"

class QPainter;

namespace gapscope::app {

// The fixed parts of the widget around the time area.
struct TimelineChrome {
  double axisHeight = 26;   // the time axis strip on top
  double namesWidth = 230;  // the lane names column on the left
};

// What a frame depends on; a frame is rebuilt when any of it changes.
struct FrameKey {
  timeline::TimeScale scale;  // logical pixels of the time area
  double scrollY = 0;
  int width = 0;
  int height = 0;
  double dpr = 1;
  quint64 version = 0;  // bumped on trace, layout, collapse, gap or palette changes
  friend bool operator==(const FrameKey&, const FrameKey&) = default;
};

struct FrameInputs {
  const Trace* trace = nullptr;
  const timeline::TimelineLayout* layout = nullptr;
  const timeline::VerticalLayout* vertical = nullptr;
  const analysis::GapAnalysis* gaps = nullptr;        // null: no overlay
  const timeline::GapOverlay* overlay = nullptr;
  const TimelinePalette* palette = nullptr;
  // Where the time axis counts from: the content's start unless set (the
  // compare window counts both runs from the step they are aligned at).
  std::optional<TimeNs> axisOrigin;
  NameCache* names = nullptr;
  QFont font;
  TimelineChrome chrome;
  FrameKey key;
};

struct TimelineFrame {
  struct Label {
    QRectF rect;
    QString text;
    bool lightText = false;
  };
  struct LaneName {
    QRectF rect;
    QString text;
    bool header = false;
    bool collapsed = false;
    std::uint32_t gapCount = 0;  // device gaps shown in a GPU header
  };

  FrameKey key;
  bool valid = false;
  std::vector<QVector<QRectF>> slices;  // per colour class
  // The tint over a lane, by the lane's background (plain, shaded): painted
  // opaque in the gap colour already blended over that background, since
  // blending half a million rects per frame cost 10 ms at device pixel ratio 2.
  std::array<std::array<QVector<QRectF>, analysis::kGapCauseCount>, 2> gaps;
  std::array<QVector<QRectF>, analysis::kGapCauseCount> gapBands;  // solid band (lane bottom, header)
  QVector<QRectF> counterBars;
  // Memory lanes: reserved behind allocated, and a line at each allocated
  // peak with its size beside it.
  QVector<QRectF> memoryReserved;
  QVector<QRectF> memoryAllocated;
  QVector<QLineF> memoryPeaks;
  std::vector<Label> peakLabels;
  QVector<QRectF> laneShades;  // alternate lane backgrounds
  QVector<QRectF> headers;     // group header strips
  QVector<QLineF> separators;
  QLineF pinnedEdge;  // the line under the pinned lanes (null: none pinned)
  QVector<QLineF> grid;  // faint lines at major ticks
  std::vector<Label> labels;
  std::vector<LaneName> laneNames;
  timeline::AxisTicks ticks;
  double buildMs = 0;
};

TimelineFrame buildFrame(const FrameInputs& in);

// Replays a frame: background, lanes, slices, gaps, labels, names, axis.
void paintFrame(QPainter& p, const TimelineFrame& frame, const TimelinePalette& palette,
                const QFont& font, const TimelineChrome& chrome);

}  // namespace gapscope::app
