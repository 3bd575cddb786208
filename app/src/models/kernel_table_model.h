// The kernel table (per kernel name: calls, durations, share of GPU time,
// launch configuration) as a Qt model over analysis::KernelTable.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "gapscope/analysis/kernel_table.h"

namespace gapscope::app {

class KernelTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name, Kind, Calls, Total, PctGpu, Avg, Min, Max, StdDev, Grid, Block, Registers, SharedMem, Occupancy,
    ColumnCount
  };

  explicit KernelTableModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const analysis::KernelTable> table);
  const analysis::KernelRow* kernelRow(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const analysis::KernelTable> table_;
};

}  // namespace gapscope::app
