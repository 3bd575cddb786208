// The operator table (PyTorch's key_averages columns) as a Qt model: a thin
// adapter over analysis::OpTable.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "gapscope/analysis/ops_table.h"

namespace gapscope::app {

class OpTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name, Device, Shapes, Calls, SelfCpu, SelfCpuPct, CpuTotal, CpuTotalPct, CpuAvg,
    SelfDevice, SelfDevicePct, DeviceTotal, DeviceTotalPct, DeviceAvg, ColumnCount
  };

  explicit OpTableModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const analysis::OpTable> table, bool groupedByShapes);
  bool groupedByShapes() const { return grouped_; }
  const analysis::OpRow* opRow(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const analysis::OpTable> table_;
  bool grouped_ = false;
};

}  // namespace gapscope::app
