// The gap list (analysis::rankGaps: device gaps by their idle time, stream
// gaps on demand, ranked by the device idle inside them) at least the
// session's minimum long, overlapping the session's selected time range
// when there is one and, when set, inside a duration range picked in the
// histogram, as a Qt model over analysis::GapAnalysis::gaps.
#pragma once

#include <QAbstractTableModel>
#include <QHash>

#include <memory>
#include <optional>
#include <vector>

#include "gapscope/analysis/gap_list.h"
#include "gapscope/analysis/gaps.h"

namespace gapscope::app {

class TraceSession;

class GapListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Start, Duration, DeviceIdle, Where, Cause, Hta, LaunchCall, TopCpuOp, Why, ColumnCount };

  explicit GapListModel(TraceSession* session, QObject* parent = nullptr);

  // Only gaps with lo <= dur < hi; nullopt shows all (above the minimum).
  void setDurationRange(std::optional<std::pair<TimeNs, TimeNs>> range);
  std::optional<std::pair<TimeNs, TimeNs>> durationRange() const { return range_; }
  // Lists each stream's gaps too (off: the whole device's gaps only).
  void setStreamGaps(bool shown);
  bool streamGaps() const { return streams_; }
  std::uint32_t gapIndex(int row) const;
  int rowOfGap(std::uint32_t gap) const;  // -1 when not listed

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void rebuild();
  QString why(std::uint32_t gap) const;

  TraceSession* session_;
  std::vector<analysis::RankedGap> rows_;  // in rank order
  std::vector<int> rowOfGap_;               // per gap index: its row, -1 when not listed
  std::optional<std::pair<TimeNs, TimeNs>> range_;
  bool streams_ = false;
  mutable QHash<std::uint32_t, QString> whyCache_;  // explainGap() builds text: only for rows shown
};

}  // namespace gapscope::app
