#include "models/rank_table_model.h"

#include <QFont>
#include <QFileInfo>

#include <algorithm>

#include "models/table_format.h"

namespace gapscope::app {

namespace {

QVariant countCell(std::uint64_t n, bool sort) {
  return sort ? QVariant(static_cast<qulonglong>(n)) : QVariant(QString::number(n));
}

}  // namespace

RankTableModel::RankTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankTableModel::setAnalysis(std::shared_ptr<const ranks::RanksAnalysis> analysis) {
  beginResetModel();
  analysis_ = std::move(analysis);
  endResetModel();
}

const ranks::RankRow* RankTableModel::rankRow(int row) const {
  if (!analysis_ || row < 0 || static_cast<std::size_t>(row) >= analysis_->ranks.size()) return nullptr;
  return &analysis_->ranks[static_cast<std::size_t>(row)];
}

int RankTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !analysis_ ? 0 : static_cast<int>(analysis_->ranks.size());
}

int RankTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RankTableModel::cell(const ranks::RankRow& r, int column, bool sort) const {
  using analysis::GapCause;
  switch (column) {
    case Rank: return sort ? QVariant(static_cast<qlonglong>(r.rank)) : QVariant(QString::number(r.rank));
    case File: return QFileInfo(QString::fromStdString(r.file)).fileName();
    case Steps: return countCell(r.steps, sort);
    case StepTime: return durationCell(r.stepTimeNs, sort);
    case OwnTime: return durationCell(r.ownTimeNs, sort);
    case GpuBusy: return percentCell(r.gpuBusyPct, sort);
    case Collective: return durationCell(r.collectiveNs, sort);
    case Wait: return durationCell(r.waitNs, sort);
    case Transfer: return durationCell(r.transferNs, sort);
    case IdleLaunchOverhead: return durationCell(r.idle[GapCause::LaunchOverhead], sort);
    case IdleSynchronization: return durationCell(r.idle[GapCause::Synchronization], sort);
    case IdleQueued: return durationCell(r.idle[GapCause::Queued], sort);
    case IdleOther: return durationCell(r.idle[GapCause::Other], sort);
    case StragglingSteps:
      if (sort || !r.consistentlySlow) return countCell(r.stragglingSteps, sort);
      return tr("%1, consistently").arg(r.stragglingSteps);
    default: return {};
  }
}

QVariant RankTableModel::data(const QModelIndex& index, int role) const {
  const ranks::RankRow* r = index.isValid() ? rankRow(index.row()) : nullptr;
  if (!r) return {};
  if (role == Qt::TextAlignmentRole) {
    return index.column() == File ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole && index.column() == File) return QString::fromStdString(r->file);
  if (role == Qt::FontRole) {
    const auto& s = analysis_->stragglers;
    if (std::find(s.begin(), s.end(), r->rank) != s.end()) {
      QFont bold;
      bold.setBold(true);
      return bold;
    }
  }
  if (role != Qt::DisplayRole && role != kSortRole) return {};
  return cell(*r, index.column(), role == kSortRole);
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const kHeaders[ColumnCount] = {
      "Rank", "File", "Steps", "Median step", "Median own time", "GPU busy", "Collectives", "Wait", "Transfer",
      "Idle: launch", "Idle: sync", "Idle: queued", "Idle: other", "Straggling steps"};
  static const char* const kTips[ColumnCount] = {
      "The rank (distributedInfo, else the number in the file's name)",
      "The rank's trace file",
      "Steps in the rank's trace",
      "Median step time (the lower median)",
      "Median own time: step time less the wait for other ranks in collectives",
      "GPU busy over the GPU's active window, all steps",
      "Time in collective kernels (NCCL, gloo), all steps",
      "Of the collective time: waiting for the other ranks to arrive",
      "Of the collective time: the transfer itself (collective time less wait)",
      "GPU idle blamed on launch overhead, all steps",
      "GPU idle blamed on synchronisation, all steps",
      "GPU idle with work queued, all steps",
      "GPU idle for other reasons, all steps",
      "Steps in which this rank was the slowest by the straggler rule (over the median rank by 5 %, 10 µs and "
      "three times the steps' usual excess); \"consistently\": its own time in a typical step is over the median "
      "rank's by 10 %"};
  if (section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kHeaders[section]);
  if (role == Qt::ToolTipRole) return tr(kTips[section]);
  return {};
}

}  // namespace gapscope::app
