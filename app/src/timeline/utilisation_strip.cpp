#include "timeline/utilisation_strip.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <limits>

#include "app_setup.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_widget.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

// One bin per this many pixels: fine enough to see launch gaps, coarse
// enough that a bin holds several kernels when zoomed out.
constexpr int kPixelsPerBin = 3;
// More steps than this in view and their marks would be a grey wash.
constexpr std::size_t kMaxMarkedSteps = 60;
// A step's label starts this many pixels right of its mark, and the next
// label at least this many pixels after its text.
constexpr double kLabelOffset = 3;
constexpr double kLabelSpacing = 6;

const QColor kDeviceColours[] = {QColor(0x1E, 0x88, 0xE5), QColor(0x43, 0xA0, 0x47), QColor(0x8E, 0x24, 0xAA),
                                 QColor(0xF4, 0x51, 0x1E)};

}  // namespace

UtilisationStrip::UtilisationStrip(TraceSession* session, TimelineWidget* timeline, QWidget* parent)
    : QWidget(parent), session_(session), timeline_(timeline), plot_(new QCustomPlot(this)) {
  setObjectName(QStringLiteral("utilisationStrip"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  setFixedHeight(64);
  plot_->setObjectName(QStringLiteral("utilisationPlot"));
  plot_->setNoAntialiasingOnDrag(true);
  plot_->xAxis->setVisible(false);
  plot_->yAxis->setRange(0, 1.05);
  plot_->yAxis->setTickLabels(false);
  plot_->yAxis->setTicks(false);
  plot_->yAxis->setLabel(tr("GPU busy"));
  // The plot area starts where the timeline's time area starts.
  plot_->axisRect()->setAutoMargins(QCP::msNone);
  plot_->axisRect()->setMargins(QMargins(static_cast<int>(timeline_->chrome().namesWidth), 2, 0, 2));
  connect(session_, &TraceSession::traceChanged, this, &UtilisationStrip::onTraceChanged);
  connect(timeline_, &TimelineWidget::scaleChanged, this, &UtilisationStrip::replot);
  plot_->installEventFilter(this);
  plot_->setToolTip(tr("GPU busy over the time in view; click a step to zoom to it and select its range"));
  onTraceChanged();
}

void UtilisationStrip::onTraceChanged() {
  analysis_ = session_->hasTrace() ? session_->loaded().analysis : nullptr;
  const auto& gpus = devices();
  plot_->clearGraphs();
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    QCPGraph* g = plot_->addGraph();
    const QColor c = kDeviceColours[i % std::size(kDeviceColours)];
    g->setPen(QPen(c, 1));
    QColor fill = c;
    fill.setAlpha(gpus.size() == 1 ? 90 : 40);
    g->setBrush(fill);
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setName(tr("GPU %1").arg(gpus[i].device));
  }
  setVisible(!gpus.empty());
  applyColours();
  replot();
}

// The strip follows the theme: a dark palette gets the dark axis colours
// (the plot keeps its own colours otherwise, white in a dark window).
void UtilisationStrip::applyColours() {
  const QColor text = palette().color(QPalette::WindowText);
  plot_->setBackground(TimelinePalette::forDark(paletteIsDark()).axisBackground);
  plot_->yAxis->setLabelColor(text);
  plot_->yAxis->setBasePen(QPen(text));
}

void UtilisationStrip::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
    applyColours();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

const std::vector<analysis::DeviceBusy>& UtilisationStrip::devices() const {
  static const std::vector<analysis::DeviceBusy> none;
  return analysis_ ? analysis_->busy().devices : none;
}

std::vector<double> UtilisationStrip::values(int device) const {
  const auto& gpus = devices();
  if (device < 0 || static_cast<std::size_t>(device) >= gpus.size()) return {};
  const auto& s = timeline_->scale();
  return analysis::utilisationBins(gpus[static_cast<std::size_t>(device)].intervals, s.start(), s.end(), bins_);
}

void UtilisationStrip::replot() {
  const auto& gpus = devices();
  if (gpus.empty()) return;
  const auto& s = timeline_->scale();
  bins_ = std::max(1, static_cast<int>(s.width()) / kPixelsPerBin);
  // x in pixels of the time area: the timeline's own coordinates.
  applyColours();
  plot_->xAxis->setRange(0, s.width());
  QVector<double> x(bins_ + 1);
  for (int i = 0; i <= bins_; ++i) x[i] = s.width() * i / bins_;
  for (std::size_t d = 0; d < gpus.size(); ++d) {
    const auto v = analysis::utilisationBins(gpus[d].intervals, s.start(), s.end(), bins_);
    QVector<double> y(bins_ + 1);
    for (int i = 0; i < bins_; ++i) y[i] = v[static_cast<std::size_t>(i)];
    y[bins_] = bins_ > 0 ? y[bins_ - 1] : 0;
    plot_->graph(static_cast<int>(d))->setData(x, y, true);
  }
  markSteps();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void UtilisationStrip::markSteps() {
  plot_->clearItems();
  marked_.clear();
  labelled_.clear();
  if (!session_->hasTrace()) return;
  const auto& steps = session_->gaps().steps;
  const auto& s = timeline_->scale();
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].cpuEnd > s.start() && steps[i].cpuStart < s.end()) marked_.push_back(i);
  if (marked_.size() > kMaxMarkedSteps) {
    marked_.clear();
    return;
  }
  const QColor ink = palette().color(QPalette::WindowText);
  // Every step gets its mark; a label only where it clears the last one,
  // so that short steps between long ones do not print over each other.
  const QFontMetricsF metrics(plot_->font());
  double labelsEnd = -std::numeric_limits<double>::infinity();
  for (std::size_t i : marked_) {
    const double x = s.toPixel(steps[i].cpuStart);
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(QPen(ink, 1, Qt::DashLine));
    const QString text = tr("step %1").arg(steps[i].number);
    if (x + kLabelOffset < labelsEnd) continue;
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(x + kLabelOffset, 1.02);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(text);
    label->setColor(ink);
    labelled_.push_back(i);
    labelsEnd = x + kLabelOffset + metrics.horizontalAdvance(text) + kLabelSpacing;
  }
}

void UtilisationStrip::pickStepAt(double x) {
  if (!session_->hasTrace()) return;
  const TimeNs t = timeline_->scale().toTime(x - timeline_->chrome().namesWidth);
  for (const analysis::StepStats& step : session_->gaps().steps) {
    if (t < step.cpuStart || t >= step.cpuEnd) continue;
    session_->selectStep(step);
    return;
  }
}

bool UtilisationStrip::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::MouseButtonRelease) {
    pickStepAt(static_cast<QMouseEvent*>(event)->position().x());
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace gapscope::app
