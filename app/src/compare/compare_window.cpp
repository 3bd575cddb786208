#include "compare/compare_window.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <stdexcept>

#include "compare/compare_panel.h"
#include "compare/scale_link.h"
#include "dock_room.h"
#include "gapscope/compare/compare.h"
#include "gapscope/format/duration.h"
#include "models/table_format.h"
#include "timeline/timeline_view.h"
#include "timeline/utilisation_strip.h"
#include "timeline/timeline_widget.h"
#include "trace_loader.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

const char* sideName(CompareWindow::Side side) { return side == CompareWindow::A ? "A" : "B"; }


// Where a run's GPU work begins: the alignment point without steps.
TimeNs firstGpuStart(const LoadedTrace& loaded) {
  TimeNs first = loaded.layout->contentStart();
  bool any = false;
  for (const auto& d : loaded.analysis->busy().devices) {
    first = any ? std::min(first, d.firstStart) : d.firstStart;
    any = true;
  }
  return first;
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("compareWindow"));
  setAttribute(Qt::WA_DeleteOnClose, false);
  setWindowTitle(tr("Compare — gapscope"));

  auto* central = new QWidget(this);
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);

  auto* bar = new QWidget(central);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(6, 3, 6, 3);
  verdict_ = new QLabel(bar);
  verdict_->setObjectName(QStringLiteral("compareVerdict"));
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont strong = verdict_->font();
  strong.setBold(true);
  verdict_->setFont(strong);
  row->addWidget(verdict_, 1);
  row->addWidget(new QLabel(tr("Align at"), bar));
  stepChoice_ = new QComboBox(bar);
  stepChoice_->setObjectName(QStringLiteral("alignStep"));
  stepChoice_->setToolTip(tr("The k-th step of A is drawn over the k-th step of B; both time axes count from "
                              "its start (from the first GPU work at \"start of GPU work\")"));
  connect(stepChoice_, &QComboBox::activated, this, [this](int item) { alignAtStep(item - 1); });
  row->addWidget(stepChoice_);
  column->addWidget(bar);
  warnings_ = new QLabel(central);
  warnings_->setObjectName(QStringLiteral("compareWarnings"));
  warnings_->setWordWrap(true);
  warnings_->setContentsMargins(6, 0, 6, 3);
  warnings_->hide();
  column->addWidget(warnings_);

  auto* split = new QSplitter(Qt::Vertical, central);
  split->setObjectName(QStringLiteral("compareSplit"));
  split->setChildrenCollapsible(false);
  for (Side side : {A, B}) {
    sessions_[side] = new TraceSession(this);
    split->addWidget(buildRunPane(side));
    loaders_[side] = new TraceLoader(this);
    connect(loaders_[side], &TraceLoader::finished, this,
            [this, side](const LoadOutcome& outcome) { onLoaded(side, outcome); });
  }
  column->addWidget(split, 1);
  setCentralWidget(central);
  link_ = new ScaleLink(views_[A]->timeline(), views_[B]->timeline(), this);

  panel_ = new ComparePanel({sessions_[A], sessions_[B]}, this);
  connect(panel_, &ComparePanel::stepPicked, this, &CompareWindow::alignAtStepNumbered);
  auto* dock = new QDockWidget(tr("Compare"), this);
  dock->setObjectName(QStringLiteral("compareDock"));
  dock->setWidget(panel_);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::BottomDockWidgetArea, dock);
  resizeDocks({dock}, {260}, Qt::Vertical);
  // Two timelines share the rest: the dock takes at most a quarter of the
  // height, less where the timelines' least heights need it (1024x700).
  new DockRoom(this, 0.25, 0.3);
  connect(&comparing_, &QFutureWatcherBase::finished, this, [this] { showComparison(comparing_.result()); });
  connect(&readingRecordings_, &QFutureWatcherBase::finished, this, &CompareWindow::onRecordingsRead);
  buildMenus();
  resize(1400, 900);
}

// A worker may still compare when the window closes: wait for it.
CompareWindow::~CompareWindow() {
  stopReading_->store(true);
  readingRecordings_.waitForFinished();
  comparing_.waitForFinished();
}

void CompareWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  exportAction_ = file->addAction(tr("&Export Comparison…"), this, &CompareWindow::chooseExportPath);
  exportAction_->setObjectName(QStringLiteral("exportComparisonAction"));
  exportAction_->setShortcut(QKeySequence(tr("Ctrl+E")));
  exportAction_->setToolTip(tr("Write the comparison (HTML, Markdown, JSON or CSV)"));
  exportAction_->setEnabled(false);
  file->addSeparator();
  for (Side side : {A, B}) {
    QAction* add = file->addAction(tr("Add Recordings of %1…").arg(QLatin1String(sideName(side))), this,
                                   [this, side] { chooseRecordings(side); });
    add->setObjectName(QStringLiteral("addRecordings%1Action").arg(QLatin1String(sideName(side))));
    add->setToolTip(tr("Further recordings of run %1 of the same program: the change is then told against "
                       "the recordings' own spread")
                        .arg(QLatin1String(sideName(side))));
  }
  file->addSeparator();
  file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

QWidget* CompareWindow::buildRunPane(Side side) {
  auto* pane = new QWidget(this);
  auto* column = new QVBoxLayout(pane);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  titles_[side] = new QLabel(pane);
  titles_[side]->setObjectName(QStringLiteral("runTitle%1").arg(QLatin1String(sideName(side))));
  titles_[side]->setContentsMargins(6, 4, 6, 2);
  QFont bold = titles_[side]->font();
  bold.setBold(true);
  titles_[side]->setFont(bold);
  column->addWidget(titles_[side]);
  views_[side] = new TimelineView(sessions_[side], pane, TimelineView::VerdictLines::One);
  views_[side]->setObjectName(QStringLiteral("timelineView%1").arg(QLatin1String(sideName(side))));
  // Two runs and the Compare dock share one window: a lower strip and a
  // smaller least height than a single timeline's keep all three in view
  // on a 1024x700 screen.
  views_[side]->utilisation()->setFixedHeight(56);
  views_[side]->timeline()->setMinimumHeight(90);
  column->addWidget(views_[side], 1);
  return pane;
}

void CompareWindow::openPair(const QString& pathA, const QString& pathB) {
  recordings_ = {};
  load(A, pathA);
  load(B, pathB);
}

void CompareWindow::compareWith(const LoadedTrace& a, const QString& pathB) {
  recordings_ = {};
  showRun(A, a);
  load(B, pathB);
}

void CompareWindow::load(Side side, const QString& path) {
  pending_[side] = true;
  titles_[side]->setText(tr("%1: reading %2…").arg(QLatin1String(sideName(side)), QFileInfo(path).fileName()));
  loaders_[side]->load(path);
}

void CompareWindow::onLoaded(Side side, const LoadOutcome& outcome) {
  pending_[side] = false;
  if (outcome.loaded.valid()) {
    showRun(side, outcome.loaded);
  } else if (dropUnreadRecording(side, outcome.path)) {
    // A typical recording that could not be read again: the next one is.
    statusBar()->showMessage(tr("Recording %1 of run %2 could not be read again and is left out: %3")
                                 .arg(outcome.path, QLatin1String(sideName(side)), outcome.error));
    showTypicalRecordings();
    return;
  } else {
    lastError_ = tr("Run %1 could not be opened: %2")
                     .arg(QLatin1String(sideName(side)), outcome.cancelled ? tr("cancelled") : outcome.error);
    titles_[side]->setText(lastError_);
    statusBar()->showMessage(lastError_);
  }
  if (!pending_[A] && !pending_[B]) onBothIn();
}

void CompareWindow::showRun(Side side, const LoadedTrace& loaded) {
  sessions_[side]->setTrace(loaded);
  titles_[side]->setText(runTitle(side, loaded));
  QString tip = loaded.path;
  for (const compare::Recording& r : recordings_[side])
    tip += QStringLiteral("\n%1 %2: median step %3")
               .arg(r.typical ? QStringLiteral("▸") : QStringLiteral("  "), utf8(r.file),
                    utf8(format::formatDuration(r.stepTimeMedian, format::DurationStyle::Verdict)));
  titles_[side]->setToolTip(tip);
}

