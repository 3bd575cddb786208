#include "ranks/ranks_window.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "models/rank_table_model.h"
#include "panels/table_panel.h"
#include "ranks/heat_legend.h"
#include "ranks/load_progress.h"
#include "ranks/rank_heat_map.h"
#include "ranks/rank_set_loader.h"
#include "ranks/ranks_compare_window.h"

namespace gapscope::app {

namespace {

// At most this many unreadable files are named in the banner; its tooltip has all.
constexpr int kErrorsNamed = 5;

// The reader's messages name their file already; others get its name in front.
QString problemLine(const std::string& file, const std::string& message) {
  const QString text = QString::fromStdString(message);
  if (message.find(file) != std::string::npos) return text;
  return QStringLiteral("%1: %2").arg(QFileInfo(QString::fromStdString(file)).fileName(), text);
}

// For the window title: the folder's or the file's name, else how many files.
QString rankSetName(const QStringList& arguments) {
  if (arguments.size() != 1) return QObject::tr("%1 files").arg(arguments.size());
  const QFileInfo info(arguments.first());
  return info.isDir() ? QDir(arguments.first()).dirName() : info.fileName();
}

}  // namespace

RanksWindow::RanksWindow(QWidget* parent) : QMainWindow(parent), loader_(new RankSetLoader(this)) {
  setObjectName(QStringLiteral("ranksWindow"));
  setWindowTitle(tr("Ranks — gapscope"));
  auto* central = new QWidget(this);
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addWidget(buildBanner());
  verdict_ = new QLabel(central);
  verdict_->setObjectName(QStringLiteral("ranksVerdict"));
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  verdict_->setContentsMargins(8, 6, 8, 2);
  QFont strong = verdict_->font();
  strong.setBold(true);
  verdict_->setFont(strong);
  column->addWidget(verdict_);
  notes_ = new QLabel(central);
  notes_->setObjectName(QStringLiteral("ranksNotes"));
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  notes_->setContentsMargins(8, 0, 8, 2);
  notes_->hide();
  column->addWidget(notes_);
  column->addWidget(buildMetricBar());

  split_ = new QSplitter(Qt::Vertical, central);
  split_->setObjectName(QStringLiteral("ranksSplit"));
  split_->setChildrenCollapsible(false);
  heatMap_ = new RankHeatMap(split_);
  split_->addWidget(heatMap_);
  split_->addWidget(buildTable());
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  column->addWidget(split_, 1);
  // A median beside totals reads wrong unless said (3.05 ms a step, 123 ms of collectives).
  scope_ = new QLabel(central);
  scope_->setObjectName(QStringLiteral("rankTableScope"));
  scope_->setWordWrap(true);
  column->addWidget(scope_);
  setCentralWidget(central);
  heatMap_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(heatMap_, &QWidget::customContextMenuRequested, this, &RanksWindow::showCellMenu);
  connect(heatMap_, &RankHeatMap::cellActivated, this, [this](int row, int col) {
    emit openRankAtStep(heatMap_->grid().file(row), heatMap_->grid().stepNumber(col));
  });

  const LoadProgress load = addLoadProgress(statusBar(), QStringLiteral("ranks"));
  progress_ = load.bar;
  cancel_ = load.cancel;
  connect(cancel_, &QPushButton::clicked, this, &RanksWindow::cancel);
  connect(loader_, &RankSetLoader::progress, this, &RanksWindow::onProgress);
  connect(loader_, &RankSetLoader::finished, this, &RanksWindow::onLoaded);
  resize(1280, 800);
}

RanksWindow::~RanksWindow() = default;

// Ranks that could not be read, or were read in part: named, the rest shown.
QWidget* RanksWindow::buildBanner() {
  bannerText_ = new QLabel(this);
  bannerText_->setObjectName(QStringLiteral("ranksProblems"));
  bannerText_->setWordWrap(true);
  bannerText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bannerText_->setFrameShape(QFrame::StyledPanel);
  bannerText_->setMargin(6);
  bannerText_->setAutoFillBackground(true);
  QPalette p = bannerText_->palette();
  p.setColor(QPalette::Window, QColor(0xFF, 0xE8, 0xB0));  // the main window's read-error banner
  p.setColor(QPalette::WindowText, QColor(0x3A, 0x2A, 0x00));
  bannerText_->setPalette(p);
  bannerText_->hide();
  return bannerText_;
}

QWidget* RanksWindow::buildMetricBar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(8, 4, 8, 4);
  row->addWidget(new QLabel(tr("Colour by"), bar));
  metricChoice_ = new QComboBox(bar);
  metricChoice_->setObjectName(QStringLiteral("rankMetric"));
  for (int m = 0; m < kRankMetricCount; ++m) metricChoice_->addItem(metricLabel(static_cast<RankMetric>(m)));
  // Own time by default: the figure the straggler rule compares, so the
  // straggling cells stand out (step time is alike on every rank of a
  // synchronous step).
  metricChoice_->setCurrentIndex(static_cast<int>(RankMetric::OwnTime));
  metricChoice_->setToolTip(tr("What each cell's colour shows, per rank and step"));
  connect(metricChoice_, &QComboBox::activated, this, [this](int item) { setMetric(static_cast<RankMetric>(item)); });
  row->addWidget(metricChoice_);
  row->addSpacing(12);
  legend_ = new HeatLegend(bar);
  row->addWidget(legend_, 1);
  compareRunButton_ = new QPushButton(tr("Compare with Another Run"), bar);
  compareRunButton_->setObjectName(QStringLiteral("compareRun"));
  compareRunButton_->setToolTip(tr("Another run of this job (before or after a change): its step time, stragglers, "
                                   "ranks and steps beside this run's"));
  compareRunButton_->setEnabled(false);
  auto* runMenu = new QMenu(compareRunButton_);
  runMenu->addAction(tr("Folder of Rank Traces…"), this, &RanksWindow::chooseRunFolderToCompare);
  runMenu->addAction(tr("Ranks Document (JSON)…"), this, &RanksWindow::chooseRunDocumentToCompare)
      ->setToolTip(tr("What `gapscope-cli ranks --format json` or the Dask path wrote of a run"));
  runMenu->setToolTipsVisible(true);
  compareRunButton_->setMenu(runMenu);
  row->addWidget(compareRunButton_);
  return bar;
}

