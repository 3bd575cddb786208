// GPU utilisation over time, drawn with QCustomPlot right above the
// timeline and sharing its time range and left edge, so a dip in the curve
// sits exactly over the idle stretch below it. One curve per device.
#pragma once

#include <QWidget>

#include <vector>

#include "gapscope/timeline/gpu_busy.h"

class QCustomPlot;

namespace gapscope::app {

class TimelineWidget;
class TraceSession;

class UtilisationStrip : public QWidget {
  Q_OBJECT

 public:
  UtilisationStrip(TraceSession* session, TimelineWidget* timeline, QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }
  // Busy share per bin of the curve of `device` (index into the devices shown).
  std::vector<double> values(int device) const;
  int bins() const { return bins_; }

 private:
  void onTraceChanged();
  void replot();

  TraceSession* session_;
  TimelineWidget* timeline_;
  QCustomPlot* plot_;
  std::vector<timeline::DeviceBusyIntervals> devices_;
  int bins_ = 0;
};

}  // namespace gapscope::app
