// The Call Tree dock: a flame graph (or icicle) over a tree table of the
// same call tree, top-down or bottom-up, by CPU time, device time,
// launches or blamed idle. The trees are built off the GUI thread when the
// dock is shown, for the selected range when there is one. Picking a frame
// (in either view) highlights its slices on the timeline and shows the
// longest.
#pragma once

#include <QWidget>

#include <memory>

#include "gapscope/calltree/call_tree.h"
#include "panels/latest_job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSplitter;
class QSortFilterProxyModel;
class QTreeView;

namespace gapscope::app {

class CallTreeModel;
class FlameGraphWidget;
class TraceSession;

// The two trees of one trace (or range), built together.
struct CallTreeViews {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const calltree::CallTree> topDown;
  std::shared_ptr<const calltree::BottomUpTree> bottomUp;
};

class FlameGraphPanel : public QWidget {
  Q_OBJECT

 public:
  explicit FlameGraphPanel(TraceSession* session, QWidget* parent = nullptr);

  FlameGraphWidget* flame() const { return flame_; }
  QTreeView* treeView() const { return treeView_; }
  CallTreeModel* model() const { return model_; }
  QComboBox* metricBox() const { return metric_; }
  QComboBox* directionBox() const { return direction_; }
  QComboBox* threadBox() const { return thread_; }
  QLineEdit* searchEdit() const { return search_; }
  QCheckBox* icicleBox() const { return icicle_; }
  const CallTreeViews& views() const { return views_; }
  bool bottomUp() const;
  // Builds the trees now if they are out of date, and waits (tests).
  void waitForTrees();
  // What a pick of `node` of the shown tree highlights: its slices.
  std::vector<std::uint32_t> slicesOfNode(std::uint32_t node) const;
  // Picks a node as a click on its frame does.
  void pickNode(std::uint32_t node);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  QWidget* buildToolbar();
  void markStale();
  void rebuildIfStale();
  void onTreesBuilt(CallTreeViews built);
  void showTrees();
  void applyOptions();
  void fillThreads();
  void onZoom(std::uint32_t node);
  void onTreeRowPicked(const QModelIndex& proxyIndex);
  void revealName(const QModelIndex& index);
  void updateSearchLabel();
  const calltree::CallTree* shownTree() const;

  TraceSession* session_;
  FlameGraphWidget* flame_;
  QScrollArea* scroll_;
  QSplitter* split_;
  bool splitSized_ = false;
  QTreeView* treeView_;
  CallTreeModel* model_;
  QSortFilterProxyModel* proxy_;
  QComboBox* metric_;
  QComboBox* direction_;
  QComboBox* thread_;
  QCheckBox* icicle_;
  QLineEdit* search_;
  QLabel* searchInfo_;
  QLabel* scope_;
  QPushButton* zoomOut_;
  CallTreeViews views_;
  bool stale_ = true;
  LatestJob<CallTreeViews> job_;
};

}  // namespace gapscope::app