QWidget* RanksWindow::buildTable() {
  model_ = new RankTableModel(this);
  table_ = new TablePanel(model_, QStringLiteral("rankTable"), RankTableModel::File, this);
  table_->filter()->setPlaceholderText(tr("Filter by file…"));
  QTableView* view = table_->view();
  view->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view, &QWidget::customContextMenuRequested, this, &RanksWindow::showTableMenu);
  compareButton_ = new QPushButton(tr("Compare Two Ranks"), table_);
  compareButton_->setObjectName(QStringLiteral("compareRanks"));
  compareButton_->setToolTip(tr("Select two ranks (Ctrl+click) to see their timelines one above the other"));
  compareButton_->setEnabled(false);
  connect(compareButton_, &QPushButton::clicked, this, &RanksWindow::compareSelected);
  table_->toolbar()->addWidget(compareButton_);
  connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] { compareButton_->setEnabled(selectedRows().size() == 2); });
  // The rank picked in the table is brought into view on the map.
  connect(table_, &TablePanel::currentRowChanged, this, [this](int row) {
    if (const ranks::RankRow* r = model_->rankRow(row)) heatMap_->showCell(heatMap_->grid().rowOfRank(r->rank), -1);
  });
  connect(table_, &TablePanel::rowActivated, this, [this](int row) {
    if (const ranks::RankRow* r = model_->rankRow(row)) emit openRankAtStep(QString::fromStdString(r->file), kNoStep);
  });
  return table_;
}

bool RanksWindow::open(const QStringList& arguments) {
  if (!loader_->load(arguments)) return false;
  lastError_.clear();
  arguments_ = arguments;
  compareRunButton_->setEnabled(false);
  setWindowTitle(tr("Ranks: %1 — gapscope").arg(rankSetName(arguments)));
  heatMap_->setPlaceholder(tr("Reading the rank files…"));
  progress_->setRange(0, 0);
  progress_->show();
  cancel_->show();
  return true;
}

void RanksWindow::cancel() { loader_->cancel(); }

bool RanksWindow::busy() const { return loader_->busy(); }

void RanksWindow::onProgress(qulonglong done, qulonglong total) {
  if (total == 0) return;
  progress_->setRange(0, static_cast<int>(total));
  progress_->setValue(static_cast<int>(done));
  progress_->setFormat(tr("Rank %1 of %2").arg(std::min(done + 1, total)).arg(total));
  statusBar()->showMessage(tr("Reading rank %1 of %2…").arg(std::min(done + 1, total)).arg(total));
}

