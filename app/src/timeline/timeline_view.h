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
  explicit TimelineView(TraceSession* session, QWidget* parent = nullptr);

  TimelineWidget* timeline() const { return timeline_; }
  UtilisationStrip* utilisation() const { return utilisation_; }

 private:
  QWidget* buildGapBar();
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
