// Two histograms (QCustomPlot): device idle gaps by duration, stacked by
// cause (analysis::deviceGapHistogram: the idle time they hold, or how many
// there are), and launch queue times (kernel start minus launch-call end).
// Clicking a bar selects what it counts: a gap bar filters the gap list to
// that duration range and focuses its longest gap of that cause; a queue-time
// bar highlights those launch calls on the timeline.
#pragma once

#include <QWidget>

#include <array>
#include <optional>
#include <vector>

#include "gapscope/analysis/gap_histogram.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/timeline/histogram.h"

class QCPAbstractPlottable;
class QCPBars;
class QCPItemText;
class QComboBox;
class QCustomPlot;
class QTabWidget;

namespace gapscope::app {

class TraceSession;

class ChartsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ChartsPanel(TraceSession* session, QWidget* parent = nullptr);

  QCustomPlot* gapPlot() const { return gapPlot_; }
  QCustomPlot* queuePlot() const { return queuePlot_; }
  const timeline::DurationHistogram& gapHistogram() const { return gapHist_.bins; }
  // The gap bars show idle time (the default) or the number of gaps.
  enum class GapMeasure { IdleTime, Count };
  void setGapMeasure(GapMeasure measure);
  GapMeasure gapMeasure() const { return gapMeasure_; }
  const timeline::DurationHistogram& queueHistogram() const { return queueHist_; }
  // The unit the idle-time bars are in ("µs", "ms" or "s": the largest bar
  // in tens to thousands of it; a 12.8 s trace read 1·10⁷ µs).
  QString idleUnit() const { return idleUnit_; }
  // What an empty chart says instead of blank axes ("" when it has bars).
  QString gapNote() const;
  QString queueNote() const;

  // What clicking bin `bin` (of cause `cause` for gaps) does.
  void activateGapBin(std::size_t bin, analysis::GapCause cause);
  void activateQueueBin(std::size_t bin);

 protected:
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 signals:
  // The gap list should show only gaps with lo <= duration < hi.
  void gapRangePicked(qint64 lo, qint64 hi);

 private:
  void rebuild();
  void rebuildGaps();
  void rebuildQueue();
  void styleAxes(QCustomPlot* plot);
  QWidget* gapTab();
  static QCPItemText* addNote(QCustomPlot* plot);

  TraceSession* session_;
  QTabWidget* tabs_;
  QCustomPlot* gapPlot_;
  QCustomPlot* queuePlot_;
  std::array<QCPBars*, analysis::kGapCauseCount> gapBars_{};
  QCPBars* queueBars_ = nullptr;
  QCPItemText* gapNote_ = nullptr;
  QCPItemText* queueNote_ = nullptr;
  QString idleUnit_ = QStringLiteral("µs");
  analysis::GapHistogram gapHist_;
  GapMeasure gapMeasure_ = GapMeasure::IdleTime;
  QComboBox* gapMeasureChoice_ = nullptr;
  timeline::DurationHistogram queueHist_;
  std::vector<std::uint32_t> listedDeviceGaps_;  // gap indices counted in gapHist_
};

}  // namespace gapscope::app
