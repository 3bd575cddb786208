#include "models/kernel_table_model.h"

#include "gapscope/model/trace.h"
#include "models/table_format.h"

namespace gapscope::app {

namespace {

QString dims(const std::array<std::int32_t, 3>& d) {
  if (d[0] == 0 && d[1] == 0 && d[2] == 0) return {};
  return QStringLiteral("[%1, %2, %3]").arg(d[0]).arg(d[1]).arg(d[2]);
}

}  // namespace

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setTable(std::shared_ptr<const analysis::KernelTable> table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
}

const analysis::KernelRow* KernelTableModel::kernelRow(int row) const {
  if (!table_ || row < 0 || static_cast<std::size_t>(row) >= table_->rows.size()) return nullptr;
  return &table_->rows[static_cast<std::size_t>(row)];
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
  const analysis::KernelRow* r = index.isValid() ? kernelRow(index.row()) : nullptr;
  if (!r) return {};
  if (role == Qt::TextAlignmentRole) {
    return index.column() <= Kind ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole && index.column() == Name) return QString::fromStdString(r->name);
  if (role == Qt::ToolTipRole && r->configVaries && (index.column() == Grid || index.column() == Block)) {
    return tr("Calls used more than one launch configuration; this is the first one.");
  }
  const bool sort = role == kSortRole;
  if (role != Qt::DisplayRole && !sort) return {};
  switch (index.column()) {
    case Name: return QString::fromStdString(r->name);
    case Kind: return QString::fromUtf8(sliceKindName(r->kind));
    case Calls: return sort ? QVariant(static_cast<qlonglong>(r->calls)) : QVariant(QString::number(r->calls));
    case Total: return durationCell(r->total, sort);
    case PctGpu: return percentCell(r->pctGpu, sort);
    case Avg: return durationCell(r->avg(), sort);
    case Min: return durationCell(r->min, sort);
    case Max: return durationCell(r->max, sort);
    case StdDev: return durationCell(static_cast<TimeNs>(r->stdDevNs), sort);
    case Grid: return sort ? QVariant(static_cast<qlonglong>(r->grid[0]) * r->grid[1] * r->grid[2]) : QVariant(dims(r->grid));
    case Block: return sort ? QVariant(static_cast<qlonglong>(r->block[0]) * r->block[1] * r->block[2]) : QVariant(dims(r->block));
    case Registers:
      return sort ? QVariant(r->registersPerThread)
                  : (r->registersPerThread >= 0 ? QVariant(QString::number(r->registersPerThread)) : QVariant(QString()));
    case SharedMem:
      return sort ? QVariant(static_cast<qlonglong>(r->sharedMemory))
                  : (r->sharedMemory >= 0 ? QVariant(QString::number(r->sharedMemory)) : QVariant(QString()));
    case Occupancy:
      return sort || r->occupancyPct >= 0 ? percentCell(r->occupancyPct, sort) : QVariant(QString());
    default: return {};
  }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kHeaders[ColumnCount] = {"Name", "Kind", "Calls", "Total", "% of GPU time", "Avg", "Min",
                                                    "Max", "Std dev", "Grid", "Block", "Registers", "Shared mem (B)",
                                                    "Occupancy"};
  return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

}  // namespace gapscope::app
