#include "ranks/ranks_compare_window.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QHBoxLayout>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "models/rank_compare_model.h"
#include "models/table_format.h"
#include "panels/table_panel.h"
#include "ranks/load_progress.h"
#include "ranks/rank_set_loader.h"
#include "ranks/ranks_window.h"
#include "panels/step_times_chart.h"

namespace gapscope::app {

namespace {

using ranks::SetFigures;

// "runs/before — 8 ranks, 15 steps compared; a step: ProfilerStep#N"
QString runLine(const QString& side, const QString& name, const SetFigures& f) {
  return QObject::tr("%1: %2 — %3 ranks, %4 steps compared; a step: %5")
      .arg(side, name)
      .arg(f.ranks)
      .arg(f.steps)
      .arg(QString::fromStdString(f.stepMark));
}

QString stragglerText(const std::vector<std::int64_t>& ranks) {
  if (ranks.empty()) return QObject::tr("none");
  QStringList list;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) list << QString::number(ranks[i]);
  if (ranks.size() > 8) list << QStringLiteral("…");
  return list.join(QStringLiteral(", "));
}

// The job's step time in each step after the warm-up (the median rank's,
// StepRow::stepTimeMedianNs), straggling steps ringed.
std::array<StepSeries, 2> ranksStepSeries(const ranks::RankSetComparison& comparison) {
  std::array<StepSeries, 2> runs;
  for (std::size_t run = 0; run < 2; ++run) {
    StepSeries& series = runs[run];
    for (const auto& change : comparison.steps) {
      const auto& row = run == 0 ? change.a : change.b;
      if (!row || row->warmUp) continue;
      const double ms = static_cast<double>(row->stepTimeMedianNs) / 1e6;
      series.steps << static_cast<double>(change.step);
      series.ms << ms;
      if (!row->straggling) continue;
      series.ringSteps << static_cast<double>(change.step);
      series.ringMs << ms;
    }
  }
  return runs;
}

QLabel* wrappedLabel(const QString& name, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setContentsMargins(8, 2, 8, 2);
  return label;
}

}  // namespace

