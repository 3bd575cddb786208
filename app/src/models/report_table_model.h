// Any report::Table (the comparison's runs, kernels, kernel groups and
// operators) as a Qt model: the same columns the html, md, csv and CLI
// outputs show, text through report::cellText, raw numbers under kSortRole.
#pragma once

#include <QAbstractTableModel>

#include "gapscope/report/report.h"

namespace gapscope::app {

class ReportTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit ReportTableModel(QObject* parent = nullptr);

  void setTable(report::Table table);
  const report::Table& table() const { return table_; }
  // The column with this id, or -1.
  int column(std::string_view id) const { return table_.column(id); }
  // The text of a text cell ("" otherwise or out of range).
  std::string text(int row, std::string_view columnId) const;
  // The integer in a cell (-1 when none or out of range).
  std::int64_t integer(int row, std::string_view columnId) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const report::Cell* cell(int row, int column) const;
  report::Table table_;
};

}  // namespace gapscope::app