bool CompareWindow::dropUnreadRecording(Side side, const QString& path) {
  auto& side_ = recordings_[side];
  const auto it = std::find_if(side_.begin(), side_.end(), [&](const compare::Recording& r) { return utf8(r.file) == path; });
  if (it == side_.end() || !sessions_[side]->hasTrace()) return false;
  side_.erase(it);
  return true;
}

// The paths not yet among either side's recordings (nor the shown runs):
// one file twice would count one recording as two.
QStringList CompareWindow::newRecordings(const QStringList& paths) {
  QStringList known;
  for (Side side : {A, B}) {
    known << QFileInfo(sessions_[side]->loaded().path).canonicalFilePath();
    for (const compare::Recording& r : recordings_[side]) known << QFileInfo(utf8(r.file)).canonicalFilePath();
  }
  QStringList fresh;
  for (const QString& path : paths) {
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (!canonical.isEmpty() && known.contains(canonical)) continue;
    fresh << path;
    if (!canonical.isEmpty()) known << canonical;
  }
  if (fresh.size() < paths.size())
    statusBar()->showMessage(paths.size() - fresh.size() == 1
                                 ? tr("A file already among the recordings left out: each recording counts once")
                                 : tr("%1 files already among the recordings left out: each recording counts once")
                                       .arg(paths.size() - fresh.size()));
  return fresh;
}

QString CompareWindow::runTitle(Side side, const LoadedTrace& loaded) const {
  const QString title = tr("%1: %2").arg(QLatin1String(sideName(side)), loaded.displayName);
  const std::size_t n = compare::timedCount(recordings_[side]);
  return n > 1 ? tr("%1 — the middle of %2 recordings").arg(title).arg(n) : title;
}

