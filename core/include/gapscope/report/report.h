// Hotspot reports: one shareable document that says what is slow in a trace,
// why, and what to do about it.
//
// buildReport() reads the trace's analysis result (TraceAnalysis: operator
// table, kernel table, gap analysis, GPU busy time), computed once per trace
// and shared with the app's views, and keeps only plain values: a Report
// holds no reference to the Trace, so it can be built on a worker thread
// and written later.
// writeReport() renders it as
//   html  one self-contained file (inline CSS and SVG charts, no scripts,
//         no network), readable on screen and on paper
//   md    GitHub-flavoured Markdown, for issues and pull requests
//   json  everything, with the fixed field names of docs/reports.md
//   csv   a folder with one file per table
// Every string that came from the trace is escaped for its format. Writes
// are atomic: a temporary file (or folder) is renamed over the target, so a
// failed export never leaves half a report over a good one.
//
// Tabular content uses one generic Table so every format shows the same
// columns, and a column's `id` is its field name in JSON and its header in
// CSV. Rules (findings) are documented in docs/reports.md with their
// thresholds; RuleThresholds holds the defaults.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/calltree/call_tree.h"
#include "gapscope/memory/memory.h"
#include "gapscope/model/import_issues.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::report {

// ---------------------------------------------------------------- tables

// How a column's values are stored and shown.
enum class ColumnKind : std::uint8_t {
  Text,      // std::string
  Integer,   // std::int64_t
  Duration,  // std::int64_t nanoseconds; JSON/CSV write microseconds (ids end in "_us")
  Bytes,     // std::int64_t bytes; html/md/the app write "1.5 MiB", JSON/CSV the integer
  Percent,   // double, 0..100
  Number,    // double
};

struct Column {
  std::string id;      // JSON field name and CSV header, e.g. "self_device_us"
  std::string header;  // human header, e.g. "Self device"
  ColumnKind kind = ColumnKind::Text;
  // Kernel names run to hundreds of characters of C++ templates: html and md
  // show a short label (kernelLabel()), html with the full name as a
  // tooltip; json and csv always hold the full text.
  bool abbreviate = false;
};

// std::monostate: unknown (JSON null, empty CSV field, a dash in html/md).
using Cell = std::variant<std::monostate, std::string, std::int64_t, double>;

struct Table {
  std::string id;     // file name in csv ("top_kernels" -> top_kernels.csv), key in JSON
  std::string title;  // section heading
  std::string note;   // one line under the heading (may be empty)
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  std::uint64_t totalRows = 0;  // rows before the report's row limit was applied

  // Index of the column with this id, or -1.
  int column(std::string_view columnId) const;
};

// ---------------------------------------------------------------- findings

struct Finding {
  std::string id;         // stable rule id, e.g. "launch-overhead-bound"
  std::string title;      // e.g. "Launch-overhead bound"
  std::string threshold;  // the trigger condition with its numbers, as text
  bool passed = true;     // true: the rule found nothing
  // One sentence with the measured numbers, whether passed or not, e.g.
  // "62.1% of the active window the GPU waited for kernel launches (threshold 20%)".
  std::string summary;
  std::vector<std::string> advice;  // what to do; empty when passed
  Table evidence;                   // the rows that triggered the rule (empty when passed)
  // What fixing it could save at most (0: not estimated).
  TimeNs estimatedSavingNs = 0;
};

// The thresholds of every rule (docs/reports.md explains each).
struct RuleThresholds {
  // launch-overhead-bound: device idle caused by launch overhead, as a share
  // of the active window, at least this.
  double launchOverheadIdlePct = 20.0;
  // small-kernels-same-op: the same kernel at least `sameKernelMinRepeats`
  // times in a run on one stream, with at most `sameKernelMaxBetween` other
  // kernels between two repeats, each repeat shorter than `smallKernelNs`.
  int sameKernelMinRepeats = 8;
  int sameKernelMaxBetween = 2;
  TimeNs smallKernelNs = 20000;
  // elementwise-chain: at least this many element-wise kernels back to back
  // on one stream.
  int elementwiseChainMin = 3;
  // sync-in-step: blocking synchronisation calls inside a step (anywhere when
  // the trace has no steps) and device idle caused by synchronisation at
  // least this share of the active window.
  double syncIdlePct = 5.0;
  // pageable-memcpy: at least this many copies from or to pageable memory.
  int pageableMinCopies = 1;
  // gemm-separate-add: at least this many GEMMs directly followed by an
  // element-wise add on the same stream.
  int gemmAddMinPairs = 1;
  // low-occupancy: kernels whose estimated achieved occupancy is above 0 and
  // below `lowOccupancyPct` and that take at least `lowOccupancyMinGpuPct` of
  // all kernel time.
  double lowOccupancyPct = 10.0;
  double lowOccupancyMinGpuPct = 5.0;
  // launch-dominated-kernels: at least `shortKernelMinCount` kernel launches
  // whose GPU time is below the launch call's duration, and at least
  // `shortKernelPct` of all kernel launches.
  int shortKernelMinCount = 10;
  double shortKernelPct = 20.0;
};