RanksCompareWindow::RanksCompareWindow(QWidget* parent) : QMainWindow(parent), loader_(new RankSetLoader(this)) {
  setObjectName(QStringLiteral("ranksCompareWindow"));
  setWindowTitle(tr("Runs compared — gapscope"));
  auto* central = new QWidget(this);
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 4, 0, 0);
  column->setSpacing(2);
  runsLabel_ = wrappedLabel(QStringLiteral("ranksCompareRuns"), central);
  column->addWidget(runsLabel_);
  verdict_ = wrappedLabel(QStringLiteral("ranksCompareVerdict"), central);
  QFont strong = verdict_->font();
  strong.setBold(true);
  verdict_->setFont(strong);
  verdict_->setText(tr("Reading run B…"));
  column->addWidget(verdict_);
  notes_ = wrappedLabel(QStringLiteral("ranksCompareNotes"), central);
  notes_->hide();
  column->addWidget(notes_);

  // The job's few figures on the left, as wide as they need; the ranks and
  // steps take the rest.
  auto* body = new QHBoxLayout;
  body->setContentsMargins(4, 4, 4, 0);
  auto* left = new QVBoxLayout;
  left->addWidget(buildJobTable());
  left->addStretch(1);
  body->addLayout(left);
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("ranksCompareTabs"));
  rankModel_ = new RankCompareModel(RankCompareModel::Rows::Ranks, this);
  rankTable_ = new TablePanel(rankModel_, QStringLiteral("rankCompareTable"), RankCompareModel::Rank, tabs_);
  rankTable_->filter()->setPlaceholderText(tr("Filter by rank…"));
  stepModel_ = new RankCompareModel(RankCompareModel::Rows::Steps, this);
  stepTable_ = new TablePanel(stepModel_, QStringLiteral("stepCompareTable"), RankCompareModel::Step, tabs_);
  stepTable_->filter()->setPlaceholderText(tr("Filter by step…"));
  tabs_->addTab(rankTable_, tr("Ranks"));
  tabs_->addTab(stepTable_, tr("Steps"));
  tabs_->setTabToolTip(0, tr("Each rank in both runs; double-click: its timelines in A and B, one above the other"));
  tabs_->setTabToolTip(1, tr("Each step in both runs; double-click: the timelines of the rank slowest in it, in A "
                             "and B, aligned at the step"));
  chart_ = new StepTimesChart(tr("straggling"), StepTimesChart::Frame::Full, central);
  chart_->setToolTip(tr("The median rank's step time in each step after the warm-up; rings: straggling steps; click "
                        "a step for the timelines of the rank slowest in it, in A and B"));
  connect(chart_, &StepTimesChart::stepClicked, this, &RanksCompareWindow::compareStep);
  split_ = new QSplitter(Qt::Vertical, central);
  split_->setObjectName(QStringLiteral("ranksCompareSplit"));
  split_->setChildrenCollapsible(false);
  split_->addWidget(chart_);
  split_->addWidget(tabs_);
  split_->setStretchFactor(0, 2);
  split_->setStretchFactor(1, 3);
  body->addWidget(split_, 1);
  column->addLayout(body, 1);
  setCentralWidget(central);
  connect(rankTable_, &TablePanel::rowActivated, this, &RanksCompareWindow::compareRankRow);
  connect(stepTable_, &TablePanel::rowActivated, this, &RanksCompareWindow::compareStepRow);

  const LoadProgress load = addLoadProgress(statusBar(), QStringLiteral("ranksCompare"));
  progress_ = load.bar;
  cancel_ = load.cancel;
  connect(cancel_, &QPushButton::clicked, this, &RanksCompareWindow::cancel);
  connect(loader_, &RankSetLoader::progress, this, [this](qulonglong done, qulonglong total) {
    if (total == 0) return;
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
    const QString run = toRead_.isEmpty() ? tr("Run B") : tr("A run of %1").arg(toRead_.front().first == 0 ? tr("A") : tr("B"));
    progress_->setFormat(tr("%1: rank %2 of %3").arg(run).arg(std::min(done + 1, total)).arg(total));
  });
  connect(loader_, &RankSetLoader::finished, this, &RanksCompareWindow::onLoaded);
  QMenu* file = menuBar()->addMenu(tr("&File"));
  for (int side : {0, 1}) {
    const QString name = side == 0 ? tr("A") : tr("B");
    QAction* folder = file->addAction(tr("Add a Run of %1: Folder of Rank Traces…").arg(name), this,
                                      [this, side] { chooseRuns(side, false); });
    folder->setObjectName(QStringLiteral("addRunFolder%1Action").arg(name));
    QAction* documents = file->addAction(tr("Add Runs of %1: Ranks Documents (JSON)…").arg(name), this,
                                         [this, side] { chooseRuns(side, true); });
    documents->setObjectName(QStringLiteral("addRunDocuments%1Action").arg(name));
    for (QAction* a : {folder, documents})
      a->setToolTip(tr("Further recordings of run %1 of the job: the change is then told against the runs' own spread")
                        .arg(name));
  }
  resize(1280, 800);
}

RanksCompareWindow::~RanksCompareWindow() = default;

QWidget* RanksCompareWindow::buildJobTable() {
  job_ = new QTableWidget(0, 3, this);
  job_->setObjectName(QStringLiteral("ranksCompareJob"));
  job_->setHorizontalHeaderLabels({tr("The job"), tr("A"), tr("B")});
  job_->verticalHeader()->hide();
  job_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  job_->setSelectionMode(QAbstractItemView::NoSelection);
  job_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  job_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  job_->setToolTip(tr("Step time: the median rank's step time, its median over the steps after the warm-up. "
                      "A rank and step: the ranks' totals over their steps after the warm-up, per step."));
  return job_;
}

bool RanksCompareWindow::open(std::shared_ptr<const LoadedRanks> a, const QString& nameA,
                              const QStringList& argumentsB) {
  if (!loader_->load(argumentsB, RunSource::TracesOrDocument)) return false;
  a_ = std::move(a);
  nameA_ = nameA;
  nameB_ = argumentsB.join(QStringLiteral(", "));
  lastError_.clear();
  setWindowTitle(tr("Runs compared: %1 and %2 — gapscope").arg(nameA_, nameB_));
  progress_->setRange(0, 0);
  progress_->show();
  cancel_->show();
  return true;
}

void RanksCompareWindow::cancel() { loader_->cancel(); }

