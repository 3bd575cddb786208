// The tables of two runs of a distributed job compared (ranks/set_compare.h):
// one row per rank, or per step, with each figure of run A beside run B's;
// "—" where a run has no such rank or step.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "gapscope/ranks/set_compare.h"

namespace gapscope::app {

class RankCompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum class Rows { Ranks, Steps };
  enum RankColumn { Rank, StepTimeA, StepTimeB, OwnTimeA, OwnTimeB, GpuBusyA, GpuBusyB, WaitA, WaitB,
                    StragglingA, StragglingB, RankColumnCount };
  enum StepColumn { Step, StepMedianA, StepMedianB, SlowestA, SlowestB, SlowestOwnA, SlowestOwnB,
                    JudgedA, JudgedB, StepColumnCount };

  RankCompareModel(Rows rows, QObject* parent = nullptr);

  // `comparison` is kept alive by the model.
  void setComparison(std::shared_ptr<const ranks::RankSetComparison> comparison);
  const ranks::RankChange* rankChange(int row) const;
  const ranks::StepChange* stepChange(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant rankCell(const ranks::RankChange& r, int column, bool sort) const;
  QVariant stepCell(const ranks::StepChange& s, int column, bool sort) const;
  bool isStraggler(std::int64_t rank) const;
  int columns() const;

  Rows rows_;
  std::shared_ptr<const ranks::RankSetComparison> comparison_;
};

}  // namespace gapscope::app
