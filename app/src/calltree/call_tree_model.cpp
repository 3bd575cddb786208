#include "calltree/call_tree_model.h"

#include "calltree/call_tree_text.h"
#include "models/table_format.h"

namespace gapscope::app {
namespace {

// Thread rows carry this bit in their internal id; node rows the node + 1.
constexpr quintptr kThreadBit = quintptr(1) << (sizeof(quintptr) * 8 - 1);

}  // namespace

CallTreeModel::CallTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void CallTreeModel::setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const calltree::CallTree> tree,
                            bool bottomUp) {
  beginResetModel();
  bottomUp_ = bottomUp;
  trace_ = std::move(trace);
  tree_ = std::move(tree);
  rowInParent_.assign(tree_ ? tree_->nodes.size() : 0, 0);
  if (tree_) {
    for (const calltree::CallNode& n : tree_->nodes) {
      for (std::size_t r = 0; r < n.children.size(); ++r) rowInParent_[n.children[r]] = static_cast<std::uint32_t>(r);
    }
    for (const calltree::ThreadCalls& t : tree_->threads) {
      for (std::size_t r = 0; r < t.roots.size(); ++r) rowInParent_[t.roots[r]] = static_cast<std::uint32_t>(r);
    }
  }
  endResetModel();
}

void CallTreeModel::setMetric(calltree::Metric metric) {
  // Every row's figures change, and with them the order a sort proxy keeps.
  emit layoutAboutToBeChanged();
  metric_ = metric;
  emit layoutChanged();
  emit headerDataChanged(Qt::Horizontal, Total, Self);
}

std::uint32_t CallTreeModel::nodeOf(const QModelIndex& index) const {
  if (!index.isValid() || (index.internalId() & kThreadBit)) return kNoIndex;
  return static_cast<std::uint32_t>(index.internalId() - 1);
}

std::uint32_t CallTreeModel::threadOf(const QModelIndex& index) const {
  if (!index.isValid()) return kNoIndex;
  if (index.internalId() & kThreadBit) return static_cast<std::uint32_t>(index.internalId() & ~kThreadBit);
  return tree_->nodes[nodeOf(index)].thread;
}

QModelIndex CallTreeModel::indexOfNode(std::uint32_t node) const {
  if (!tree_ || node >= tree_->nodes.size()) return {};
  return createIndex(static_cast<int>(rowInParent_[node]), 0, quintptr(node) + 1);
}

const std::vector<std::uint32_t>& CallTreeModel::childrenOf(const QModelIndex& parent) const {
  if (!parent.isValid()) return noChildren_;
  if (parent.internalId() & kThreadBit) return tree_->threads[threadOf(parent)].roots;
  return tree_->nodes[nodeOf(parent)].children;
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!tree_ || row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) {
    if (row >= static_cast<int>(tree_->threads.size())) return {};
    return createIndex(row, column, kThreadBit | quintptr(row));
  }
  const std::vector<std::uint32_t>& children = childrenOf(parent);
  if (row >= static_cast<int>(children.size())) return {};
  return createIndex(row, column, quintptr(children[row]) + 1);
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || (child.internalId() & kThreadBit)) return {};
  const calltree::CallNode& n = tree_->nodes[nodeOf(child)];
  if (n.parent != kNoIndex) return indexOfNode(n.parent);
  return createIndex(static_cast<int>(n.thread), 0, kThreadBit | quintptr(n.thread));
}

int CallTreeModel::rowCount(const QModelIndex& parent) const {
  if (!tree_ || parent.column() > 0) return 0;
  if (!parent.isValid()) return static_cast<int>(tree_->threads.size());
  return static_cast<int>(childrenOf(parent).size());
}

int CallTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

calltree::Figure CallTreeModel::figureOf(const QModelIndex& index) const {
  if (index.internalId() & kThreadBit) {
    const calltree::Figure sum = tree_->threads[threadOf(index)].totals(tree_->nodes, metric_);
    return bottomUp_ ? calltree::Figure{sum.self, sum.self} : sum;
  }
  return tree_->nodes[nodeOf(index)].figure(metric_);
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !tree_ || (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole &&
                                     role != Qt::TextAlignmentRole)) {
    return {};
  }
  const bool sort = role == kSortRole;
  const bool isThread = index.internalId() & kThreadBit;
  if (role == Qt::TextAlignmentRole) {
    return index.column() == Name ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole) return isThread ? QVariant() : QVariant(nodeFiguresHtml(tree_->nodes[nodeOf(index)]));
  const calltree::Figure f = figureOf(index);
  switch (index.column()) {
    case Name:
      if (isThread) return utf8(calltree::threadLabel(*trace_, trace_->tracks[tree_->threads[threadOf(index)].track]));
      return utf8(calltree::nodeName(*trace_, tree_->nodes[nodeOf(index)]));
    case Total: return sort ? QVariant::fromValue<qlonglong>(f.total) : QVariant(metricValueText(metric_, f.total));
    case Self: return sort ? QVariant::fromValue<qlonglong>(f.self) : QVariant(metricValueText(metric_, f.self));
    case Calls: {
      if (isThread) return {};
      const auto calls = tree_->nodes[nodeOf(index)].calls;
      return sort ? QVariant::fromValue<qulonglong>(calls) : QVariant(QString::number(calls));
    }
    default: return {};
  }
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && (section == Total || section == Self)) {
    return section == Total ? tr("%1 of the frame and everything it called").arg(metricLabel(metric_))
                            : tr("%1 of the frame alone").arg(metricLabel(metric_));
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Frame");
    case Total: return tr("Total");
    case Self: return tr("Self");
    case Calls: return tr("Calls");
    default: return {};
  }
}

}  // namespace gapscope::app
