#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "about.h"
#include "calltree/flame_graph_panel.h"
#include "dock_room.h"
#include "elided_label.h"
#include "app_setup.h"
#include "gapscope/analysis/percent.h"
#include "gapscope/version.h"
#include "models/table_format.h"
#include "gapscope/format/number.h"
#include "panels/analysis_panels.h"
#include "panels/charts_panel.h"
#include "panels/details_panel.h"
#include "panels/issues_panel.h"
#include "panels/memory_panel.h"
#include "panels/steps_panel.h"
#include "timeline/timeline_view.h"
#include "timeline/timeline_widget.h"
#include "trace_loader.h"
#include "trace_session.h"

namespace gapscope::app {

namespace {

// Bump when the docks change, so an old saved layout is not restored onto new docks.
constexpr int kStateVersion = 3;

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new TraceSession(this)), loader_(new TraceLoader(this)) {
  setObjectName(QStringLiteral("mainWindow"));
  dockRoom_ = new DockRoom(this, 0.35, 0.3);
  setWindowTitle(QStringLiteral("gapscope"));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);
  timelineView_ = new TimelineView(session_, this);
  stack_ = new QStackedWidget(this);
  readBanner_ = buildReadBanner();
  welcome_ = buildWelcome();
  stack_->addWidget(welcome_);
  stack_->addWidget(timelineView_);
  auto* central = new QWidget(this);
  auto* column = new QVBoxLayout(central);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addWidget(readBanner_);
  column->addWidget(stack_, 1);
  setCentralWidget(central);

  buildActions();
  setupRecorder();
  buildDocks();
  buildMenus();
  buildToolBar();
  buildStatusBar();
  defaultState_ = saveState(kStateVersion);
  restoreSettings();
  updateRecent();

  connect(loader_, &TraceLoader::started, this, &MainWindow::onLoadStarted);
  connect(loader_, &TraceLoader::progress, this, &MainWindow::onLoadProgress);
  connect(loader_, &TraceLoader::finished, this, &MainWindow::onLoadFinished);
  connect(session_, &TraceSession::traceChanged, this, &MainWindow::onTraceChanged);
  connect(session_, &TraceSession::highlightsChanged, this, &MainWindow::updateSearchCount);
  connect(charts_, &ChartsPanel::gapRangePicked, this, [this](qint64 lo, qint64 hi) {
    gaps_->setDurationRange(std::make_pair(lo, hi));
    for (QDockWidget* d : docks_) {
      if (d->objectName() == QStringLiteral("gapsDock")) d->raise();
    }
  });
}

MainWindow::~MainWindow() {
  if (recorderProbe_) recorderProbe_->waitForFinished();
}

TimelineWidget* MainWindow::timeline() const { return timelineView_->timeline(); }

void MainWindow::buildActions() {
  openAction_ = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
  openAction_->setObjectName(QStringLiteral("openAction"));
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setToolTip(tr("Open a Chrome trace (.json, .json.gz) from torch.profiler / Kineto"));
  connect(openAction_, &QAction::triggered, this, &MainWindow::chooseFile);
  exportAction_ = new QAction(tr("&Export Report…"), this);
  exportAction_->setObjectName(QStringLiteral("exportReportAction"));
  exportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportAction_->setToolTip(tr("Write a hotspot report (HTML, Markdown, JSON or CSV) of this trace"));
  exportAction_->setEnabled(false);
  connect(exportAction_, &QAction::triggered, this, &MainWindow::chooseReportPath);
  compareAction_ = new QAction(tr("&Compare With…"), this);
  compareAction_->setObjectName(QStringLiteral("compareAction"));
  compareAction_->setToolTip(tr("Open another run of the program beside this one, aligned step by step"));
  compareAction_->setEnabled(false);
  connect(compareAction_, &QAction::triggered, this, &MainWindow::chooseComparison);
  buildRanksActions();
}

QDockWidget* MainWindow::addDock(QWidget* content, const QString& title, const QString& name,
                                 Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);
  dock->setWidget(content);
  addDockWidget(area, dock);
  docks_.append(dock);
  return dock;
}

