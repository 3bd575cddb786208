#include "calltree/flame_graph_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include "calltree/call_tree_model.h"
#include "calltree/call_tree_text.h"
#include "calltree/flame_graph_widget.h"
#include "models/table_format.h"
#include "trace_session.h"

namespace gapscope::app {
namespace {

using calltree::Metric;

CallTreeViews buildViews(std::shared_ptr<const analysis::TraceAnalysis> analysis, std::optional<TimeRange> range) {
  CallTreeViews views;
  views.trace = analysis->sharedTrace();
  if (range) {
    calltree::CallTreeOptions options = analysis::TraceAnalysis::callTreeOptions();
    options.range = range;
    views.topDown = std::make_shared<const calltree::CallTree>(
        calltree::buildCallTree(analysis->trace(), analysis->gaps(), options));
  } else {
    // The held tree, kept alive by the analysis that holds it.
    views.topDown = std::shared_ptr<const calltree::CallTree>(analysis, &analysis->callTree());
  }
  views.bottomUp = std::make_shared<const calltree::BottomUpTree>(calltree::buildBottomUp(*views.topDown));
  return views;
}

}  // namespace

FlameGraphPanel::FlameGraphPanel(TraceSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new CallTreeModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      job_(this, [this](CallTreeViews built) { onTreesBuilt(std::move(built)); }) {
  setObjectName(QStringLiteral("callTreePanel"));
  flame_ = new FlameGraphWidget(this);
  scroll_ = new QScrollArea(this);
  scroll_->setWidget(flame_);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setRecursiveFilteringEnabled(true);
  proxy_->setFilterKeyColumn(CallTreeModel::Name);
  treeView_ = new QTreeView(this);
  treeView_->setObjectName(QStringLiteral("callTreeTable"));
  treeView_->setModel(proxy_);
  treeView_->setSortingEnabled(true);
  treeView_->sortByColumn(CallTreeModel::Total, Qt::DescendingOrder);
  treeView_->setUniformRowHeights(true);
  treeView_->setAlternatingRowColors(true);
  treeView_->setIndentation(10);
  // Numbers first, the frames last (as perf report lays out a call graph):
  // a deep stack's indentation then pushes no figure out of sight.
  treeView_->header()->moveSection(CallTreeModel::Name, CallTreeModel::ColumnCount - 1);
  treeView_->setTreePosition(CallTreeModel::Name);
  split_ = new QSplitter(Qt::Horizontal, this);
  auto* split = split_;
  split->addWidget(scroll_);
  split->addWidget(treeView_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(buildToolbar());
  layout->addWidget(split, 1);

  connect(session_, &TraceSession::traceChanged, this, &FlameGraphPanel::markStale);
  connect(session_, &TraceSession::rangeChanged, this, &FlameGraphPanel::markStale);
  connect(flame_, &FlameGraphWidget::framePicked, this, [this](quint32 node, quint32) { pickNode(node); });
  connect(flame_, &FlameGraphWidget::zoomRequested, this, &FlameGraphPanel::onZoom);
  connect(treeView_, &QTreeView::activated, this, &FlameGraphPanel::onTreeRowPicked);
  connect(treeView_, &QTreeView::clicked, this, &FlameGraphPanel::onTreeRowPicked);
}

QWidget* FlameGraphPanel::buildToolbar() {
  auto* bar = new QWidget(this);
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(4, 2, 4, 0);
  metric_ = new QComboBox(bar);
  metric_->setObjectName(QStringLiteral("flameMetric"));
  for (Metric m : {Metric::Cpu, Metric::Device, Metric::Launches, Metric::Idle}) {
    metric_->addItem(metricLabel(m), static_cast<int>(m));
  }
  metric_->setToolTip(tr("What the widths show: CPU time of the calls, device time of the GPU work they launched, "
                         "their kernel launches, or the launch-overhead idle time blamed on them"));
  direction_ = new QComboBox(bar);
  direction_->setObjectName(QStringLiteral("flameDirection"));
  direction_->addItems({tr("Top-down"), tr("Bottom-up")});
  direction_->setToolTip(tr("Top-down: callers above their callees. Bottom-up: each frame by name, its callers "
                            "below it, widths from self values"));
  thread_ = new QComboBox(bar);
  thread_->setObjectName(QStringLiteral("flameThread"));
  thread_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  icicle_ = new QCheckBox(tr("Icicle"), bar);
  icicle_->setObjectName(QStringLiteral("flameIcicle"));
  icicle_->setChecked(true);
  icicle_->setToolTip(tr("Roots at the top (icicle) or at the bottom (flame graph)"));
  search_ = new QLineEdit(bar);
  search_->setObjectName(QStringLiteral("flameSearch"));
  search_->setPlaceholderText(tr("Search frames…"));
  search_->setClearButtonEnabled(true);
  searchInfo_ = new QLabel(bar);
  zoomOut_ = new QPushButton(tr("Zoom Out"), bar);
  zoomOut_->setObjectName(QStringLiteral("flameZoomOut"));
  zoomOut_->setToolTip(tr("Show the whole tree again (double-click a frame to zoom to it)"));
  zoomOut_->setEnabled(false);
  scope_ = new QLabel(bar);
  for (QWidget* w : std::initializer_list<QWidget*>{metric_, direction_, thread_, icicle_, search_, searchInfo_, zoomOut_}) {
    row->addWidget(w);
  }
  row->addStretch(1);
  row->addWidget(scope_);
  const auto changed = [this] { applyOptions(); };
  connect(metric_, &QComboBox::currentIndexChanged, this, changed);
  connect(thread_, &QComboBox::currentIndexChanged, this, changed);
  connect(direction_, &QComboBox::currentIndexChanged, this, &FlameGraphPanel::showTrees);
  connect(icicle_, &QCheckBox::toggled, flame_, &FlameGraphWidget::setIcicle);
  connect(zoomOut_, &QPushButton::clicked, this, [this] { onZoom(kNoIndex); });
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
    flame_->setSearch(text);
    proxy_->setFilterFixedString(text.trimmed());
    if (!text.trimmed().isEmpty()) treeView_->expandAll();
    updateSearchLabel();
  });
  return bar;
}

bool FlameGraphPanel::bottomUp() const { return direction_->currentIndex() == 1; }

const calltree::CallTree* FlameGraphPanel::shownTree() const {
  if (!views_.topDown) return nullptr;
  return bottomUp() ? &views_.bottomUp->tree : views_.topDown.get();
}

void FlameGraphPanel::markStale() {
  stale_ = true;
  if (isVisible()) rebuildIfStale();
}

void FlameGraphPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!splitSized_) {
    // Half and half: the table's deep names need the room as much as the graph.
    splitSized_ = true;
    split_->setSizes({width() / 2, width() - width() / 2});
  }
  rebuildIfStale();
}

