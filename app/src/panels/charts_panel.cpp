#include "panels/charts_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <limits>

#include "app_setup.h"
#include "models/table_format.h"
#include "gapscope/format/duration.h"
#include "panels/plot_style.h"
#include "timeline/timeline_palette.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

struct IdleUnit {
  double ns;
  const char* name;
};

// The largest bar in tens to thousands of the unit.
IdleUnit idleUnitFor(TimeNs largest) {
  if (largest >= 10'000'000'000) return {1e9, "s"};
  if (largest >= 10'000'000) return {1e6, "ms"};
  return {1e3, "µs"};
}

QString binLabel(const timeline::DurationHistogram& h, std::size_t i) {
  if (h.lo[i] == std::numeric_limits<TimeNs>::min()) return QObject::tr("< 0");
  // Bin edges are 1-2-5 numbers: "2 µs", "500 ns", no decimals needed.
  const TimeNs lo = h.lo[i];
  return QString::fromStdString(format::formatTimeLabel(lo, lo > 0 ? lo : 1, format::labelUnitFor(lo)));
}

QSharedPointer<QCPAxisTickerText> binTicker(const timeline::DurationHistogram& h) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (std::size_t i = 0; i < h.bins(); ++i) ticker->addTick(static_cast<double>(i), binLabel(h, i));
  return ticker;
}

// Bin labels upright when they fit side by side, slanted only when they do
// not: slanted they take three times the height, which a short dock (a
// 1024x700 window) takes from the bars.
void fitBinLabels(QCustomPlot* plot) {
  const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->xAxis->ticker());
  if (!ticker) return;
  const QFontMetrics metrics(plot->xAxis->tickLabelFont());
  int widest = 0;
  for (const QString& label : ticker->ticks()) widest = std::max(widest, metrics.horizontalAdvance(label));
  const int needed = static_cast<int>(ticker->ticks().size()) * (widest + metrics.averageCharWidth() * 2);
  // The plot's width less the axis rect's margins (the y axis and its
  // title), which do not depend on the x labels: right after a resize the
  // axis rect itself still has its old width.
  const QMargins margins = plot->axisRect()->margins();
  const int room = plot->width() - (margins.left() > 0 ? margins.left() + margins.right() : metrics.height() * 5);
  plot->xAxis->setTickLabelRotation(needed <= room ? 0 : -30);
}

QCustomPlot* newPlot(QWidget* parent, const QString& name) {
  auto* plot = new QCustomPlot(parent);
  plot->setObjectName(name);
  plot->setInteractions(QCP::iSelectPlottables);
  plot->setMinimumHeight(160);
  // Four values up the side: the dock is often short, and seven labels in
  // 60 pixels read as one column of digits.
  plot->yAxis->ticker()->setTickCount(4);
  return plot;
}

}  // namespace

ChartsPanel::ChartsPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), tabs_(new QTabWidget(this)) {
  setObjectName(QStringLiteral("chartsPanel"));
  gapPlot_ = newPlot(this, QStringLiteral("gapHistogram"));
  queuePlot_ = newPlot(this, QStringLiteral("queueHistogram"));
  tabs_->addTab(gapTab(), tr("Idle gaps by duration"));
  tabs_->addTab(queuePlot_, tr("Launch queue time"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);

  const TimelinePalette pal = TimelinePalette::forDark(paletteIsDark());
  QCPBars* below = nullptr;
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
    auto* bars = new QCPBars(gapPlot_->xAxis, gapPlot_->yAxis);
    bars->setName(QString::fromUtf8(analysis::gapCauseLabel(static_cast<analysis::GapCause>(c))));
    bars->setBrush(pal.gap[c]);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.8);
    if (below) bars->moveAbove(below);
    below = bars;
    gapBars_[c] = bars;
  }
  // The legend in a row of its own above the bars: inside the axis rect it
  // covered the tallest bars when they stood on the right.
  gapPlot_->legend->setVisible(true);
  gapPlot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  gapPlot_->plotLayout()->insertRow(0);
  gapPlot_->plotLayout()->addElement(0, 0, gapPlot_->legend);
  gapPlot_->plotLayout()->setRowStretchFactor(0, 0.001);
  gapPlot_->legend->setMargins(QMargins(4, 2, 4, 2));

  queueBars_ = new QCPBars(queuePlot_->xAxis, queuePlot_->yAxis);
  queueBars_->setName(tr("launches"));
  queueBars_->setBrush(pal.slice[timeline::kColourLaunch]);
  queueBars_->setPen(Qt::NoPen);
  queueBars_->setWidth(0.8);
  queuePlot_->yAxis->setLabel(tr("launch calls"));
  gapNote_ = addNote(gapPlot_);
  queueNote_ = addNote(queuePlot_);
  styleAxes(gapPlot_);
  styleAxes(queuePlot_);

  connect(gapPlot_, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
            for (std::size_t c = 0; c < gapBars_.size(); ++c) {
              if (plottable == gapBars_[c]) {
                activateGapBin(static_cast<std::size_t>(gapBars_[c]->data()->at(dataIndex)->key),
                               static_cast<analysis::GapCause>(c));
              }
            }
          });
  connect(queuePlot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) {
    activateQueueBin(static_cast<std::size_t>(queueBars_->data()->at(dataIndex)->key));
  });
  connect(session_, &TraceSession::traceChanged, this, &ChartsPanel::rebuild);
  connect(session_, &TraceSession::gapOverlayChanged, this, &ChartsPanel::rebuildGaps);
  rebuild();
}

