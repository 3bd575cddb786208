// The timeline with what surrounds it: the launch-gap legend and
// minimum-gap control on top, the GPU utilisation strip, and the vertical
// scroll bar.
#pragma once

#include <QWidget>

#include <array>

#include "gapscope/analysis/gaps.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QScrollBar;

namespace gapscope::app {

class TimelineWidget;
class TraceSession;
class UtilisationStrip;

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  // How the trace's verdict sits under the legend: wrapped (a window with
  // one timeline, where it is the sentence the user needs whole) or on one
  // line, elided, whole in its tooltip (the compare window, whose own
  // verdict is on top and whose two timelines share the height).
  enum class VerdictLines { Wrapped, One };
  explicit TimelineView(TraceSession* session, QWidget* parent = nullptr,
                        VerdictLines verdictLines = VerdictLines::Wrapped);

  TimelineWidget* timeline() const { return timeline_; }
  UtilisationStrip* utilisation() const { return utilisation_; }

 private:
  QWidget* buildGapBar(VerdictLines verdictLines);
  void syncScrollBar();
  void updateLegend();

  TraceSession* session_;
  TimelineWidget* timeline_;
  UtilisationStrip* utilisation_;
  QScrollBar* vbar_;
  QCheckBox* showGaps_;
  QDoubleSpinBox* minGap_;
  std::array<QLabel*, analysis::kGapCauseCount> legend_{};
  QLabel* verdict_;
};

}  // namespace gapscope::app