void RanksWindow::onLoaded(const RanksOutcome& outcome) {
  progress_->hide();
  cancel_->hide();
  statusBar()->clearMessage();
  if (outcome.ranks) {
    showRanks(outcome.ranks);
  } else {
    lastError_ = outcome.cancelled ? tr("Cancelled") : tr("Could not open the ranks: %1").arg(outcome.error);
    heatMap_->setPlaceholder(lastError_);
    statusBar()->showMessage(lastError_);
  }
  emit loadFinished();
}

void RanksWindow::showRanks(std::shared_ptr<const LoadedRanks> ranks) {
  ranks_ = std::move(ranks);
  compareRunButton_->setEnabled(true);
  const ranks::RanksAnalysis& a = ranks_->analysis;
  verdict_->setText(QString::fromStdString(a.verdict));
  QStringList notes;
  for (const auto& n : a.notes) notes << tr("Note: %1").arg(QString::fromStdString(n));
  notes_->setText(notes.join(QLatin1Char('\n')));
  notes_->setVisible(!notes.isEmpty());
  showProblems(*ranks_);
  heatMap_->setGrid(RankGrid(ranks_));
  scope_->setText(heatMap_->grid().hasWarmUp()
                      ? tr("Median step and own time: of the rank's steps after the warm-up. GPU busy: over those "
                           "steps. Collectives, wait, transfer and idle: summed over those steps.")
                      : tr("Median step and own time: of the rank's steps. GPU busy: over all its steps. "
                           "Collectives, wait, transfer and idle: summed over all its steps."));
  model_->setAnalysis(std::shared_ptr<const ranks::RanksAnalysis>(ranks_, &ranks_->analysis));
  table_->view()->resizeColumnsToContents();
  updateLegend();
  fitMapHeight();
  // Among thousands of ranks the verdict's rank may lie far down the map
  // and the table: both open at it (grid rows and table rows are the
  // analysis' ranks, in the same order).
  if (!a.causes.empty()) {
    const RankGrid& grid = heatMap_->grid();
    const int row = grid.rowOfRank(a.causes.front().rank);
    heatMap_->showCell(row, grid.columnOfStep(a.causes.front().worstStep));
    table_->showSourceRow(row);  // current, not selected: two ranks to compare are the user's pick
  }
  statusBar()->showMessage(tr("%1 ranks · %2 steps").arg(a.ranks.size()).arg(a.steps.size()));
}

void RanksWindow::showProblems(const LoadedRanks& ranks) {
  QStringList all;
  for (const auto& e : ranks.errors) all << problemLine(e.file, e.message);
  for (const auto& w : ranks.warnings) all << QString::fromStdString(w);
  if (all.isEmpty()) {
    bannerText_->hide();
    return;
  }
  QString text;
  if (!ranks.errors.empty()) {
    text = ranks.errors.size() == 1
               ? tr("1 rank file could not be read and is left out; the other ranks are shown.")
               : tr("%1 rank files could not be read and are left out; the other ranks are shown.")
                     .arg(ranks.errors.size());
  } else {
    text = tr("Some rank files were read in part; what was read is shown.");
  }
  text += QLatin1Char('\n') + all.mid(0, kErrorsNamed).join(QLatin1Char('\n'));
  if (all.size() > kErrorsNamed) {
    text += QLatin1Char('\n') + tr("… and %1 more (hover to see all)").arg(all.size() - kErrorsNamed);
  }
  bannerText_->setText(text);
  bannerText_->setToolTip(all.join(QLatin1Char('\n')));
  bannerText_->show();
}

// A few ranks need little height: the table gets the rest. Many ranks get
// at most two thirds of the room, the map scrolls or shrinks its cells.
void RanksWindow::fitMapHeight() {
  const int room = split_->height() - split_->handleWidth();
  if (room <= 0) return;
  const int map = std::min(heatMap_->preferredHeight(), room * 2 / 3);
  split_->setSizes({map, room - map});
}

void RanksWindow::setMetric(RankMetric metric) {
  metricChoice_->setCurrentIndex(static_cast<int>(metric));
  heatMap_->setMetric(metric);
  updateLegend();
}

void RanksWindow::updateLegend() {
  const auto [lo, hi] = heatMap_->scale();
  legend_->setRange(metricText(heatMap_->currentMetric(), lo), metricText(heatMap_->currentMetric(), hi));
  legend_->setWarmUp(heatMap_->grid().hasWarmUp());
}