bool RanksCompareWindow::busy() const { return loader_->busy(); }

void RanksCompareWindow::onLoaded(const RanksOutcome& outcome) {
  progress_->hide();
  cancel_->hide();
  if (!toRead_.isEmpty()) {
    const auto [side, arguments] = toRead_.takeFirst();
    const QString name = arguments.join(QStringLiteral(", "));
    if (outcome.ranks) {
      runs_[static_cast<std::size_t>(side)].push_back(outcome.ranks);
      runNames_[static_cast<std::size_t>(side)] << name;
    } else {
      lastError_ = outcome.cancelled ? tr("Cancelled") : tr("Could not read %1 as a run of %2: %3")
                                                              .arg(name, side == 0 ? tr("A") : tr("B"), outcome.error);
      if (!outcome.cancelled) runErrors_ << lastError_;
    }
    if (!toRead_.isEmpty() && !outcome.cancelled) {
      readNextRun();
      return;
    }
    toRead_.clear();
    compareRuns();
    emit loadFinished();
    return;
  }
  if (outcome.ranks) {
    showComparison(a_, outcome.ranks, nameA_, nameB_);
  } else {
    lastError_ = outcome.cancelled ? tr("Cancelled") : tr("Could not read run B: %1").arg(outcome.error);
    verdict_->setText(lastError_);
    statusBar()->showMessage(lastError_);
  }
  emit loadFinished();
}

bool RanksCompareWindow::addRuns(int side, const QList<QStringList>& runs) {
  if (runs.isEmpty() || !comparison_ || loader_->busy() || !toRead_.isEmpty()) return false;
  // A run already among either side's would count one recording as two.
  QStringList known;
  for (const QStringList& names : runNames_)
    for (const QString& name : names) known << QFileInfo(name).canonicalFilePath();
  lastError_.clear();
  int repeated = 0;
  for (const QStringList& arguments : runs) {
    const QString canonical = QFileInfo(arguments.join(QStringLiteral(", "))).canonicalFilePath();
    if (!canonical.isEmpty() && known.contains(canonical)) {
      ++repeated;
      continue;
    }
    known << canonical;
    toRead_.append({side, arguments});
  }
  if (repeated > 0)
    runErrors_ << (repeated == 1 ? tr("A run already among the recordings left out: each run counts once")
                                 : tr("%1 runs already among the recordings left out: each run counts once").arg(repeated));
  if (toRead_.isEmpty()) {
    compareRuns();  // shows why nothing was added
    return true;
  }
  const QString sideName = side == 0 ? tr("A") : tr("B");
  verdict_->setText(toRead_.size() == 1 ? tr("Reading a run of %1…").arg(sideName)
                                        : tr("Reading %1 runs of %2…").arg(toRead_.size()).arg(sideName));
  readNextRun();
  return true;
}

void RanksCompareWindow::readNextRun() {
  const auto& [side, arguments] = toRead_.front();
  if (!loader_->load(arguments, RunSource::TracesOrDocument)) return;
  progress_->setRange(0, 0);
  progress_->show();
  cancel_->show();
}

void RanksCompareWindow::chooseRuns(int side, bool documents) {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastDir"), QDir::homePath()).toString();
  const QString title = tr("Add Runs of %1").arg(side == 0 ? tr("A") : tr("B"));
  QList<QStringList> runs;
  if (documents) {
    for (const QString& path : QFileDialog::getOpenFileNames(this, title, dir, tr("Ranks documents (*.json *.json.gz);;All files (*)")))
      runs << QStringList{path};
  } else if (const QString folder = QFileDialog::getExistingDirectory(this, title, dir); !folder.isEmpty()) {
    runs << QStringList{folder};
  }
  if (runs.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(runs.front().front()).absolutePath());
  if (!addRuns(side, runs))
    statusBar()->showMessage(comparison_ ? tr("Still reading a run") : tr("Both runs must be read first"));
}

const std::array<std::vector<compare::Recording>, 2>& RanksCompareWindow::recordings() const {
  static const std::array<std::vector<compare::Recording>, 2> kNone;
  return comparison_ ? comparison_->recordings : kNone;
}