struct RuleInfo {
  std::string id;
  std::string title;
};
// Every rule, in report order.
const std::vector<RuleInfo>& reportRules();

// ---------------------------------------------------------------- the report

struct DeviceInfo {
  std::int32_t id = -1;
  std::string name;
  std::int32_t numSms = 0;
  std::int32_t computeMajor = 0;
  std::int32_t computeMinor = 0;
  std::int64_t totalGlobalMem = 0;  // bytes
};

struct TraceInfo {
  std::string source;  // the file path as loaded ("" when built in memory)
  std::uint64_t sourceBytes = 0;
  std::vector<DeviceInfo> devices;  // from deviceProperties
  TimeNs start = 0;                 // Trace::minTime()
  TimeNs end = 0;                   // Trace::maxTime()
  TimeNs span() const { return end - start; }
  std::uint64_t steps = 0;  // ProfilerStep#N annotations
  std::uint64_t events = 0;
  std::uint64_t slices = 0;
  std::uint64_t kernels = 0;
  std::uint64_t memcpys = 0;
  std::uint64_t memsets = 0;
  std::vector<ImportIssue> issues;
};

struct VerdictInfo {
  std::string kind;  // analysis::verdictKindName(), e.g. "launch_overhead_bound"
  std::string line;  // the one-line verdict
  double utilizationPct = 0;  // busy / active over all devices, 0..100
  bool overSteps = false;     // utilizationPct and the line are the steps' GPU windows' (analysis::Verdict)
  TimeNs estimatedSavingNs = 0;
};

struct LaunchSummary {
  std::uint64_t count = 0;      // launch calls matched to GPU ops
  std::uint64_t unmatched = 0;  // launch calls with no GPU op in the trace
  std::uint64_t shortKernels = 0;
  std::uint64_t outliers = 0;
};

// GPU busy share over time of one device: bins of equal width over the
// trace span [TraceInfo::start, TraceInfo::end).
struct UtilizationSeries {
  std::int32_t device = -1;
  TimeNs start = 0;
  TimeNs binNs = 0;
  std::vector<double> busyPct;  // 0..100 per bin
};

// Where a step begins and ends on the CPU (for chart markers).
struct StepMark {
  std::string name;
  TimeNs start = 0;
  TimeNs end = 0;
};

// Device gaps (whole GPU idle, dur >= GapOptions::minGapNs) by duration, in
// the 1-2-5 bins of analysis::deviceGapHistogram.
struct HistogramBucket {
  TimeNs minNs = 0;
  TimeNs maxNs = -1;  // exclusive; -1: no upper bound
  std::array<std::uint64_t, analysis::kGapCauseCount> count{};  // by GapCause
  TimeNs totalNs = 0;                                          // idle time of the bucket's gaps
  std::array<TimeNs, analysis::kGapCauseCount> idleNs{};       // the same by GapCause
  std::uint64_t total() const { return count[0] + count[1] + count[2] + count[3]; }
};

// Launch-call duration or queue time, bucketed.
struct DistributionBucket {
  TimeNs minNs = 0;
  TimeNs maxNs = -1;  // exclusive; -1: no upper bound
  std::uint64_t count = 0;
};

struct Charts {
  std::vector<UtilizationSeries> utilization;  // one per device
  std::vector<StepMark> steps;
  std::vector<HistogramBucket> gapHistogram;
  std::vector<DistributionBucket> launchHistogram;  // launch-call durations
  std::vector<DistributionBucket> queueHistogram;   // queue times (negative ones in the first bucket)
};

struct Report {
  std::string title;      // "gapscope report: <file name>"
  std::string generator;  // "gapscope 0.1.0"
  TraceInfo trace;
  bool hasGpuActivity = false;
  std::string noGpuReason;
  VerdictInfo verdict;
  LaunchSummary launches;
  // In report order; ids: "devices", "utilization", "steps",
  // "top_ops_self_device", "top_ops_self_cpu", "top_kernels", "worst_gaps",
  // "blamed_cpu_ops", "launch_distributions", "import_issues",
  // "idle_frames", "memory_devices", "memory_live_at_peak" (docs/reports.md
  // lists columns).
  std::vector<Table> tables;
  Charts charts;
  std::vector<Finding> findings;  // one per rule, in reportRules() order
  std::vector<std::string> notes;  // the gap analysis' notes

