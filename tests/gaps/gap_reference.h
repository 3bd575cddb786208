// A straightforward second implementation of the launch-gap analysis, read
// off docs/gaps.md and written for clarity, not speed: maps instead of
// tables, sorting instead of selection, every CPU op of a gap found by
// scanning its thread. Tests compare analyzeGaps with it field by field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"

namespace gapscope::gaps_test {

struct ReferenceGap {
  analysis::Gap gap;  // cpuOpsBegin/cpuOpsCount unused
  std::vector<analysis::CpuOpBlame> cpuOps;
};

struct ReferenceStep {
  StringId name = kEmptyString;
  std::int64_t number = -1;
  std::uint32_t annotation = kNoIndex;
  TimeNs cpuNs = 0;
  bool warmUp = false;  // left out of the verdict's totals
  std::vector<analysis::UtilizationStats> devices;
};

struct ReferenceAnalysis {
  bool hasGpuActivity = false;
  std::vector<analysis::UtilizationStats> devices;
  std::vector<analysis::UtilizationStats> streams;
  std::vector<ReferenceGap> gaps;  // device gaps, then stream gaps, each run in time order
  std::uint64_t unlistedGaps = 0;
  std::vector<analysis::CpuOpBlame> overheadCpuOps;
  analysis::LaunchStats launchStats;
  std::vector<analysis::LaunchInfo> launches;
  std::vector<ReferenceStep> steps;
  analysis::VerdictKind verdict = analysis::VerdictKind::NoGpuActivity;
  double utilization = 0.0;
  TimeNs estimatedSavingNs = 0;
  std::vector<std::string> notes;
};

ReferenceAnalysis referenceGaps(const Trace& trace, const analysis::GapOptions& options);

}  // namespace gapscope::gaps_test