void RanksCompareWindow::showComparison(std::shared_ptr<const LoadedRanks> a, std::shared_ptr<const LoadedRanks> b,
                                        const QString& nameA, const QString& nameB) {
  runs_ = {std::vector<std::shared_ptr<const LoadedRanks>>{std::move(a)}, std::vector<std::shared_ptr<const LoadedRanks>>{std::move(b)}};
  runNames_ = {QStringList{nameA}, QStringList{nameB}};
  runErrors_.clear();
  compareRuns();
}

// Each side's typical run shown, the change told against the runs' spread
// (one run a side: the two compared as they are).
void RanksCompareWindow::compareRuns() {
  std::array<std::vector<const ranks::RanksAnalysis*>, 2> analyses;
  std::array<std::vector<std::string>, 2> names;
  for (std::size_t side = 0; side < 2; ++side) {
    for (std::size_t i = 0; i < runs_[side].size(); ++i) {
      analyses[side].push_back(&runs_[side][i]->analysis);
      names[side].push_back(runNames_[side][static_cast<int>(i)].toStdString());
    }
  }
  comparison_ = std::make_shared<const ranks::RankSetComparison>(ranks::compareRankSetRecordings(analyses, names));
  std::array<std::size_t, 2> shown{0, 0};
  for (std::size_t side = 0; side < 2; ++side)
    for (std::size_t i = 0; i < comparison_->recordings[side].size(); ++i)
      if (comparison_->recordings[side][i].typical) shown[side] = i;
  a_ = runs_[0][shown[0]];
  b_ = runs_[1][shown[1]];
  nameA_ = runNames_[0][static_cast<int>(shown[0])];
  nameB_ = runNames_[1][static_cast<int>(shown[1])];
  setWindowTitle(tr("Runs compared: %1 and %2 — gapscope").arg(nameA_, nameB_));
  const ranks::RankSetComparison& c = *comparison_;
  const auto line = [&](std::size_t side, const QString& name) {
    const QString text = runLine(side == 0 ? tr("A") : tr("B"), name, c.runs[side]);
    const std::size_t n = compare::timedCount(c.recordings[side]);
    return n > 1 ? tr("%1 — the middle of %2 recordings").arg(text).arg(n) : text;
  };
  runsLabel_->setText(line(0, nameA_) + QLatin1Char('\n') + line(1, nameB_));
  QStringList recorded;
  for (std::size_t side = 0; side < 2; ++side)
    for (const compare::Recording& r : c.recordings[side])
      recorded << tr("%1 %2 %3: step %4").arg(r.typical ? QStringLiteral("▸") : QStringLiteral("  "),
                                               side == 0 ? tr("A") : tr("B"), QString::fromStdString(r.file),
                                               durationText(r.stepTimeMedian));
  runsLabel_->setToolTip(recorded.join(QLatin1Char('\n')));
  verdict_->setText(QString::fromStdString(c.verdict));
  QStringList notes;
  for (const auto& n : c.notes) notes << tr("Note: %1").arg(QString::fromStdString(n));
  for (const auto* run : {a_.get(), b_.get()}) {
    const QString side = run == a_.get() ? tr("A") : tr("B");
    for (const auto& e : run->errors)
      notes << tr("%1: not read: %2").arg(side, QString::fromStdString(ranks::describe(e)));
    for (const auto& w : run->warnings) notes << tr("%1: %2").arg(side, QString::fromStdString(w));
  }
  notes << runErrors_;
  notes_->setText(notes.join(QLatin1Char('\n')));
  notes_->setVisible(!notes.isEmpty());
  fillJobTable();
  chart_->setSeries(ranksStepSeries(c));
  // The chart's size hint is small: two fifths of the room, the tables the rest.
  if (const int room = split_->height() - split_->handleWidth(); room > 0) split_->setSizes({room * 2 / 5, room - room * 2 / 5});
  rankModel_->setComparison(comparison_);
  stepModel_->setComparison(comparison_);
  rankTable_->view()->resizeColumnsToContents();
  stepTable_->view()->resizeColumnsToContents();
  statusBar()->showMessage(runErrors_.isEmpty() ? tr("A: %1 ranks · B: %2 ranks").arg(c.runs[0].ranks).arg(c.runs[1].ranks)
                                                : runErrors_.back());
}

