// The rank x step grid of the Ranks window's heat map: per (rank, step) the
// rank's figures of that step (RankStep) and its wait in the step's
// collectives, any metric of it as a number, and which cells are the
// straggling ones (a straggling step's slowest rank, StepRow::straggling).
// Rows are the analysis' ranks in rank order, columns its steps in order.
#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ranks/loaded_ranks.h"

namespace gapscope::app {

enum class RankMetric : int {
  StepTime,            // the step annotation's CPU duration
  OwnTime,             // step time less the collective wait
  GpuBusy,             // busy / active window, percent
  LaunchOverheadIdle,  // device idle blamed on launch overhead
  CollectiveWait,      // waiting for the other ranks in collectives
  CollectiveTransfer,  // collective time less the wait
  Kernels,             // kernels run in the step
};
inline constexpr int kRankMetricCount = 7;

// "step time", "own time", ...: the metric chooser and the legend.
QString metricLabel(RankMetric metric);
// A metric's value as text: durations and percentages through
// gapscope/format, counts as integers.
QString metricText(RankMetric metric, double value);
// The same with the exact figure where rounding hides it ("1.50 ms (1502.345 µs)").
QString metricExactText(RankMetric metric, double value);

struct RankCell {
  const ranks::RankStep* step = nullptr;  // nullptr: the rank has no such step
  TimeNs waitNs = 0;                      // its wait in the step's collectives
  bool straggling = false;                // the slowest rank of a straggling step
};

class RankGrid {
 public:
  RankGrid() = default;
  explicit RankGrid(std::shared_ptr<const LoadedRanks> ranks);

  int rows() const { return static_cast<int>(rankNumbers_.size()); }
  int columns() const { return static_cast<int>(stepNumbers_.size()); }
  std::int64_t rankNumber(int row) const { return rankNumbers_[static_cast<std::size_t>(row)]; }
  std::int64_t stepNumber(int column) const { return stepNumbers_[static_cast<std::size_t>(column)]; }
  const std::vector<std::int64_t>& rankNumbers() const { return rankNumbers_; }
  const std::vector<std::int64_t>& stepNumbers() const { return stepNumbers_; }
  // The row of a rank and the column of a step; -1 where the grid has none.
  int rowOfRank(std::int64_t rank) const;
  int columnOfStep(std::int64_t step) const;
  QString file(int row) const;
  const RankCell& cell(int row, int column) const;
  // Empty for a missing cell, and for GPU busy where the GPU did nothing.
  std::optional<double> value(RankMetric metric, int row, int column) const;
  // A warm-up step's column (StepRow::warmUp).
  bool isWarmUp(int column) const;
  // Whether any column is a warm-up step.
  bool hasWarmUp() const;
  // Smallest and largest value over the grid's steps but a warm-up, whose
  // start-up would squash every other colour (all steps when those are all
  // there is); (0, 0) when it has none.
  std::pair<double, double> range(RankMetric metric) const;
  const LoadedRanks* ranks() const { return ranks_.get(); }

 private:
  std::shared_ptr<const LoadedRanks> ranks_;
  std::vector<std::int64_t> rankNumbers_;
  std::vector<std::int64_t> stepNumbers_;
  std::vector<RankCell> cells_;  // row-major
};

}  // namespace gapscope::app
