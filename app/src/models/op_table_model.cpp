#include "models/op_table_model.h"

#include "models/table_format.h"

#include "gapscope/format/number.h"

namespace gapscope::app {

OpTableModel::OpTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpTableModel::setTable(std::shared_ptr<const analysis::OpTable> table, bool groupedByShapes) {
  beginResetModel();
  table_ = std::move(table);
  grouped_ = groupedByShapes;
  endResetModel();
}

const analysis::OpRow* OpTableModel::opRow(int row) const {
  if (!table_ || row < 0 || static_cast<std::size_t>(row) >= table_->rows.size()) return nullptr;
  return &table_->rows[static_cast<std::size_t>(row)];
}

int OpTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows.size());
}

int OpTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpTableModel::data(const QModelIndex& index, int role) const {
  const analysis::OpRow* r = index.isValid() ? opRow(index.row()) : nullptr;
  if (!r) return {};
  const auto& t = *table_;
  if (role == Qt::TextAlignmentRole) {
    return index.column() <= Shapes ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                    : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole && (index.column() == Name || index.column() == Shapes)) {
    return index.column() == Name ? QString::fromStdString(r->name) : QString::fromStdString(r->inputShapes);
  }
  // A GPU annotation's range (gpu_user_annotation) spans the idle time
  // between its kernels, so its "share" of the GPU time can pass 100 %
  // (1132 % in a real trace). PyTorch prints that; the table shows a dash and
  // says why (the CLI's and the reports' tables keep PyTorch's figure).
  const bool devicePct = index.column() == SelfDevicePct || index.column() == DeviceTotalPct;
  if (devicePct && r->annotation && r->device == analysis::OpDevice::Gpu) {
    const double pct = index.column() == SelfDevicePct ? t.selfDevicePct(*r) : t.deviceTotalPct(*r);
    if (role == kSortRole) return pct;
    if (role == Qt::DisplayRole) return QStringLiteral("—");
    if (role == Qt::ToolTipRole) {
      return tr("An annotation's range on the GPU includes the idle time between its kernels, so it is "
                "not a share of the GPU's time (PyTorch prints %1 here)")
          .arg(utf8(format::formatPercent(pct, format::PercentStyle::AppTable)));
    }
    return {};
  }
  const bool sort = role == kSortRole;
  if (role != Qt::DisplayRole && !sort) return {};
  switch (index.column()) {
    case Name: return QString::fromStdString(r->name);
    case Device: return QString::fromUtf8(analysis::opDeviceName(r->device));
    case Shapes: return QString::fromStdString(r->inputShapes);
    case Calls: return sort ? QVariant(static_cast<qlonglong>(r->calls)) : QVariant(QString::number(r->calls));
    case SelfCpu: return durationCell(r->selfCpu, sort);
    case SelfCpuPct: return percentCell(t.selfCpuPct(*r), sort);
    case CpuTotal: return durationCell(r->cpuTotal, sort);
    case CpuTotalPct: return percentCell(t.cpuTotalPct(*r), sort);
    case CpuAvg: return durationCell(r->cpuAvg(), sort);
    case SelfDevice: return durationCell(r->selfDevice, sort);
    case SelfDevicePct: return percentCell(t.selfDevicePct(*r), sort);
    case DeviceTotal: return durationCell(r->deviceTotal, sort);
    case DeviceTotalPct: return percentCell(t.deviceTotalPct(*r), sort);
    case DeviceAvg: return durationCell(r->deviceAvg(), sort);
    default: return {};
  }
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kHeaders[ColumnCount] = {
      "Name", "Device", "Input Shapes", "# of Calls", "Self CPU", "Self CPU %", "CPU total", "CPU total %",
      "CPU time avg", "Self CUDA", "Self CUDA %", "CUDA total", "CUDA total %", "CUDA time avg"};
  return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

}  // namespace gapscope::app
