// The analysis as a whole (gaps.cpp) and its verdict (verdict.cpp).
#pragma once

#include <string>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/stage_observer.h"

namespace gapscope::analysis::gaps_detail {

Verdict makeVerdict(const GapAnalysis& analysis, const GapOptions& options);

// analyzeGaps, optionally without the launch statistics (summarizeGaps
// needs none).
GapAnalysis analyze(const Trace& trace, const GpuBusy& busy, const GapOptions& options,
                    bool withLaunchStats, StageObserver* observer = nullptr);

// "1.234 ms", "12.345 us", "850 ns": exact decimals of integer ns.
std::string formatDuration(TimeNs ns);

}  // namespace gapscope::analysis::gaps_detail