void FlameGraphPanel::rebuildIfStale() {
  if (!stale_) return;
  stale_ = false;
  if (!session_->hasTrace()) {
    job_.drop();
    views_ = {};
    showTrees();
    return;
  }
  scope_->setText(tr("Building the call tree…"));
  job_.start([analysis = session_->loaded().analysis, range = session_->range()] { return buildViews(analysis, range); });
}

void FlameGraphPanel::waitForTrees() {
  rebuildIfStale();
  job_.waitForLatest();
  QCoreApplication::processEvents();
}

void FlameGraphPanel::onTreesBuilt(CallTreeViews built) {
  // A result for a trace that has been replaced since is dropped.
  if (!session_->hasTrace() || built.trace != session_->loaded().trace) return;
  views_ = std::move(built);
  const std::optional<TimeRange> range = session_->range();
  scope_->setText(range ? tr("Calls starting in the selected range (%1)").arg(durationText(range->duration()))
                        : tr("Whole trace"));
  fillThreads();
  showTrees();
}

void FlameGraphPanel::fillThreads() {
  const QSignalBlocker block(thread_);
  const QString current = thread_->currentText();
  thread_->clear();
  thread_->addItem(tr("All threads"), QVariant::fromValue<quint32>(kNoIndex));
  if (!views_.topDown) return;
  for (std::uint32_t t = 0; t < views_.topDown->threads.size(); ++t) {
    const Track& track = views_.trace->tracks[views_.topDown->threads[t].track];
    thread_->addItem(utf8(calltree::threadLabel(*views_.trace, track)), QVariant::fromValue<quint32>(t));
  }
  const int keep = thread_->findText(current);
  thread_->setCurrentIndex(keep >= 0 ? keep : 0);
}

void FlameGraphPanel::showTrees() {
  const calltree::CallTree* tree = shownTree();
  FlameSource source;
  if (tree) {
    source.trace = views_.trace;
    source.layout = session_->loaded().layout;
    // Aliasing pointers: the views own the trees.
    source.tree = bottomUp() ? std::shared_ptr<const calltree::CallTree>(views_.bottomUp, &views_.bottomUp->tree)
                             : views_.topDown;
  }
  model_->setTree(source.trace, source.tree, bottomUp());
  flame_->setSource(std::move(source));
  applyOptions();
}