void CompareWindow::chooseRecordings(Side side) {
  QSettings s;
  const QString dir = s.value(QStringLiteral("lastDir"), QDir::homePath()).toString();
  const QStringList paths = QFileDialog::getOpenFileNames(
      this, tr("Add Recordings of %1").arg(QLatin1String(sideName(side))), dir,
      tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
  if (paths.isEmpty()) return;
  s.setValue(QStringLiteral("lastDir"), QFileInfo(paths.front()).absolutePath());
  addRecordings(side, paths);
}

void CompareWindow::addRecordings(Side side, const QStringList& added) {
  if (added.isEmpty()) return;
  if (pending_[A] || pending_[B]) {
    statusBar()->showMessage(tr("Still reading run %1").arg(QLatin1String(sideName(pending_[A] ? A : B))));
    return;
  }
  if (!sessions_[A]->hasTrace() || !sessions_[B]->hasTrace()) {
    statusBar()->showMessage(tr("Open both runs before adding recordings"));
    return;
  }
  if (readingRecordings_.isRunning()) {
    statusBar()->showMessage(tr("Still reading the recordings added before"));
    return;
  }
  const QStringList paths = newRecordings(added);
  if (paths.isEmpty()) return;
  readingSide_ = side;
  verdict_->setText((paths.size() == 1 ? tr("Reading a recording of %1…") : tr("Reading %2 recordings of %1…").arg(paths.size()))
                        .arg(QLatin1String(sideName(side))));
  const std::array<std::shared_ptr<const analysis::TraceAnalysis>, 2> shown{sessions_[A]->loaded().analysis,
                                                                             sessions_[B]->loaded().analysis};
  const std::array<QString, 2> shownPaths{sessions_[A]->loaded().path, sessions_[B]->loaded().path};
  const bool seed = recordings_[A].empty();  // the shown runs become the first recordings
  readingRecordings_.setFuture(QtConcurrent::run([paths, shown, shownPaths, side, seed, stop = stopReading_] {
    ReadOutcome out;
    out.read = readRecordings(paths, shown[side]->options(), *stop);
    for (std::size_t i = 0; i < 2 && seed; ++i) {
      out.shown[i] = compare::recordingOf(compare::runFigures(*shown[i]));
      // Named as the window names it: a trace recorded in the app has no file.
      out.shown[i].file = shownPaths[i].toStdString();
    }
    return out;
  }));
}

void CompareWindow::onRecordingsRead() {
  ReadOutcome out = readingRecordings_.result();
  if (recordings_[A].empty())
    for (Side side : {A, B}) recordings_[side].push_back(out.shown[side]);
  for (compare::Recording& r : out.read.recordings) recordings_[readingSide_].push_back(std::move(r));
  if (!out.read.errors.isEmpty()) {
    lastError_ = tr("Not read as recordings of %1: %2")
                     .arg(QLatin1String(sideName(readingSide_)), out.read.errors.join(QStringLiteral("; ")));
    statusBar()->showMessage(lastError_);
  }
  emit recordingsRead();
  showTypicalRecordings();
}

// Each side's typical recording is the one shown and compared in full:
// read where another one is shown (the comparison follows both), else
// compared at once.
void CompareWindow::showTypicalRecordings() {
  bool reading = false;
  for (Side side : {A, B}) {
    const std::size_t typical = compare::typicalRecording(recordings_[side]);
    for (std::size_t i = 0; i < recordings_[side].size(); ++i) recordings_[side][i].typical = i == typical;
    const QString path = utf8(recordings_[side][typical].file);
    if (path != sessions_[side]->loaded().path) {
      load(side, path);
      reading = true;
    } else {
      showRun(side, sessions_[side]->loaded());
    }
  }
  if (!reading) startComparison();
}

void CompareWindow::onBothIn() {
  fillStepChoice();
  if (sessions_[A]->hasTrace() && sessions_[B]->hasTrace()) {
    setWindowTitle(tr("%1 vs %2 — gapscope").arg(sessions_[A]->loaded().displayName,
                                                  sessions_[B]->loaded().displayName));
    // At the first step, or the second where either run's first is a warm-up
    // (start-up, compilation: seconds beside milliseconds).
    const bool warmUp = !steps(A).empty() && !steps(B).empty() && (steps(A)[0].warmUp || steps(B)[0].warmUp);
    alignAtStep(steps(A).empty() || steps(B).empty() ? -1 : warmUp ? 1 : 0);
    startComparison();
  }
  emit pairReady();
}

void CompareWindow::startComparison() {
  verdict_->setText(tr("Comparing…"));
  const auto a = sessions_[A]->loaded().analysis;
  const auto b = sessions_[B]->loaded().analysis;
  comparing_.setFuture(QtConcurrent::run([a, b, recordings = recordings_] {
    if (recordings[A].empty())
      return std::make_shared<const report::ComparisonReport>(report::buildComparisonReport(compare::compareTraces(*a, *b)));
    try {
      return std::make_shared<const report::ComparisonReport>(
          report::buildComparisonReport(compare::compareRecordings(*a, *b, recordings)));
    } catch (const std::invalid_argument& e) {
      // A typical recording could not be read again: the shown pair alone.
      compare::Comparison c = compare::compareTraces(*a, *b);
      c.warnings.push_back(std::string("one recording a side compared: ") + e.what());
      return std::make_shared<const report::ComparisonReport>(report::buildComparisonReport(std::move(c)));
    }
  }));
}

void CompareWindow::showComparison(std::shared_ptr<const report::ComparisonReport> comparison) {
  comparison_ = std::move(comparison);
  const compare::Comparison& c = comparison_->comparison;
  verdict_->setText(utf8(c.verdict));
  QStringList warnings;
  for (const auto& w : c.warnings) warnings << tr("Warning: %1").arg(utf8(w));
  warnings_->setText(warnings.join(QLatin1Char('\n')));
  warnings_->setVisible(!warnings.isEmpty());
  panel_->setReport(*comparison_);
  exportAction_->setEnabled(true);
  emit comparisonReady();
}

QString CompareWindow::verdictText() const { return comparison_ ? utf8(comparison_->comparison.verdict) : QString(); }

QString CompareWindow::exportComparison(const QString& path, report::ReportFormat format) {
  if (!comparison_) return tr("nothing to export yet: the comparison is not ready");
  return utf8(report::writeComparisonReport(*comparison_, format, path.toStdString()));
}

void CompareWindow::chooseExportPath() {
  if (!comparison_) return;
  QSettings s;
  const QString dir = s.value(QStringLiteral("lastDir"), QDir::homePath()).toString();
  const QString html = tr("HTML (*.html)"), md = tr("Markdown (*.md)"), json = tr("JSON (*.json)"),
                csv = tr("CSV folder (*)");
  QString filter = html;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Comparison"), dir + QStringLiteral("/comparison.html"),
                                                    QStringList{html, md, json, csv}.join(QStringLiteral(";;")), &filter);
  if (path.isEmpty()) return;
  const auto format = filter == md     ? report::ReportFormat::Markdown
                      : filter == json ? report::ReportFormat::Json
                      : filter == csv  ? report::ReportFormat::Csv
                                       : report::ReportFormat::Html;
  const QString error = exportComparison(path, format);
  statusBar()->showMessage(error.isEmpty() ? tr("Wrote %1").arg(path) : error);
}