  // The table with this id, or nullptr.
  const Table* table(std::string_view id) const;
  // The finding of this rule, or nullptr.
  const Finding* finding(std::string_view ruleId) const;
};

// The gap analysis' options (the minimum listed gap, ...) are the
// TraceAnalysis's: the report shows the analysis the user already has.
struct ReportOptions {
  RuleThresholds thresholds;
  std::size_t topOps = 15;
  std::size_t topKernels = 15;
  std::size_t worstGaps = 10;
  std::size_t topFrames = 10;  // rows of "idle_frames"
  std::size_t maxStepRows = 50;  // the steps table keeps the first this many (step, device) rows
  std::size_t maxEvidenceRows = 10;
  std::size_t timelineBins = 120;
  std::string title;  // empty: "gapscope report: <file name>"
};

// The gap analysis must keep its launches (GapOptions::keepLaunches, the
// default): the launch histograms and the short-kernel rule read them.
Report buildReport(const analysis::TraceAnalysis& analysis, const ReportOptions& options = {});

// The per-step table (the report's "steps", the app's Steps dock): one row
// per step and device with its step time, GPU window, busy, utilisation,
// idle by cause, kernels and launches; the first `maxRows` rows.
Table stepTable(const Trace& trace, const analysis::GapAnalysis& gaps,
                std::size_t maxRows = std::numeric_limits<std::size_t>::max());

// The memory tables (the report's "Memory" section, the app's Memory dock).
// Times are from `origin` (the report: the trace's start). docs/memory.md.
Table memoryDevicesTable(const memory::MemoryAnalysis& memory, TimeNs origin);
Table memoryByOpTable(const memory::DeviceMemory& device);
// One row per allocation: address, size, when allocated and freed, lifetime
// and the operators that allocated and freed it.
Table allocationsTable(const Trace& trace, const std::vector<const memory::Allocation*>& allocations, TimeNs origin);
// Allocations grouped by the operator that made them: what holds memory.
Table liveByOperatorTable(const Trace& trace, const std::vector<const memory::Allocation*>& allocations);

// The frames (call tree nodes, merged by name, recursion counted once) that
// own the most launch-overhead idle: Python frames and modules when the
// trace has Python stacks (with_stack / with_modules), else every frame.
Table idleFramesTable(const Trace& trace, const calltree::CallTree& tree, std::size_t limit);

// A table as CSV (RFC 4180; the header row is the column ids, durations in
// exact microseconds): what the csv report writes for each table.
std::string tableCsv(const Table& table);

// A cell as a person reads it (html, md and the CLI's text tables): durations
// with a unit, percentages with one decimal, unknown as "-", abbreviated
// kernel names where the column says so.
std::string cellText(const Column& column, const Cell& cell);

// A short label for a kernel name: no "void ", no parameter list, and for
// PyTorch's element-wise kernels the functor ("elementwise: tanh_kernel_cuda");
// cut in the middle to at most `maxLength` bytes.
std::string kernelLabel(std::string_view kernelName, std::size_t maxLength = 90);

// ---------------------------------------------------------------- writing

enum class ReportFormat : std::uint8_t { Html, Markdown, Json, Csv };

// "html", "md" (also "markdown"), "json", "csv"; nullopt otherwise.
std::optional<ReportFormat> parseReportFormat(std::string_view name);
const char* reportFormatName(ReportFormat format);  // "html", "md", "json", "csv"
std::vector<std::string> reportFormatNames();

// Renders to a string (csv: not supported, it is a folder; use writeReport).
std::string renderHtml(const Report& report);
std::string renderMarkdown(const Report& report);
std::string renderJson(const Report& report);
// One CSV document per table: (file name, content), e.g. ("top_kernels.csv", ...).
std::vector<std::pair<std::string, std::string>> renderCsv(const Report& report);

// Writes atomically to `path` (csv: `path` is a folder, created or
// replaced). Returns "" on success, otherwise one line saying what failed,
// e.g. "cannot write /x/report.html.tmp-123: Permission denied". On failure
// whatever was at `path` before is untouched.
std::string writeReport(const Report& report, ReportFormat format, const std::string& path);

}  // namespace gapscope::report
