// A call tree (top-down, or the bottom-up tree's) as a tree table: the
// threads at the top, their frames below, with the chosen metric's total
// and self and the calls. Raw numbers under kSortRole for a sort proxy.
#pragma once

#include <QAbstractItemModel>

#include <memory>

#include "gapscope/calltree/call_tree.h"

namespace gapscope::app {

class CallTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { Name, Total, Self, Calls, ColumnCount };

  explicit CallTreeModel(QObject* parent = nullptr);

  // `bottomUp`: the tree is a bottom-up one, whose roots' totals overlap;
  // a thread row then shows the sum of its frames' self values.
  void setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const calltree::CallTree> tree,
               bool bottomUp = false);
  void setMetric(calltree::Metric metric);
  calltree::Metric metric() const { return metric_; }
  const calltree::CallTree* tree() const { return tree_.get(); }

  // The node of an index; kNoIndex for a thread row (or an invalid index).
  std::uint32_t nodeOf(const QModelIndex& index) const;
  std::uint32_t threadOf(const QModelIndex& index) const;
  QModelIndex indexOfNode(std::uint32_t node) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const std::vector<std::uint32_t>& childrenOf(const QModelIndex& parent) const;
  calltree::Figure figureOf(const QModelIndex& index) const;

  std::shared_ptr<const Trace> trace_;
  std::shared_ptr<const calltree::CallTree> tree_;
  calltree::Metric metric_ = calltree::Metric::Cpu;
  bool bottomUp_ = false;
  std::vector<std::uint32_t> rowInParent_;  // per node
  std::vector<std::uint32_t> noChildren_;
};

}  // namespace gapscope::app
