// buildReport(): the section builders and the rules read the trace's held
// analysis results; nothing is computed a second time.
#include <algorithm>
#include <filesystem>

#include "gapscope/format/number.h"
#include "gapscope/version.h"
#include "report/report_build.h"

namespace gapscope::report {

int Table::column(std::string_view columnId) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].id == columnId) return static_cast<int>(i);
  return -1;
}

const Table* Report::table(std::string_view id) const {
  for (const Table& t : tables)
    if (t.id == id) return &t;
  return nullptr;
}

const Finding* Report::finding(std::string_view ruleId) const {
  for (const Finding& f : findings)
    if (f.id == ruleId) return &f;
  return nullptr;
}

Table makeTable(std::string id, std::string title, std::vector<Column> columns) {
  Table t;
  t.id = std::move(id);
  t.title = std::move(title);
  t.columns = std::move(columns);
  return t;
}

void limitRows(Table& table, std::size_t limit) {
  table.totalRows = table.rows.size();
  if (table.rows.size() > limit) table.rows.resize(limit);
}

Cell dim3Cell(const std::int32_t (&v)[3]) {
  if (v[0] == 0 && v[1] == 0 && v[2] == 0) return noCell();
  return textCell(std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]));
}

Cell dim3Cell(const std::array<std::int32_t, 3>& v) {
  const std::int32_t raw[3] = {v[0], v[1], v[2]};
  return dim3Cell(raw);
}

double percentOf(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

namespace {

StepRanges stepRanges(const analysis::GapAnalysis& gaps) {
  StepRanges r;
  for (const auto& s : gaps.steps)
    if (!s.warmUp) r.ranges.emplace_back(s.cpuStart, s.cpuEnd);  // as the verdict, which the rules explain
  std::sort(r.ranges.begin(), r.ranges.end());
  return r;
}

std::string defaultTitle(const Trace& trace) {
  std::string file = std::filesystem::path(trace.metadata.sourcePath).filename().string();
  return file.empty() ? "gapscope report" : "gapscope report: " + file;
}

VerdictInfo verdictOf(const analysis::GapAnalysis& gaps) {
  VerdictInfo v;
  v.kind = analysis::verdictKindName(gaps.verdict.kind);
  v.line = gaps.verdict.line;
  v.utilizationPct = gaps.verdict.utilization * 100.0;
  v.overSteps = gaps.verdict.overSteps;
  v.estimatedSavingNs = gaps.verdict.estimatedSavingNs;
  return v;
}

LaunchSummary launchSummaryOf(const analysis::LaunchStats& s) {
  return LaunchSummary{s.count, s.unmatched, s.shortKernels, s.outliers};
}

constexpr std::size_t kLiveAtPeakRows = 10;

// The devices, and what holds memory at the peak of the device whose peak
// is highest (a GPU before the CPU on a tie).
void addMemoryTables(Report& r, const Trace& trace, const memory::MemoryAnalysis& memory) {
  r.tables.push_back(memoryDevicesTable(memory, r.trace.start));
  const memory::DeviceMemory* top = nullptr;
  for (const memory::DeviceMemory& d : memory.devices) {
    if (!top || d.peakAllocated >= top->peakAllocated) top = &d;
  }
  std::vector<const memory::Allocation*> live;
  if (top) live = memory::liveAllocations(memory, top->device, top->peakAllocatedTs);
  Table t = liveByOperatorTable(trace, live);
  if (top) {
    std::int64_t listed = 0;
    for (const memory::Allocation* a : live) listed += a->bytes;
    t.note = "The allocations live on " + memory::deviceLabel(top->device) + " at its peak, by the operator that "
             "made them" + (top->allAddressed() ? "." : " (events without an address cannot be paired: partial).");
    if (top->peakAllocated > listed) {
      t.note += " " + format::formatBytes(top->peakAllocated - listed) + " of the " +
                format::formatBytes(top->peakAllocated) + " peak was allocated before the trace began" +
                (top->allAddressed() ? "" : " or by events without an address") + ": not listed.";
    }
  }
  limitRows(t, kLiveAtPeakRows);
  r.tables.push_back(std::move(t));
}

}  // namespace

Report buildReport(const analysis::TraceAnalysis& analysis, const ReportOptions& options) {
  const Trace& trace = analysis.trace();
  const analysis::GapAnalysis& gaps = analysis.gaps();
  const std::vector<StreamOps> streams = gpuOpsByStream(trace);
  const StepRanges steps = stepRanges(gaps);
  const ReportInputs in{trace,          options,        analysis.options().gaps, gaps, analysis.busy(),
                        analysis.ops(), analysis.kernels(), streams,              steps};

  Report r;
  r.title = options.title.empty() ? defaultTitle(trace) : options.title;
  r.generator = "gapscope " GAPSCOPE_VERSION;
  r.trace = buildTraceInfo(trace, gaps.steps.size());
  r.hasGpuActivity = gaps.hasGpuActivity;
  r.noGpuReason = gaps.noGpuReason;
  r.verdict = verdictOf(gaps);
  r.launches = launchSummaryOf(gaps.launchStats);
  r.notes = gaps.notes;

  r.tables.push_back(devicesTable(r.trace));
  r.tables.push_back(utilizationTable(in));
  r.tables.push_back(stepsTable(in));
  r.tables.push_back(topOpsBySelfDeviceTable(in));
  r.tables.push_back(topOpsBySelfCpuTable(in));
  r.tables.push_back(topKernelsTable(in));
  r.tables.push_back(worstGapsTable(in));
  r.tables.push_back(blamedCpuOpsTable(in));
  r.tables.push_back(launchDistributionsTable(in));
  r.tables.push_back(importIssuesTable(r.trace));
  r.tables.push_back(idleFramesTable(trace, analysis.callTree(), options.topFrames));
  addMemoryTables(r, trace, analysis.memory());

  r.charts.utilization = utilizationSeries(in, r.trace.start, r.trace.end);
  r.charts.steps = stepMarks(in);
  r.charts.gapHistogram = gapHistogram(in);
  r.charts.launchHistogram = launchHistogram(in);
  r.charts.queueHistogram = queueHistogram(in);

  r.findings = evaluateRules(in);
  return r;
}

}  // namespace gapscope::report
