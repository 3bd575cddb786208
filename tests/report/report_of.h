// A report on a trace made in a test: the trace's analysis (TraceAnalysis)
// then the report built from it, as the app and the CLI do.
#pragma once

#include <memory>

#include "gapscope/report/report.h"

namespace gapscope::testing {

inline report::Report reportOf(Trace&& trace, const report::ReportOptions& options = {},
                               const analysis::AnalysisOptions& analysisOptions = {}) {
  const analysis::TraceAnalysis analysis(std::make_shared<const Trace>(std::move(trace)), analysisOptions);
  return report::buildReport(analysis, options);
}

}  // namespace gapscope::testing