void FlameGraphPanel::applyOptions() {
  FlameOptions options = flame_->options();
  options.metric = static_cast<Metric>(metric_->currentData().toInt());
  options.selfWeights = bottomUp();
  options.thread = thread_->currentData().isValid() ? thread_->currentData().value<quint32>() : kNoIndex;
  if (options.zoomNode != kNoIndex && options.thread != kNoIndex && shownTree() &&
      shownTree()->nodes[options.zoomNode].thread != options.thread) {
    options.zoomNode = kNoIndex;
  }
  flame_->setOptions(options);
  zoomOut_->setEnabled(options.zoomNode != kNoIndex);
  model_->setMetric(options.metric);
  treeView_->sortByColumn(bottomUp() ? CallTreeModel::Self : CallTreeModel::Total, Qt::DescendingOrder);
  QHeaderView* header = treeView_->header();
  header->setStretchLastSection(false);
  // Python stacks run dozens of frames deep: the names column grows with
  // what is expanded and the view scrolls sideways, rather than cutting
  // the deepest names to nothing.
  header->setSectionResizeMode(CallTreeModel::Name, QHeaderView::ResizeToContents);
  // Numbers get room for "999.99 ms"; the frame names take the rest.
  const int numberWidth = treeView_->fontMetrics().horizontalAdvance(QStringLiteral("0000.00 ms")) + 12;
  for (int c : {CallTreeModel::Total, CallTreeModel::Self, CallTreeModel::Calls}) {
    header->setSectionResizeMode(c, QHeaderView::Interactive);
    header->resizeSection(c, c == CallTreeModel::Calls ? numberWidth * 2 / 3 : numberWidth);
  }
  updateSearchLabel();
}

void FlameGraphPanel::onZoom(std::uint32_t node) {
  FlameOptions options = flame_->options();
  options.zoomNode = node;
  flame_->setOptions(options);
  zoomOut_->setEnabled(node != kNoIndex);
  updateSearchLabel();
}

void FlameGraphPanel::updateSearchLabel() {
  if (search_->text().trimmed().isEmpty()) {
    searchInfo_->clear();
    return;
  }
  searchInfo_->setText(tr("matches: %1 of the view").arg(percentText(100.0 * flame_->searchShare())));
}

std::vector<std::uint32_t> FlameGraphPanel::slicesOfNode(std::uint32_t node) const {
  if (!views_.topDown || node == kNoIndex) return {};
  if (!bottomUp()) return views_.topDown->slicesOf(node);
  std::vector<bool> origin(views_.topDown->nodes.size(), false);
  for (std::uint32_t o : views_.bottomUp->origins(node)) origin[o] = true;
  std::vector<std::uint32_t> slices;
  const std::vector<std::uint32_t>& nodeOfSlice = views_.topDown->nodeOfSlice;
  for (std::uint32_t s = 0; s < nodeOfSlice.size(); ++s) {
    if (nodeOfSlice[s] != kNoIndex && origin[nodeOfSlice[s]]) slices.push_back(s);
  }
  return slices;
}

void FlameGraphPanel::pickNode(std::uint32_t node) {
  const calltree::CallTree* tree = shownTree();
  if (!tree || node >= tree->nodes.size()) return;
  flame_->setSelectedNode(node);
  for (const FlameFrame& f : flame_->layoutNow().frames) {
    if (f.node != node) continue;
    const QRectF r = flame_->frameRect(f);
    scroll_->ensureVisible(static_cast<int>(r.center().x()), static_cast<int>(r.center().y()), 0,
                           static_cast<int>(r.height() * 2));
    break;
  }
  const QModelIndex index = proxy_->mapFromSource(model_->indexOfNode(node));
  if (index.isValid()) {
    const QSignalBlocker block(treeView_->selectionModel());
    // scrollTo also scrolls sideways to the end of the wide names column:
    // keep the sideways position and let revealName decide.
    const int sideways = treeView_->horizontalScrollBar()->value();
    treeView_->scrollTo(index);
    treeView_->horizontalScrollBar()->setValue(sideways);
    treeView_->setCurrentIndex(index);
    revealName(index);
  }
  const QString name = utf8(calltree::nodeName(*views_.trace, tree->nodes[node]));
  session_->focusOccurrences(slicesOfNode(node), tr("frame %1").arg(name));
}

// Scrolls sideways so the start of the frame's name is in view.
void FlameGraphPanel::revealName(const QModelIndex& index) {
  const QRect rect = treeView_->visualRect(index);
  QScrollBar* bar = treeView_->horizontalScrollBar();
  // Only when the name starts out of sight: the figures on the left stay
  // in view whenever they can.
  const int width = treeView_->viewport()->width();
  if (rect.left() < 0 || rect.left() > width - width / 4) bar->setValue(bar->value() + rect.left() - width / 2);
}

void FlameGraphPanel::onTreeRowPicked(const QModelIndex& proxyIndex) {
  const std::uint32_t node = model_->nodeOf(proxy_->mapToSource(proxyIndex));
  if (node != kNoIndex) pickNode(node);
}

}  // namespace gapscope::app