// The measure chooser sits in the tab bar's free corner, not in a row of
// its own: in a 1024x700 window the dock is short and the bars get the row.
QWidget* ChartsPanel::gapTab() {
  auto* corner = new QWidget(tabs_);
  auto* row = new QHBoxLayout(corner);
  row->setContentsMargins(6, 0, 6, 0);
  row->addWidget(new QLabel(tr("Bars show"), corner));
  gapMeasureChoice_ = new QComboBox(corner);
  gapMeasureChoice_->setObjectName(QStringLiteral("gapMeasure"));
  gapMeasureChoice_->addItem(tr("idle time"));
  gapMeasureChoice_->addItem(tr("number of gaps"));
  gapMeasureChoice_->setToolTip(tr("Idle time: what the gaps of each length cost the GPU (a few long gaps can "
                                   "hold most of it). Number of gaps: how many there are."));
  connect(gapMeasureChoice_, &QComboBox::activated, this,
          [this](int item) { setGapMeasure(item == 0 ? GapMeasure::IdleTime : GapMeasure::Count); });
  row->addWidget(gapMeasureChoice_);
  tabs_->setCornerWidget(corner, Qt::TopRightCorner);
  // Only the gap chart has a measure to choose.
  connect(tabs_, &QTabWidget::currentChanged, corner, [this, corner] { corner->setVisible(tabs_->currentIndex() == 0); });
  return gapPlot_;
}

void ChartsPanel::setGapMeasure(GapMeasure measure) {
  gapMeasure_ = measure;
  gapMeasureChoice_->setCurrentIndex(measure == GapMeasure::IdleTime ? 0 : 1);
  rebuildGaps();
}

void ChartsPanel::styleAxes(QCustomPlot* plot) {
  stylePlot(plot, palette());
  plot->xAxis->setLabel(tr("bins from (each up to the next)"));
  for (QCPItemText* note : {gapNote_, queueNote_}) {
    if (note && note->parentPlot() == plot) note->setColor(palette().color(QPalette::WindowText));
  }
}

void ChartsPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  for (QCustomPlot* plot : {gapPlot_, queuePlot_}) {
    fitBinLabels(plot);
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

void ChartsPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    styleAxes(gapPlot_);
    styleAxes(queuePlot_);
    gapPlot_->replot();
    queuePlot_->replot();
  }
}

QCPItemText* ChartsPanel::addNote(QCustomPlot* plot) {
  auto* note = new QCPItemText(plot);
  note->position->setType(QCPItemPosition::ptAxisRectRatio);
  note->position->setCoords(0.5, 0.5);
  note->setPositionAlignment(Qt::AlignCenter);
  note->setColor(plot->palette().color(QPalette::WindowText));
  note->setClipToAxisRect(false);
  return note;
}

QString ChartsPanel::gapNote() const { return gapNote_->text(); }
QString ChartsPanel::queueNote() const { return queueNote_->text(); }

void ChartsPanel::rebuild() {
  rebuildGaps();
  rebuildQueue();
}

