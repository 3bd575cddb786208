#include "ranks/rank_grid.h"

#include <QObject>

#include <algorithm>

#include "gapscope/format/number.h"
#include "models/table_format.h"

namespace gapscope::app {

namespace {

enum class MetricUnit { Duration, Percent, Count };

MetricUnit unitOf(RankMetric metric) {
  switch (metric) {
    case RankMetric::GpuBusy: return MetricUnit::Percent;
    case RankMetric::Kernels: return MetricUnit::Count;
    default: return MetricUnit::Duration;
  }
}

}  // namespace

QString metricLabel(RankMetric metric) {
  switch (metric) {
    case RankMetric::StepTime: return QObject::tr("step time");
    case RankMetric::OwnTime: return QObject::tr("own time (step time less collective wait)");
    case RankMetric::GpuBusy: return QObject::tr("GPU busy");
    case RankMetric::LaunchOverheadIdle: return QObject::tr("GPU idle by launch overhead");
    case RankMetric::CollectiveWait: return QObject::tr("collective wait");
    case RankMetric::CollectiveTransfer: return QObject::tr("collective transfer");
    case RankMetric::Kernels: return QObject::tr("kernels");
  }
  return {};
}

QString metricText(RankMetric metric, double value) {
  switch (unitOf(metric)) {
    case MetricUnit::Duration: return durationText(static_cast<TimeNs>(value));
    case MetricUnit::Percent: return percentCell(value, false).toString();
    case MetricUnit::Count: return QString::number(static_cast<qlonglong>(value));
  }
  return {};
}

QString metricExactText(RankMetric metric, double value) {
  if (unitOf(metric) != MetricUnit::Duration) return metricText(metric, value);
  const auto ns = static_cast<TimeNs>(value);
  return QStringLiteral("%1 (%2 µs)").arg(durationText(ns), utf8(format::exactUs(ns)));
}

RankGrid::RankGrid(std::shared_ptr<const LoadedRanks> ranks) : ranks_(std::move(ranks)) {
  const ranks::RanksAnalysis& a = ranks_->analysis;
  for (const auto& r : a.ranks) rankNumbers_.push_back(r.rank);
  for (const auto& s : a.steps) stepNumbers_.push_back(s.step);
  cells_.resize(static_cast<std::size_t>(rows()) * static_cast<std::size_t>(columns()));
  auto cellAt = [&](int row, int column) -> RankCell& {
    return cells_[static_cast<std::size_t>(row) * stepNumbers_.size() + static_cast<std::size_t>(column)];
  };
  for (int row = 0; row < rows(); ++row) {
    for (const ranks::RankStep& s : ranks_->tables[static_cast<std::size_t>(row)].steps) {
      const int column = columnOfStep(s.step);
      if (column >= 0) cellAt(row, column).step = &s;
    }
  }
  for (const ranks::RankStepWait& w : a.waits) {
    const int row = rowOfRank(w.rank), column = columnOfStep(w.step);
    if (row >= 0 && column >= 0) cellAt(row, column).waitNs = w.waitNs;
  }
  for (int column = 0; column < columns(); ++column) {
    const ranks::StepRow& s = a.steps[static_cast<std::size_t>(column)];
    const int row = s.straggling ? rowOfRank(s.slowestRank) : -1;
    if (row >= 0) cellAt(row, column).straggling = true;
  }
}

namespace {

// Both number lists are sorted (ranks by rank, steps by step number).
int indexIn(const std::vector<std::int64_t>& sorted, std::int64_t value) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), value);
  return it == sorted.end() || *it != value ? -1 : static_cast<int>(it - sorted.begin());
}

}  // namespace

int RankGrid::rowOfRank(std::int64_t rank) const { return indexIn(rankNumbers_, rank); }

int RankGrid::columnOfStep(std::int64_t step) const { return indexIn(stepNumbers_, step); }

QString RankGrid::file(int row) const {
  return QString::fromStdString(ranks_->tables[static_cast<std::size_t>(row)].file);
}

const RankCell& RankGrid::cell(int row, int column) const {
  return cells_[static_cast<std::size_t>(row) * stepNumbers_.size() + static_cast<std::size_t>(column)];
}

std::optional<double> RankGrid::value(RankMetric metric, int row, int column) const {
  const RankCell& c = cell(row, column);
  if (!c.step) return std::nullopt;
  const ranks::RankStep& s = *c.step;
  switch (metric) {
    case RankMetric::StepTime: return static_cast<double>(s.timeNs);
    case RankMetric::OwnTime: return static_cast<double>(std::max<TimeNs>(0, s.timeNs - c.waitNs));
    case RankMetric::GpuBusy:
      if (s.activeNs <= 0) return std::nullopt;
      return 100.0 * analysis::busyShare(s.busyNs, s.activeNs);
    case RankMetric::LaunchOverheadIdle: return static_cast<double>(s.idle[analysis::GapCause::LaunchOverhead]);
    case RankMetric::CollectiveWait: return static_cast<double>(c.waitNs);
    case RankMetric::CollectiveTransfer: return static_cast<double>(s.collectiveNs - c.waitNs);
    case RankMetric::Kernels: return static_cast<double>(s.kernels);
  }
  return std::nullopt;
}

bool RankGrid::isWarmUp(int column) const { return ranks_->analysis.steps[static_cast<std::size_t>(column)].warmUp; }

std::pair<double, double> RankGrid::range(RankMetric metric) const {
  bool any = false;
  double lo = 0, hi = 0;
  bool allWarmUp = true;
  for (int column = 0; column < columns(); ++column) allWarmUp = allWarmUp && isWarmUp(column);
  for (int row = 0; row < rows(); ++row) {
    for (int column = 0; column < columns(); ++column) {
      if (isWarmUp(column) && !allWarmUp) continue;
      const auto v = value(metric, row, column);
      if (!v) continue;
      lo = any ? std::min(lo, *v) : *v;
      hi = any ? std::max(hi, *v) : *v;
      any = true;
    }
  }
  return {lo, hi};
}

bool RankGrid::hasWarmUp() const {
  for (int column = 0; column < columns(); ++column) {
    if (isWarmUp(column)) return true;
  }
  return false;
}

}  // namespace gapscope::app
