#include "models/report_table_model.h"

#include "models/table_format.h"

namespace gapscope::app {

ReportTableModel::ReportTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ReportTableModel::setTable(report::Table table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
}

const report::Cell* ReportTableModel::cell(int row, int column) const {
  if (row < 0 || column < 0 || static_cast<std::size_t>(row) >= table_.rows.size()) return nullptr;
  const auto& cells = table_.rows[static_cast<std::size_t>(row)];
  return static_cast<std::size_t>(column) < cells.size() ? &cells[static_cast<std::size_t>(column)] : nullptr;
}

std::string ReportTableModel::text(int row, std::string_view columnId) const {
  const report::Cell* c = cell(row, table_.column(columnId));
  const auto* s = c ? std::get_if<std::string>(c) : nullptr;
  return s ? *s : std::string();
}

std::int64_t ReportTableModel::integer(int row, std::string_view columnId) const {
  const report::Cell* c = cell(row, table_.column(columnId));
  const auto* i = c ? std::get_if<std::int64_t>(c) : nullptr;
  return i ? *i : -1;
}

int ReportTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const {
  const report::Cell* c = index.isValid() ? cell(index.row(), index.column()) : nullptr;
  if (!c) return {};
  const report::Column& column = table_.columns[static_cast<std::size_t>(index.column())];
  const bool numeric = column.kind != report::ColumnKind::Text;
  switch (role) {
    case Qt::DisplayRole: return utf8(report::cellText(column, *c));
    case Qt::ToolTipRole: {
      const auto* s = std::get_if<std::string>(c);
      return s ? utf8(*s) : QVariant();
    }
    case Qt::TextAlignmentRole:
      return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case kSortRole:
      if (const auto* s = std::get_if<std::string>(c)) return utf8(*s);
      if (const auto* i = std::get_if<std::int64_t>(c)) return static_cast<qlonglong>(*i);
      if (const auto* d = std::get_if<double>(c)) return *d;
      return QVariant();
    default: return {};
  }
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || static_cast<std::size_t>(section) >= table_.columns.size())
    return {};
  if (role == Qt::DisplayRole) return utf8(table_.columns[static_cast<std::size_t>(section)].header);
  return {};
}

}  // namespace gapscope::app
