#include "models/rank_compare_model.h"

#include <QFont>

#include <algorithm>

#include "models/table_format.h"

namespace gapscope::app {

namespace {

using ranks::RankRow;
using ranks::StepRow;

QVariant numberCell(std::int64_t n, bool sort) {
  return sort ? QVariant(static_cast<qlonglong>(n)) : QVariant(QString::number(n));
}

// A figure of one run's row, or "—" (sorted last) when the run has none.
template <typename Row, typename Cell>
QVariant sideCell(const std::optional<Row>& row, bool sort, Cell cell) {
  if (row) return cell(*row);
  return sort ? QVariant() : QVariant(QStringLiteral("—"));
}

QVariant straggling(const RankRow& r, bool sort) {
  if (sort || !r.consistentlySlow) return numberCell(static_cast<std::int64_t>(r.stragglingSteps), sort);
  return QObject::tr("%1, consistently").arg(r.stragglingSteps);
}

QVariant judged(const StepRow& s) {
  return s.warmUp ? QObject::tr("warm-up") : s.straggling ? QObject::tr("straggling") : QString();
}

}  // namespace

RankCompareModel::RankCompareModel(Rows rows, QObject* parent) : QAbstractTableModel(parent), rows_(rows) {}

void RankCompareModel::setComparison(std::shared_ptr<const ranks::RankSetComparison> comparison) {
  beginResetModel();
  comparison_ = std::move(comparison);
  endResetModel();
}

const ranks::RankChange* RankCompareModel::rankChange(int row) const {
  if (!comparison_ || rows_ != Rows::Ranks || row < 0 || static_cast<std::size_t>(row) >= comparison_->ranks.size())
    return nullptr;
  return &comparison_->ranks[static_cast<std::size_t>(row)];
}

const ranks::StepChange* RankCompareModel::stepChange(int row) const {
  if (!comparison_ || rows_ != Rows::Steps || row < 0 || static_cast<std::size_t>(row) >= comparison_->steps.size())
    return nullptr;
  return &comparison_->steps[static_cast<std::size_t>(row)];
}

int RankCompareModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !comparison_) return 0;
  return static_cast<int>(rows_ == Rows::Ranks ? comparison_->ranks.size() : comparison_->steps.size());
}

int RankCompareModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return columns();
}

QVariant RankCompareModel::rankCell(const ranks::RankChange& r, int column, bool sort) const {
  const auto& a = r.a;
  const auto& b = r.b;
  const auto stepTime = [sort](const RankRow& x) { return durationCell(x.stepTimeNs, sort); };
  const auto ownTime = [sort](const RankRow& x) { return durationCell(x.ownTimeNs, sort); };
  const auto busy = [sort](const RankRow& x) { return percentCell(x.gpuBusyPct, sort); };
  const auto wait = [sort](const RankRow& x) { return durationCell(ranks::perCountedStep(x.waitNs, x), sort); };
  const auto slow = [sort](const RankRow& x) { return straggling(x, sort); };
  switch (column) {
    case Rank: return numberCell(r.rank, sort);
    case StepTimeA: return sideCell(a, sort, stepTime);
    case StepTimeB: return sideCell(b, sort, stepTime);
    case OwnTimeA: return sideCell(a, sort, ownTime);
    case OwnTimeB: return sideCell(b, sort, ownTime);
    case GpuBusyA: return sideCell(a, sort, busy);
    case GpuBusyB: return sideCell(b, sort, busy);
    case WaitA: return sideCell(a, sort, wait);
    case WaitB: return sideCell(b, sort, wait);
    case StragglingA: return sideCell(a, sort, slow);
    case StragglingB: return sideCell(b, sort, slow);
    default: return {};
  }
}

QVariant RankCompareModel::stepCell(const ranks::StepChange& s, int column, bool sort) const {
  const auto& a = s.a;
  const auto& b = s.b;
  const auto median = [sort](const StepRow& x) { return durationCell(x.stepTimeMedianNs, sort); };
  const auto slowest = [sort](const StepRow& x) { return numberCell(x.slowestRank, sort); };
  const auto own = [sort](const StepRow& x) { return durationCell(x.slowestNs, sort); };
  switch (column) {
    case Step: return numberCell(s.step, sort);
    case StepMedianA: return sideCell(a, sort, median);
    case StepMedianB: return sideCell(b, sort, median);
    case SlowestA: return sideCell(a, sort, slowest);
    case SlowestB: return sideCell(b, sort, slowest);
    case SlowestOwnA: return sideCell(a, sort, own);
    case SlowestOwnB: return sideCell(b, sort, own);
    case JudgedA: return sideCell(a, sort, judged);
    case JudgedB: return sideCell(b, sort, judged);
    default: return {};
  }
}

int RankCompareModel::columns() const {
  return rows_ == Rows::Ranks ? static_cast<int>(RankColumnCount) : static_cast<int>(StepColumnCount);
}

bool RankCompareModel::isStraggler(std::int64_t rank) const {
  for (const auto& run : comparison_->runs) {
    if (std::find(run.stragglers.begin(), run.stragglers.end(), rank) != run.stragglers.end()) return true;
  }
  return false;
}

QVariant RankCompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !comparison_) return {};
  const auto* r = rankChange(index.row());
  const auto* s = stepChange(index.row());
  if (!r && !s) return {};
  if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && r && isStraggler(r->rank)) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  const bool sort = role == kSortRole;
  return r ? rankCell(*r, index.column(), sort) : stepCell(*s, index.column(), sort);
}

QVariant RankCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const kRankHeaders[RankColumnCount] = {
      "Rank", "Median step A", "Median step B", "Own time A", "Own time B", "GPU busy A", "GPU busy B",
      "Wait a step A", "Wait a step B", "Straggling A", "Straggling B"};
  static const char* const kRankTips[RankColumnCount] = {
      "The rank, paired by number across the two runs",
      "Run A: the rank's median step time (after the warm-up)", "Run B: the same",
      "Run A: median own time, step time less the wait for other ranks in collectives", "Run B: the same",
      "Run A: GPU busy over the GPU's active window, steps after the warm-up", "Run B: the same",
      "Run A: the rank's wait for the others in collectives, per step", "Run B: the same",
      "Run A: steps in which this rank was the slowest by the straggler rule; \"consistently\": slower in a typical "
      "step by 10 %",
      "Run B: the same"};
  static const char* const kStepHeaders[StepColumnCount] = {
      "Step", "Step time A", "Step time B", "Slowest rank A", "Slowest rank B", "Its own time A", "Its own time B",
      "A", "B"};
  static const char* const kStepTips[StepColumnCount] = {
      "The step number, paired across the two runs",
      "Run A: the median rank's step time", "Run B: the same",
      "Run A: the rank with the longest own time in the step", "Run B: the same",
      "Run A: that rank's own time", "Run B: the same",
      "Run A: a straggling step, or the warm-up (left out of every figure)", "Run B: the same"};
  const bool rankRows = rows_ == Rows::Ranks;
  if (section < 0 || section >= columns()) return {};
  if (role == Qt::DisplayRole) return tr(rankRows ? kRankHeaders[section] : kStepHeaders[section]);
  if (role == Qt::ToolTipRole) return tr(rankRows ? kRankTips[section] : kStepTips[section]);
  return {};
}

}  // namespace gapscope::app