void ChartsPanel::rebuildGaps() {
  listedDeviceGaps_.clear();
  gapHist_ = {};
  if (session_->hasTrace()) {
    const auto& gaps = session_->gaps().gaps;
    for (std::uint32_t i = 0; i < gaps.size(); ++i)
      if (gaps[i].stream < 0 && gaps[i].dur >= session_->minGapNs()) listedDeviceGaps_.push_back(i);
    gapHist_ = analysis::deviceGapHistogram(session_->gaps(), session_->minGapNs());
  }
  const bool idle = gapMeasure_ == GapMeasure::IdleTime;
  TimeNs largest = 0;
  std::uint64_t gaps = 0;
  for (std::size_t b = 0; b < gapHist_.bins.bins(); ++b) {
    largest = std::max(largest, gapHist_.idleIn(b));
    gaps += gapHist_.gapsIn(b);
  }
  const IdleUnit unit = idleUnitFor(largest);
  idleUnit_ = QString::fromUtf8(unit.name);
  double top = 1;
  for (std::size_t c = 0; c < gapBars_.size(); ++c) {
    QVector<double> keys, values;
    for (std::size_t b = 0; b < gapHist_.bins.bins(); ++b) {
      keys << static_cast<double>(b);
      values << (idle ? static_cast<double>(gapHist_.idleNs[b][c]) / unit.ns : static_cast<double>(gapHist_.count[b][c]));
    }
    gapBars_[c]->setData(keys, values, true);
  }
  for (std::size_t b = 0; b < gapHist_.bins.bins(); ++b)
    top = std::max(top, idle ? static_cast<double>(gapHist_.idleIn(b)) / unit.ns : static_cast<double>(gapHist_.gapsIn(b)));
  gapPlot_->yAxis->setLabel(idle ? tr("idle time (%1)").arg(idleUnit_) : tr("device gaps"));
  gapNote_->setText(!session_->hasTrace() || gaps > 0
                        ? QString()
                        : tr("No device gaps of %1 or more: the GPU never waited that long between its ops")
                              .arg(durationText(session_->minGapNs())));
  gapPlot_->xAxis->setTicker(binTicker(gapHist_.bins));
  gapPlot_->xAxis->setRange(-0.6, std::max<double>(1, static_cast<double>(gapHist_.bins.bins())) - 0.4);
  gapPlot_->yAxis->setRange(0, top * 1.1);
  fitBinLabels(gapPlot_);
  gapPlot_->replot();
}

void ChartsPanel::rebuildQueue() {
  std::vector<TimeNs> queue;
  if (session_->hasTrace()) {
    for (const auto& l : session_->gaps().launches) queue.push_back(l.queueNs);
  }
  queueHist_ = timeline::makeDurationHistogram(queue);
  QVector<double> keys, values;
  double top = 1;
  for (std::size_t b = 0; b < queueHist_.bins(); ++b) {
    keys << static_cast<double>(b);
    values << static_cast<double>(queueHist_.count[b]);
    top = std::max(top, static_cast<double>(queueHist_.count[b]));
  }
  queueBars_->setData(keys, values, true);
  queueNote_->setText(!session_->hasTrace() || !queue.empty() ? QString()
                                                               : tr("No launch call reached the GPU in this trace"));
  queuePlot_->xAxis->setTicker(binTicker(queueHist_));
  queuePlot_->xAxis->setRange(-0.6, std::max<double>(1, static_cast<double>(queueHist_.bins())) - 0.4);
  queuePlot_->yAxis->setRange(0, top * 1.1);
  fitBinLabels(queuePlot_);
  queuePlot_->replot();
}

void ChartsPanel::activateGapBin(std::size_t bin, analysis::GapCause cause) {
  if (bin >= gapHist_.bins.bins() || !session_->hasTrace()) return;
  emit gapRangePicked(gapHist_.bins.lo[bin], gapHist_.bins.hi[bin]);
  std::uint32_t longest = kNoIndex;
  const auto& gaps = session_->gaps().gaps;
  for (std::uint32_t i : listedDeviceGaps_) {
    if (gaps[i].cause != cause || gapHist_.bins.binOf(gaps[i].dur) != bin) continue;
    if (longest == kNoIndex || gaps[i].dur > gaps[longest].dur) longest = i;
  }
  if (longest != kNoIndex) session_->focusGap(longest);
}

void ChartsPanel::activateQueueBin(std::size_t bin) {
  if (bin >= queueHist_.bins() || !session_->hasTrace()) return;
  std::vector<std::uint32_t> calls;
  for (const auto& l : session_->gaps().launches) {
    if (queueHist_.binOf(l.queueNs) == bin) calls.push_back(l.call);
  }
  const auto& slices = session_->trace().slices;
  std::sort(calls.begin(), calls.end(), [&](std::uint32_t a, std::uint32_t b) { return slices[a].start < slices[b].start; });
  session_->focusOccurrences(std::move(calls), tr("launches queued %1").arg(binLabel(queueHist_, bin)));
}

}  // namespace gapscope::app