void MainWindow::buildDocks() {
  details_ = new DetailsPanel(session_, this);
  ops_ = new OpsPanel(session_, this);
  kernels_ = new KernelsPanel(session_, this);
  gaps_ = new GapsPanel(session_, this);
  charts_ = new ChartsPanel(session_, this);
  issues_ = new IssuesPanel(session_, this);
  steps_ = new StepsPanel(session_, this);
  callTree_ = new FlameGraphPanel(session_, this);
  memory_ = new MemoryPanel(session_, this);
  addDock(details_, tr("Details"), QStringLiteral("detailsDock"), Qt::RightDockWidgetArea);
  QDockWidget* opsDock = addDock(ops_, tr("Operators"), QStringLiteral("opsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* kernelsDock = addDock(kernels_, tr("Kernels"), QStringLiteral("kernelsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* gapsDock = addDock(gaps_, tr("Launch Gaps"), QStringLiteral("gapsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* chartsDock = addDock(charts_, tr("Charts"), QStringLiteral("chartsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* stepsDock = addDock(steps_, tr("Steps"), QStringLiteral("stepsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* callTreeDock = addDock(callTree_, tr("Call Tree"), QStringLiteral("callTreeDock"), Qt::BottomDockWidgetArea);
  QDockWidget* memoryDock = addDock(memory_, tr("Memory"), QStringLiteral("memoryDock"), Qt::BottomDockWidgetArea);
  QDockWidget* issuesDock = addDock(issues_, tr("Import Issues"), QStringLiteral("issuesDock"), Qt::BottomDockWidgetArea);
  tabifyDockWidget(opsDock, kernelsDock);
  tabifyDockWidget(kernelsDock, gapsDock);
  tabifyDockWidget(gapsDock, stepsDock);
  tabifyDockWidget(stepsDock, chartsDock);
  tabifyDockWidget(chartsDock, callTreeDock);
  tabifyDockWidget(callTreeDock, memoryDock);
  tabifyDockWidget(memoryDock, issuesDock);
  connect(memory_, &MemoryPanel::liveShown, memoryDock, [memoryDock] {
    memoryDock->show();
    memoryDock->raise();
  });
  opsDock->raise();
  resizeDocks({opsDock}, {300}, Qt::Vertical);
  resizeDocks({docks_.first()}, {380}, Qt::Horizontal);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  file->addAction(openRanksDirectoryAction_);
  file->addAction(openRankFilesAction_);
  if (recordAction_) file->addAction(recordAction_);
  sampleMenu_ = file->addMenu(tr("Open &Sample"));
  for (const QString& name : bundledSamples()) {
    sampleMenu_->addAction(name, this, [this, name] { openSample(name); });
  }
  sampleMenu_->setEnabled(!bundledSamples().isEmpty());
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addSeparator();
  file->addAction(compareAction_);
  recentComparisonsMenu_ = file->addMenu(tr("Recent Co&mparisons"));
  updateRecentComparisons();
  file->addSeparator();
  file->addAction(exportAction_);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* fit = view->addAction(tr("Fit &All"), this, [this] { timeline()->fitAll(); });
  fit->setShortcut(Qt::CTRL | Qt::Key_0);
  QAction* fitSel = view->addAction(tr("Fit &Selection"), this, [this] { timeline()->fitSelection(); });
  fitSel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
  view->addSeparator();
  for (QDockWidget* d : docks_) view->addAction(d->toggleViewAction());
  view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  view->addSeparator();
  QMenu* theme = view->addMenu(tr("&Theme"));
  auto* group = new QActionGroup(this);
  const QString current = QSettings().value(QStringLiteral("theme"), QStringLiteral("system")).toString();
  for (const auto& [key, label] : {std::pair{QStringLiteral("system"), tr("System")},
                                   std::pair{QStringLiteral("light"), tr("Light")},
                                   std::pair{QStringLiteral("dark"), tr("Dark")}}) {
    QAction* a = theme->addAction(label, this, [this, key = key] { applyTheme(key); });
    a->setCheckable(true);
    a->setChecked(key == current);
    group->addAction(a);
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts)->setShortcut(QKeySequence::HelpContents);
  help->addAction(tr("&About gapscope"), this, &MainWindow::showAbout);
}

void MainWindow::buildToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolBar"));
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(openAction_);
  if (recordAction_) bar->addAction(recordAction_);
  bar->addSeparator();
  searchEdit_ = new QLineEdit(bar);
  searchEdit_->setObjectName(QStringLiteral("searchEdit"));
  searchEdit_->setPlaceholderText(tr("Find slices by name (Ctrl+F)"));
  searchEdit_->setClearButtonEnabled(true);
  searchEdit_->setMaximumWidth(360);
  auto* focusSearch = new QAction(this);
  focusSearch->setShortcut(QKeySequence::Find);
  connect(focusSearch, &QAction::triggered, this, [this] {
    searchEdit_->setFocus();
    searchEdit_->selectAll();
  });
  addAction(focusSearch);
  bar->addWidget(searchEdit_);
  auto* prev = new QToolButton(bar);
  prev->setObjectName(QStringLiteral("searchPrev"));
  prev->setArrowType(Qt::UpArrow);
  prev->setToolTip(tr("Previous match (Shift+F3)"));
  prev->setShortcut(QKeySequence::FindPrevious);
  auto* next = new QToolButton(bar);
  next->setObjectName(QStringLiteral("searchNext"));
  next->setArrowType(Qt::DownArrow);
  next->setToolTip(tr("Next match (Enter, F3)"));
  next->setShortcut(QKeySequence::FindNext);
  bar->addWidget(prev);
  bar->addWidget(next);
  searchCount_ = new QLabel(bar);
  searchCount_->setObjectName(QStringLiteral("searchCount"));
  searchCount_->setMinimumWidth(110);
  searchCount_->setContentsMargins(6, 0, 6, 0);
  bar->addWidget(searchCount_);
  connect(searchEdit_, &QLineEdit::returnPressed, this, [this] {
    session_->search(searchEdit_->text());
    session_->searchNext();
  });
  connect(searchEdit_, &QLineEdit::textChanged, this, [this](const QString& text) {
    if (text.isEmpty()) session_->search(QString());
  });
  connect(next, &QToolButton::clicked, this, [this] {
    session_->search(searchEdit_->text());
    session_->searchNext();
  });
  connect(prev, &QToolButton::clicked, this, [this] {
    session_->search(searchEdit_->text());
    session_->searchPrevious();
  });
}

void MainWindow::buildStatusBar() {
  info_ = new ElidedLabel(this);
  info_->setObjectName(QStringLiteral("traceInfo"));
  statusBar()->addWidget(info_, 1);
  rangeInfo_ = new ElidedLabel(this);
  rangeInfo_->setObjectName(QStringLiteral("rangeInfo"));
  rangeInfo_->hide();
  statusBar()->addWidget(rangeInfo_);
  clearRange_ = new QToolButton(this);
  clearRange_->setObjectName(QStringLiteral("clearRange"));
  clearRange_->setText(tr("Whole trace"));
  clearRange_->setToolTip(tr("Clear the selected range: the tables cover the whole trace again (Esc)"));
  clearRange_->setAutoRaise(true);
  clearRange_->hide();
  statusBar()->addWidget(clearRange_);
  connect(clearRange_, &QToolButton::clicked, this, [this] { session_->setRange(std::nullopt); });
  connect(session_, &TraceSession::rangeChanged, this, &MainWindow::showRange);
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("loadProgress"));
  progress_->setMaximumWidth(260);
  progress_->setTextVisible(true);
  progress_->hide();
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName(QStringLiteral("loadCancel"));
  cancel_->hide();
  connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
  issuesBadge_ = new QToolButton(this);
  issuesBadge_->setObjectName(QStringLiteral("issuesBadge"));
  issuesBadge_->setAutoRaise(true);
  issuesBadge_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  issuesBadge_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  issuesBadge_->hide();
  connect(issuesBadge_, &QToolButton::clicked, this, [this] {
    for (QDockWidget* d : docks_) {
      if (d->objectName() == QStringLiteral("issuesDock")) {
        d->show();
        d->raise();
      }
    }
  });
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  statusBar()->addPermanentWidget(issuesBadge_);
}

QWidget* MainWindow::buildWelcome() {
  auto* page = new QWidget(this);
  page->setObjectName(QStringLiteral("welcomePage"));
  auto* outer = new QVBoxLayout(page);
  outer->addStretch(2);
  auto* column = new QVBoxLayout;
  auto* title = new QLabel(QStringLiteral("gapscope"), page);
  QFont big = title->font();
  big.setPointSizeF(big.pointSizeF() * 2.2);
  big.setBold(true);
  title->setFont(big);
  column->addWidget(title);
  auto* subtitle = new QLabel(tr("Where the GPU waited, and why. Open a Chrome trace from torch.profiler or Kineto "
                                 "(.json or .json.gz), or drop one on this window."),
                              page);
  subtitle->setWordWrap(true);
  column->addWidget(subtitle);
  column->addSpacing(12);
  auto* open = new QPushButton(tr("Open Trace…"), page);
  open->setObjectName(QStringLiteral("welcomeOpen"));
  connect(open, &QPushButton::clicked, this, &MainWindow::chooseFile);
  column->addWidget(open);
  const QStringList samples = bundledSamples();
  if (!samples.isEmpty()) {
    auto* sample = new QPushButton(tr("Open the Sample Trace (%1)").arg(samples.first()), page);
    sample->setObjectName(QStringLiteral("welcomeSample"));
    sample->setToolTip(tr("A trace recorded on an NVIDIA H200 (see resources/samples/PROVENANCE.md)"));
    connect(sample, &QPushButton::clicked, this, [this] { openSample(); });
    column->addWidget(sample);
  }
  column->addSpacing(12);
  column->addWidget(new QLabel(tr("Recent traces"), page));
  recentList_ = new QListWidget(page);
  recentList_->setObjectName(QStringLiteral("recentList"));
  recentList_->setMaximumHeight(160);
  connect(recentList_, &QListWidget::itemActivated, this,
          [this](QListWidgetItem* item) { openTrace(item->data(Qt::UserRole).toString()); });
  column->addWidget(recentList_);
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  row->addLayout(column, 2);
  row->addStretch(1);
  outer->addLayout(row);
  outer->addStretch(3);
  return page;
}

void MainWindow::offerSample() {
  if (session_->hasTrace() || loader_->busy()) return;
  stack_->setCurrentWidget(welcome_);
  if (auto* sample = welcome_->findChild<QPushButton*>(QStringLiteral("welcomeSample"))) sample->setFocus();
}

void MainWindow::onTraceChanged() {
  const bool has = session_->hasTrace();
  exportAction_->setEnabled(has);
  compareAction_->setEnabled(has);
  stack_->setCurrentWidget(has ? static_cast<QWidget*>(timelineView_) : welcome_);
  if (!has) {
    readBanner_->hide();
    setWindowTitle(QStringLiteral("gapscope"));
    info_->clear();
    issuesBadge_->hide();
    return;
  }
  const LoadedTrace& t = session_->loaded();
  setWindowTitle(tr("%1 — gapscope").arg(t.displayName));
  setWindowFilePath(t.path);
  const analysis::TraceSummary& summary = t.analysis->summary();
  QString text = tr("%1 slices · %2 kernels").arg(summary.slices).arg(summary.kernels);
  if (t.gaps().hasGpuActivity) {
    const analysis::Verdict& v = t.gaps().verdict;
    text += (v.overSteps ? tr(" · GPU busy %1 % in steps") : tr(" · GPU busy %1 %")).arg(v.utilization * 100, 0, 'f', 1);
  }
  // In the unit that reads best: a small trace opens in milliseconds.
  if (t.seconds > 0) text += tr(" · opened in %1").arg(durationText(static_cast<TimeNs>(t.seconds * 1e9)));
  info_->setText(text);
  showReadBanner(t);
  // Only problems raise the badge: known producer quirks and notes are in
  // the Import Issues panel, not worth a warning (docs/import-issues.md).
  const std::uint64_t problems = problemCount(t.trace->issues.all());
  issuesBadge_->setVisible(problems > 0);
  issuesBadge_->setText(problems == 1 ? tr("1 import problem") : tr("%1 import problems").arg(problems));
  issuesBadge_->setToolTip(tr("Show what was wrong with this file"));
  searchEdit_->clear();
  timeline()->setFocus();
}

// A file that could not be read to the end (a syntax error part way, or a
// cut): the banner says where, and that what came before is what is shown.
QWidget* MainWindow::buildReadBanner() {
  auto* banner = new QFrame(this);
  banner->setObjectName(QStringLiteral("readErrorBanner"));
  banner->setFrameShape(QFrame::StyledPanel);
  banner->setAutoFillBackground(true);
  QPalette p = banner->palette();
  p.setColor(QPalette::Window, QColor(0xFF, 0xE8, 0xB0));
  p.setColor(QPalette::WindowText, QColor(0x3A, 0x2A, 0x00));
  p.setColor(QPalette::ButtonText, QColor(0x3A, 0x2A, 0x00));  // the close button: dark on the light banner in either theme
  banner->setPalette(p);
  auto* row = new QHBoxLayout(banner);
  row->setContentsMargins(8, 4, 4, 4);
  auto* icon = new QLabel(banner);
  icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(16, 16));
  row->addWidget(icon);
  readBannerText_ = new QLabel(banner);
  readBannerText_->setObjectName(QStringLiteral("readErrorText"));
  readBannerText_->setWordWrap(true);
  readBannerText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(readBannerText_, 1);
  auto* close = new QToolButton(banner);
  close->setText(QStringLiteral("✕"));
  close->setAutoRaise(true);
  close->setToolTip(tr("Hide this message"));
  connect(close, &QToolButton::clicked, banner, &QWidget::hide);
  row->addWidget(close);
  banner->hide();
  return banner;
}

void MainWindow::showReadBanner(const LoadedTrace& t) {
  QString text;
  if (!t.readError.isEmpty()) {
    text = tr("This file could not be read to the end: %1. Shown is everything before that point.").arg(t.readError);
  } else if (t.truncated) {
    const ImportIssue* cut = t.trace->issues.find("truncated");
    text = tr("The file was cut short%1. Shown is everything before the cut.")
               .arg(cut ? QStringLiteral(" (%1)").arg(QString::fromStdString(cut->description)) : QString());
  }
  const analysis::OutlyingEvents& o = t.analysis->summary().outlying;
  if (o.count > 0) {
    if (!text.isEmpty()) text += QLatin1Char(' ');
    const QString where = o.before ? tr("before") : tr("after");
    text += (o.count == 1 ? tr("1 event lies %2 %3 the others") : tr("%1 events lie %2 %3 the others").arg(o.count))
                .arg(durationText(o.gapNs), where) +
            tr(" (a stray event, or a clock that jumped): the view opens on the others; View > Fit All (0) shows "
               "them all.");
  }
  readBannerText_->setText(text);
  readBanner_->setVisible(!text.isEmpty());
}

// The selected range's summary: how long it is and how busy each GPU was in it.
void MainWindow::showRange() {
  const auto range = session_->range();
  rangeInfo_->setVisible(range.has_value());
  clearRange_->setVisible(range.has_value());
  if (!range || !session_->hasTrace()) return;
  QString text = tr("Range %1 from %2").arg(durationText(range->duration()),
                                            durationText(range->start - session_->layout().contentStart()));
  if (!session_->rangeName().isEmpty()) text = session_->rangeName() + QStringLiteral(": ") + text;
  for (const auto& [device, busy] : analysis::busyIn(session_->analysis().busy(), *range)) {
    const double pct = analysis::percentOf(busy, range->duration());
    text += tr(" · GPU %1 busy %2 (%3)").arg(device).arg(utf8(format::formatPercent(pct, format::PercentStyle::AppTable)),
                                            durationText(busy));
  }
  rangeInfo_->setText(text);
}

void MainWindow::updateSearchCount() {
  const auto n = session_->searchCount();
  searchCount_->setToolTip(QString());
  if (session_->searchText().isEmpty()) {
    // Highlights from elsewhere (a gap's blamed work, a table row, an
    // import issue): say from where, and how to let them go.
    const int shown = static_cast<int>(session_->highlights().size());
    searchCount_->setText(shown == 0 ? QString()
                                     : tr("%n highlighted: %1", "", shown).arg(session_->highlightOrigin()));
    if (shown > 0) searchCount_->setToolTip(tr("Esc on the timeline clears the highlights"));
  } else if (n == 0) {
    searchCount_->setText(tr("no match"));
  } else {
    searchCount_->setText(tr("%1 / %2").arg(session_->searchPosition() + 1).arg(n));
  }
}

void MainWindow::restoreSettings() {
  QSettings s;
  if (!restoreGeometry(s.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
    const QRect screen = QGuiApplication::primaryScreen() ? QGuiApplication::primaryScreen()->availableGeometry()
                                                          : QRect(0, 0, 1600, 1000);
    resize(screen.size() * 0.9);
  }
  restoreState(s.value(QStringLiteral("mainWindow/state")).toByteArray(), kStateVersion);
  dockRoom_->queueCheck();
  applyTheme(s.value(QStringLiteral("theme"), QStringLiteral("system")).toString());
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  s.setValue(QStringLiteral("mainWindow/state"), saveState(kStateVersion));
}

void MainWindow::resetLayout() {
  restoreState(defaultState_, kStateVersion);
  for (QDockWidget* d : docks_) d->show();
  dockRoom_->queueCheck();
}

void MainWindow::applyTheme(const QString& theme) {
  QSettings().setValue(QStringLiteral("theme"), theme);
  static const QPalette systemPalette = QApplication::palette();
  static const QString systemStyle = QApplication::style()->name();
  if (theme == QStringLiteral("system")) {
    QApplication::setStyle(QStyleFactory::create(systemStyle));
    QApplication::setPalette(systemPalette);
    return;
  }
  // Fusion draws every palette faithfully, whatever the platform style.
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QPalette p = QApplication::style()->standardPalette();
  if (theme == QStringLiteral("dark")) {
    p.setColor(QPalette::Window, QColor(0x2B, 0x2D, 0x31));
    p.setColor(QPalette::WindowText, QColor(0xE8, 0xEA, 0xED));
    p.setColor(QPalette::Base, QColor(0x1E, 0x1F, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2C));
    p.setColor(QPalette::Text, QColor(0xE8, 0xEA, 0xED));
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3C));
    p.setColor(QPalette::ButtonText, QColor(0xE8, 0xEA, 0xED));
    p.setColor(QPalette::Highlight, QColor(0x3D, 0x7E, 0xE0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x37, 0x3C));
    p.setColor(QPalette::ToolTipText, QColor(0xE8, 0xEA, 0xED));
    p.setColor(QPalette::Mid, QColor(0x45, 0x48, 0x4E));
    p.setColor(QPalette::PlaceholderText, QColor(0x9A, 0xA0, 0xA6));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x86, 0x8B));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x86, 0x8B));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x86, 0x8B));
  }
  QApplication::setPalette(p);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  loader_->cancel();
  saveSettings();
  event->accept();
}