void RanksCompareWindow::fillJobTable() {
  using analysis::GapCause;
  const SetFigures& a = comparison_->runs[0];
  const SetFigures& b = comparison_->runs[1];
  const auto pct = [](double v) { return percentCell(v, false).toString(); };
  const std::vector<std::tuple<QString, QString, QString>> rows = {
      {tr("Step time"), durationText(a.stepTimeNs), durationText(b.stepTimeNs)},
      {tr("GPU busy"), pct(a.gpuBusyPct), pct(b.gpuBusyPct)},
      {tr("Collectives a rank and step"), durationText(a.collectivePerStepNs), durationText(b.collectivePerStepNs)},
      {tr("  of which waiting"), durationText(a.waitPerStepNs), durationText(b.waitPerStepNs)},
      {tr("Idle: launch a rank and step"), durationText(a.idlePerStep[GapCause::LaunchOverhead]),
       durationText(b.idlePerStep[GapCause::LaunchOverhead])},
      {tr("Idle: sync a rank and step"), durationText(a.idlePerStep[GapCause::Synchronization]),
       durationText(b.idlePerStep[GapCause::Synchronization])},
      {tr("Straggling steps"), QString::number(a.stragglingSteps), QString::number(b.stragglingSteps)},
      {tr("Stragglers"), stragglerText(a.stragglers), stragglerText(b.stragglers)},
  };
  job_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const auto& [label, va, vb] = rows[static_cast<std::size_t>(r)];
    job_->setItem(r, 0, new QTableWidgetItem(label));
    for (int c = 1; c <= 2; ++c) {
      auto* item = new QTableWidgetItem(c == 1 ? va : vb);
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      job_->setItem(r, c, item);
    }
  }
  job_->resizeColumnsToContents();
  job_->resizeRowsToContents();
  // As large as its cells: no scroll bars, no empty frame below the rows.
  int width = job_->frameWidth() * 2;
  for (int c = 0; c < job_->columnCount(); ++c) width += job_->columnWidth(c);
  int height = job_->frameWidth() * 2 + job_->horizontalHeader()->height();
  for (int r = 0; r < job_->rowCount(); ++r) height += job_->rowHeight(r);
  job_->setFixedSize(width, height);
}

bool RanksCompareWindow::compareFiles(std::int64_t rank, qint64 step) {
  if (!comparison_) return false;
  const auto& pairs = comparison_->ranks;
  auto it = std::find_if(pairs.begin(), pairs.end(), [rank](const ranks::RankChange& r) { return r.rank == rank; });
  if (it == pairs.end() || !it->a || !it->b) {
    statusBar()->showMessage(tr("Rank %1 is in one run only").arg(rank), 5000);
    return false;
  }
  // A run read from a ranks document names its traces where it was
  // recorded (a cluster's workers), which need not be here.
  for (const auto& [side, row] : {std::pair{tr("A"), &*it->a}, std::pair{tr("B"), &*it->b}}) {
    const QString file = QString::fromStdString(row->file);
    if (QFileInfo::exists(file)) continue;
    statusBar()->showMessage(tr("The trace of rank %1 in run %2 is not on this machine: %3").arg(rank).arg(side, file),
                             8000);
    return false;
  }
  emit compareRanks(QString::fromStdString(it->a->file), QString::fromStdString(it->b->file), step);
  return true;
}

bool RanksCompareWindow::compareRankRow(int row) {
  const ranks::RankChange* r = rankModel_->rankChange(row);
  return r && compareFiles(r->rank, RanksWindow::kNoStep);
}

bool RanksCompareWindow::compareStepRow(int row) {
  const ranks::StepChange* s = stepModel_->stepChange(row);
  if (!s) return false;
  const auto& side = s->a ? s->a : s->b;
  return side && compareFiles(side->slowestRank, s->step);
}

bool RanksCompareWindow::compareStep(int run, qint64 step) {
  if (!comparison_) return false;
  const auto& steps = comparison_->steps;
  auto it = std::find_if(steps.begin(), steps.end(), [step](const ranks::StepChange& s) { return s.step == step; });
  if (it == steps.end()) return false;
  const auto& own = run == 0 ? it->a : it->b;
  const auto& side = own ? own : (run == 0 ? it->b : it->a);
  return side && compareFiles(side->slowestRank, step);
}

}  // namespace gapscope::app