QList<int> RanksWindow::selectedRows() const {
  QList<int> rows;
  for (const QModelIndex& index : table_->view()->selectionModel()->selectedRows()) {
    rows << table_->sourceRow(index.row());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

bool RanksWindow::compareSelected() {
  const QList<int> rows = selectedRows();
  if (rows.size() != 2) return false;
  const ranks::RankRow* a = model_->rankRow(rows[0]);
  const ranks::RankRow* b = model_->rankRow(rows[1]);
  if (!a || !b) return false;
  emit compareRanks(QString::fromStdString(a->file), QString::fromStdString(b->file), kNoStep);
  return true;
}

// The row whose own time in `column` is the lower median of the column's;
// the next one up when that is `row` itself.
int RanksWindow::medianRow(int row, int column) const {
  const RankGrid& grid = heatMap_->grid();
  std::vector<std::pair<double, int>> owns;
  for (int r = 0; r < grid.rows(); ++r) {
    if (const auto v = grid.value(RankMetric::OwnTime, r, column)) owns.emplace_back(*v, r);
  }
  if (owns.size() < 2) return -1;
  std::sort(owns.begin(), owns.end());
  const std::size_t mid = (owns.size() - 1) / 2;
  return owns[mid].second != row ? owns[mid].second : owns[mid + 1].second;
}

bool RanksWindow::compareWithMedian(int row, int column) {
  const RankGrid& grid = heatMap_->grid();
  if (!grid.cell(row, column).step) return false;
  const int median = medianRow(row, column);
  if (median < 0) return false;
  emit compareRanks(grid.file(row), grid.file(median), grid.stepNumber(column));
  return true;
}

QString RanksWindow::dialogStart() const {
  return arguments_.size() == 1 ? QFileInfo(arguments_.first()).absolutePath() : QDir::homePath();
}

void RanksWindow::chooseRunFolderToCompare() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Compare with Another Run"), dialogStart());
  if (!dir.isEmpty()) compareWithRun({dir});
}

void RanksWindow::chooseRunDocumentToCompare() {
  const QString file = QFileDialog::getOpenFileName(this, tr("Compare with Another Run"), dialogStart(),
                                                    tr("Ranks documents (*.json *.json.gz);;All files (*)"));
  if (!file.isEmpty()) compareWithRun({file});
}

RanksCompareWindow* RanksWindow::compareWithRun(const QStringList& argumentsB) {
  if (!ranks_) return nullptr;
  auto* window = new RanksCompareWindow(this);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  connect(window, &RanksCompareWindow::compareRanks, this, &RanksWindow::compareRanks);
  const QString nameA = arguments_.isEmpty() ? tr("this run") : arguments_.join(QStringLiteral(", "));
  if (!window->open(ranks_, nameA, argumentsB)) {
    delete window;
    return nullptr;
  }
  window->show();
  return window;
}

void RanksWindow::showCellMenu(const QPoint& pos) {
  const auto cell = heatMap_->cellAt(pos);
  if (!cell || !heatMap_->grid().cell(cell->first, cell->second).step) return;
  const int row = cell->first;
  const int column = cell->second;
  const RankGrid& grid = heatMap_->grid();
  const std::int64_t rank = grid.rankNumber(row), step = grid.stepNumber(column);
  QMenu menu(this);
  const QString file = grid.file(row);
  menu.addAction(tr("Open Rank %1 at Step %2").arg(rank).arg(step), this,
                 [this, file, step] { emit openRankAtStep(file, step); });
  const int median = medianRow(row, column);
  if (median >= 0) {
    menu.addAction(tr("Compare with Rank %1, the Median of Step %2").arg(grid.rankNumber(median)).arg(step), this,
                   [this, row, column] { compareWithMedian(row, column); });
  }
  menu.exec(heatMap_->mapToGlobal(pos));
}

void RanksWindow::showTableMenu(const QPoint& pos) {
  QTableView* view = table_->view();
  const QModelIndex index = view->indexAt(pos);
  if (!index.isValid()) return;
  const ranks::RankRow* r = model_->rankRow(table_->sourceRow(index.row()));
  if (!r) return;
  QMenu menu(this);
  const QString file = QString::fromStdString(r->file);
  menu.addAction(tr("Open the Timeline of Rank %1").arg(r->rank), this,
                 [this, file] { emit openRankAtStep(file, kNoStep); });
  QAction* compare = menu.addAction(tr("Compare the Two Selected Ranks"), this, &RanksWindow::compareSelected);
  compare->setEnabled(selectedRows().size() == 2);
  menu.exec(view->viewport()->mapToGlobal(pos));
}

}  // namespace gapscope::app
