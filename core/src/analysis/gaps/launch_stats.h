// Launch and queue-time statistics (stage "launch statistics").
#pragma once

#include <cstddef>
#include <vector>

#include "call_table.h"
#include "gapscope/analysis/gaps.h"
#include "gpu_ops.h"

namespace gapscope::analysis::gaps_detail {

// Fills `stats` and, when `keep` is given, one LaunchInfo per launch.
void fillLaunchStats(const CallTable& calls, const GpuTimelines& gpu, const GapOptions& options,
                     std::size_t nameCount, LaunchStats& stats, std::vector<LaunchInfo>* keep);

}  // namespace gapscope::analysis::gaps_detail