void MainWindow::showShortcuts() {
  QMessageBox::information(
      this, tr("Keyboard Shortcuts"),
      tr("<table>"
         "<tr><td><b>W</b> / <b>S</b></td><td>zoom in / out at the mouse</td></tr>"
         "<tr><td><b>A</b> / <b>D</b></td><td>pan left / right</td></tr>"
         "<tr><td><b>Ctrl+wheel</b></td><td>zoom at the mouse</td></tr>"
         "<tr><td><b>wheel</b>, <b>Shift+wheel</b></td><td>scroll lanes, pan time</td></tr>"
         "<tr><td><b>drag</b></td><td>pan</td></tr>"
         "<tr><td><b>drag on the time axis</b></td><td>measure a range</td></tr>"
         "<tr><td><b>F</b></td><td>fit the selection (or the measured range)</td></tr>"
         "<tr><td><b>0</b></td><td>fit the whole trace</td></tr>"
         "<tr><td><b>click</b>, <b>double-click</b></td><td>select, select and fit</td></tr>"
         "<tr><td><b>Esc</b></td><td>clear selection and measurement</td></tr>"
         "<tr><td><b>Ctrl+F</b>, <b>Enter</b>, <b>F3</b></td><td>search, next match</td></tr>"
         "<tr><td><b>Ctrl+O</b></td><td>open a trace</td></tr>"
         "</table>"));
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About gapscope"), aboutText());
}

}  // namespace gapscope::app
