#include "models/gap_list_model.h"

#include <algorithm>

#include "gapscope/format/duration.h"
#include "models/table_format.h"
#include "trace_session.h"

namespace gapscope::app {

GapListModel::GapListModel(TraceSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
  connect(session_, &TraceSession::traceChanged, this, [this] {
    range_.reset();
    rebuild();
  });
  connect(session_, &TraceSession::gapOverlayChanged, this, &GapListModel::rebuild);
  connect(session_, &TraceSession::rangeChanged, this, &GapListModel::rebuild);
  rebuild();
}

void GapListModel::setDurationRange(std::optional<std::pair<TimeNs, TimeNs>> range) {
  range_ = range;
  rebuild();
}

void GapListModel::setStreamGaps(bool shown) {
  streams_ = shown;
  rebuild();
}

void GapListModel::rebuild() {
  beginResetModel();
  rows_.clear();
  rowOfGap_.clear();
  whyCache_.clear();
  if (session_->hasTrace()) {
    const analysis::GapListOptions options{streams_, session_->minGapNs(), range_, session_->range()};
    rows_ = analysis::rankGaps(session_->gaps(), session_->analysis().busy(), options);
    rowOfGap_.assign(session_->gaps().gaps.size(), -1);
    for (std::size_t r = 0; r < rows_.size(); ++r) rowOfGap_[rows_[r].gap] = static_cast<int>(r);
  }
  endResetModel();
}

std::uint32_t GapListModel::gapIndex(int row) const {
  return row >= 0 && static_cast<std::size_t>(row) < rows_.size() ? rows_[static_cast<std::size_t>(row)].gap
                                                                   : kNoIndex;
}

int GapListModel::rowOfGap(std::uint32_t gap) const { return gap < rowOfGap_.size() ? rowOfGap_[gap] : -1; }

int GapListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int GapListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString GapListModel::why(std::uint32_t gap) const {
  auto it = whyCache_.find(gap);
  if (it == whyCache_.end()) {
    it = whyCache_.insert(gap, QString::fromStdString(analysis::explainGap(session_->trace(), session_->gaps().gaps[gap])));
  }
  return *it;
}

QVariant GapListModel::data(const QModelIndex& index, int role) const {
  const std::uint32_t gi = index.isValid() ? gapIndex(index.row()) : kNoIndex;
  if (gi == kNoIndex) return {};
  const Trace& t = session_->trace();
  const auto& g = session_->gaps().gaps[gi];
  const analysis::RankedGap& ranked = rows_[static_cast<std::size_t>(index.row())];
  if (role == Qt::TextAlignmentRole) {
    return index.column() <= DeviceIdle ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                        : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole && index.column() == DeviceIdle && g.stream >= 0)
    return ranked.deviceBusy() ? tr("Another stream kept the GPU busy all through this gap: no GPU time was lost.")
                               : tr("The part of this stream gap during which the whole GPU sat idle.");
  if (role == Qt::ToolTipRole && index.column() == Why) return why(gi);
  const bool sort = role == kSortRole;
  if (role != Qt::DisplayRole && !sort) return {};
  switch (index.column()) {
    case Start: {
      const TimeNs rel = g.start - session_->layout().contentStart();
      return sort ? QVariant(static_cast<qlonglong>(rel))
                  : QVariant(QString::fromStdString(format::formatTimeLabel(rel, 1000, 1000000)));
    }
    case Duration: return durationCell(g.dur, sort);
    case DeviceIdle: return durationCell(ranked.deviceIdle, sort);
    case Where: {
      const QString where = g.stream >= 0 ? tr("GPU %1 stream %2").arg(g.device).arg(g.stream) : tr("GPU %1").arg(g.device);
      if (sort) return QVariant(static_cast<qlonglong>(g.device) * (1LL << 40) + g.stream + 1);
      return where;
    }
    case Cause: {
      const QString cause = QString::fromUtf8(analysis::gapCauseLabel(g.cause));
      return g.stream >= 0 && ranked.deviceBusy() ? tr("%1 (device busy)").arg(cause) : cause;
    }
    case Hta: return QString::fromUtf8(analysis::htaIdleKindName(g.hta));
    case LaunchCall: return g.launch != kNoIndex ? utf8(t.str(t.slices[g.launch].name)) : QString();
    case TopCpuOp: {
      if (g.cpuOpsCount == 0) return QString();
      const auto& op = session_->gaps().cpuOps[g.cpuOpsBegin];
      return op.isUntraced ? tr("(untraced)") : utf8(t.str(op.name));
    }
    case Why: return why(gi);
    default: return {};
  }
}

QVariant GapListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kHeaders[ColumnCount] = {"Start", "Idle", "GPU idle", "Where", "Cause", "HTA class",
                                                    "Launch call", "Top CPU op", "Why"};
  return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

}  // namespace gapscope::app
