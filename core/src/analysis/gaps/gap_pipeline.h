// The analysis as a whole (gaps.cpp) and its verdict (verdict.cpp).
#pragma once

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/gpu_busy.h"
#include "gapscope/analysis/stage_observer.h"

namespace gapscope::analysis::gaps_detail {

Verdict makeVerdict(const GapAnalysis& analysis, const GapOptions& options);

// analyzeGaps, optionally without the launch statistics (summarizeGaps
// needs none).
GapAnalysis analyze(const Trace& trace, const GpuBusy& busy, const GapOptions& options,
                    bool withLaunchStats, StageObserver* observer = nullptr);

}  // namespace gapscope::analysis::gaps_detail
