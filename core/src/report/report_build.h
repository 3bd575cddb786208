// Internal: the pieces buildReport() assembles. Each section builder reads
// the trace's analysis results (TraceAnalysis), computed once per trace.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/report/report.h"
#include "report/trace_walk.h"

namespace gapscope::report {

struct ReportInputs {
  const Trace& trace;
  const ReportOptions& options;
  const analysis::GapOptions& gapOptions;  // what the gap analysis ran with
  const analysis::GapAnalysis& gaps;
  const analysis::GpuBusy& busy;
  const analysis::OpTable& ops;
  const analysis::KernelTable& kernels;
  const std::vector<StreamOps>& streams;
  const StepRanges& steps;
};

// Cells (variant construction from int is ambiguous, so always through these).
inline Cell textCell(std::string_view s) { return Cell{std::string(s)}; }
inline Cell intCell(std::int64_t v) { return Cell{v}; }
inline Cell durationCell(TimeNs ns) { return Cell{static_cast<std::int64_t>(ns)}; }
inline Cell realCell(double v) { return Cell{v}; }
inline Cell noCell() { return Cell{}; }

Table makeTable(std::string id, std::string title, std::vector<Column> columns);
// Keeps the first `limit` rows and records how many there were.
void limitRows(Table& table, std::size_t limit);
// "16x8x1"; unknown (all zero) gives an empty cell.
Cell dim3Cell(const std::int32_t (&v)[3]);
Cell dim3Cell(const std::array<std::int32_t, 3>& v);
// 100 * part / whole, 0 when whole is 0.
double percentOf(double part, double whole);

// Sections.
TraceInfo buildTraceInfo(const Trace& trace, std::uint64_t steps);
Table devicesTable(const TraceInfo& info);
Table utilizationTable(const ReportInputs& in);
Table stepsTable(const ReportInputs& in);
Table topOpsBySelfDeviceTable(const ReportInputs& in);
Table topOpsBySelfCpuTable(const ReportInputs& in);
Table topKernelsTable(const ReportInputs& in);
Table worstGapsTable(const ReportInputs& in);
Table blamedCpuOpsTable(const ReportInputs& in);
Table launchDistributionsTable(const ReportInputs& in);
Table importIssuesTable(const TraceInfo& info);

// Charts.
std::vector<UtilizationSeries> utilizationSeries(const ReportInputs& in, TimeNs start, TimeNs end);
std::vector<StepMark> stepMarks(const ReportInputs& in);
std::vector<HistogramBucket> gapHistogram(const ReportInputs& in);
std::vector<DistributionBucket> launchHistogram(const ReportInputs& in);
std::vector<DistributionBucket> queueHistogram(const ReportInputs& in);

// Findings, one per rule in reportRules() order.
std::vector<Finding> evaluateRules(const ReportInputs& in);

}  // namespace gapscope::report
