// GPU utilisation over time, drawn with QCustomPlot right above the
// timeline and sharing its time range and left edge, so a dip in the curve
// sits exactly over the idle stretch below it. One curve per device. The
// steps (analysis/steps.h) are marked where they begin, numbered, when few
// enough are in view to read; a click on a step zooms to it and selects
// its range.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "gapscope/analysis/trace_analysis.h"

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
  // The steps marked now (indices into the gap analysis' steps).
  const std::vector<std::size_t>& markedSteps() const { return marked_; }
  // The marked steps that are numbered: those whose label clears the one
  // before it.
  const std::vector<std::size_t>& labelledSteps() const { return labelled_; }
  // What a click at x (strip coordinates) does: picks the step under it.
  void pickStepAt(double x);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void onTraceChanged();
  void replot();
  void applyColours();
  void markSteps();
  bool eventFilter(QObject* watched, QEvent* event) override;

  TraceSession* session_;
  TimelineWidget* timeline_;
  QCustomPlot* plot_;
  const std::vector<analysis::DeviceBusy>& devices() const;

  // The open trace's analysis, whose GPU busy time (GpuBusy) the curves show.
  std::shared_ptr<const analysis::TraceAnalysis> analysis_;
  int bins_ = 0;
  std::vector<std::size_t> marked_;
  std::vector<std::size_t> labelled_;
};

}  // namespace gapscope::app
