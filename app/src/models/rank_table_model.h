// The rank table of the Ranks window (per rank: steps, median step and own
// time, GPU busy, collective time split into wait and transfer, idle by
// cause, straggling steps) as a Qt model over ranks::RanksAnalysis::ranks.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "gapscope/ranks/stragglers.h"

namespace gapscope::app {

class RankTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Rank, File, Steps, StepTime, OwnTime, GpuBusy, Collective, Wait, Transfer,
    IdleLaunchOverhead, IdleSynchronization, IdleQueued, IdleOther, StragglingSteps,
    ColumnCount
  };

  explicit RankTableModel(QObject* parent = nullptr);

  // `analysis` is kept alive by the model (an aliasing pointer into LoadedRanks).
  void setAnalysis(std::shared_ptr<const ranks::RanksAnalysis> analysis);
  const ranks::RankRow* rankRow(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant cell(const ranks::RankRow& r, int column, bool sort) const;

  std::shared_ptr<const ranks::RanksAnalysis> analysis_;
};

}  // namespace gapscope::app