void CompareWindow::fillStepChoice() {
  stepChoice_->clear();
  stepChoice_->addItem(tr("start of GPU work"));
  const std::size_t common = std::min(steps(A).size(), steps(B).size());
  // Named by the steps' own numbers, as the strips and the Steps dock name
  // them (a profiler schedule's first step is often ProfilerStep#2).
  for (std::size_t i = 0; i < common; ++i) {
    const std::int64_t a = steps(A)[i].number;
    const std::int64_t b = steps(B)[i].number;
    stepChoice_->addItem(a == b ? tr("step %1").arg(a) : tr("step %1 of A, %2 of B").arg(a).arg(b));
  }
  stepChoice_->setEnabled(sessions_[A]->hasTrace() && sessions_[B]->hasTrace());
}

// A run's steps (their CPU ranges, in order); none while it has no trace.
const std::vector<analysis::StepStats>& CompareWindow::steps(Side side) const {
  static const std::vector<analysis::StepStats> none;
  return sessions_[side]->hasTrace() ? sessions_[side]->gaps().steps : none;
}

int CompareWindow::alignedStep() const { return stepChoice_->currentIndex() - 1; }

bool CompareWindow::alignAtStepNumbered(int side, qint64 number) {
  if (!sessions_[A]->hasTrace() || !sessions_[B]->hasTrace()) return false;
  const std::vector<analysis::StepStats>& own = steps(side == A ? A : B);
  const std::size_t common = std::min(steps(A).size(), steps(B).size());
  for (std::size_t i = 0; i < common && i < own.size(); ++i) {
    if (own[i].number != number) continue;
    alignAtStep(static_cast<int>(i));
    return true;
  }
  statusBar()->showMessage(tr("Step %1 of %2 has no step of the other run to align with").arg(number).arg(side == A ? "A" : "B"),
                           5000);
  return false;
}

void CompareWindow::alignAtStep(int index) {
  if (!sessions_[A]->hasTrace() || !sessions_[B]->hasTrace()) return;
  const std::size_t common = std::min(steps(A).size(), steps(B).size());
  if (index >= static_cast<int>(common)) index = -1;
  stepChoice_->setCurrentIndex(index + 1);
  const LoadedTrace& a = sessions_[A]->loaded();
  const LoadedTrace& b = sessions_[B]->loaded();
  const auto i = static_cast<std::size_t>(index);
  const TimeNs offset =
      index < 0 ? firstGpuStart(b) - firstGpuStart(a) : steps(B)[i].cpuStart - steps(A)[i].cpuStart;
  link_->setOffset(offset);
  // Both axes count from the instant the runs are aligned at: the same time
  // into the step reads the same on both (and in the same unit).
  views_[A]->timeline()->setAxisOrigin(index < 0 ? firstGpuStart(a) : steps(A)[i].cpuStart);
  views_[B]->timeline()->setAxisOrigin(index < 0 ? firstGpuStart(b) : steps(B)[i].cpuStart);
  link_->setContents(a.layout->contentStart(), a.layout->contentEnd(), b.layout->contentStart(),
                     b.layout->contentEnd());
  TimelineWidget* timeline = views_[A]->timeline();
  if (index < 0) {
    timeline->fitAll();
  } else {
    // The longer of the two steps fits: both are seen whole.
    const TimeNs longer = std::max(steps(A)[i].cpuNs(), steps(B)[i].cpuNs());
    timeline->fitRange(steps(A)[i].cpuStart, steps(A)[i].cpuStart + longer);
  }
}

}  // namespace gapscope::app
