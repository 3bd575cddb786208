// buildComparisonReport(): the comparison's tables, built once for every
// format (html, md, csv and the CLI's text).
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gapscope/report/comparison_report.h"
#include "gapscope/version.h"

namespace gapscope::report {
namespace {

using analysis::GapCause;
using compare::Comparison;
using compare::RunFigures;

Column text(std::string id, std::string header, bool abbreviate = false) {
  return {std::move(id), std::move(header), ColumnKind::Text, abbreviate};
}
Column integer(std::string id, std::string header) { return {std::move(id), std::move(header), ColumnKind::Integer}; }
Column duration(std::string id, std::string header) { return {std::move(id), std::move(header), ColumnKind::Duration}; }
Column percent(std::string id, std::string header) { return {std::move(id), std::move(header), ColumnKind::Percent}; }
Column number(std::string id, std::string header) { return {std::move(id), std::move(header), ColumnKind::Number}; }

Cell count(std::uint64_t n) { return static_cast<std::int64_t>(n); }

// How much a whole-trace time changed per step, rounded to whole ns.
Cell changePerStep(TimeNs a, TimeNs b, const Comparison& c) {
  return static_cast<std::int64_t>(std::llround(c.changePerStep(a, b)));
}

std::string fileName(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name.empty() ? std::string("(in memory)") : name;
}

void finish(Table& t, std::size_t rowLimit) {
  t.totalRows = t.rows.size();
  if (t.rows.size() > rowLimit) t.rows.resize(rowLimit);
}

Table runsTable(const Comparison& c) {
  Table t{"runs", "The two runs, per step", "", {}, {}, 0};
  t.note = "Per step: the mean over the steps (" + c.runs[0].stepName + " in A, " + c.runs[1].stepName +
           " in B), a warm-up step left out; step time is the step's CPU span (its annotation, or an iteration marker to its next occurrence); GPU busy is the busy share of the steps' "
           "GPU windows (of the whole trace's active window for a run without steps), over all devices.";
  t.columns = {text("run", "Run"), text("file", "File"), integer("steps", "Steps"),
               duration("step_time_us", "Step time (median)"), duration("step_time_p90_us", "Step time (p90)"),
               percent("gpu_busy_pct", "GPU busy"), number("kernels_per_step", "Kernels / step"),
               number("launches_per_step", "Launches / step"), duration("busy_per_step_us", "GPU busy / step"),
               duration("idle_per_step_us", "GPU idle / step")};
  for (std::size_t i = 0; i < 2; ++i) {
    const RunFigures& r = c.runs[i];
    t.rows.push_back({std::string(i == 0 ? "A" : "B"), fileName(r.file), count(r.steps), r.stepTimeMedian,
                      r.stepTimeP90, r.gpuBusyPct, r.kernelsPerStep, r.launchesPerStep, r.busyPerStep,
                      r.idlePerStep.total()});
  }
  t.totalRows = t.rows.size();
  return t;
}

Table idleTable(const Comparison& c) {
  Table t{"idle_per_step", "GPU idle per step by cause", "", {}, {}, 0};
  t.note = std::string("Device idle time inside each step's GPU window (") + analysis::kStepWindowText +
           "); share: of that window.";
  t.columns = {text("cause", "Cause"), duration("a_us", "A"), duration("b_us", "B"), duration("change_us", "Change"),
               percent("share_a_pct", "Share A"), percent("share_b_pct", "Share B")};
  for (std::size_t i = 0; i < analysis::kGapCauseCount; ++i) {
    const auto cause = static_cast<GapCause>(i);
    const TimeNs a = c.runs[0].idlePerStep[cause];
    const TimeNs b = c.runs[1].idlePerStep[cause];
    t.rows.push_back({std::string(analysis::gapCauseLabel(cause)), a, b, b - a, c.runs[0].idleSharePct(cause),
                      c.runs[1].idleSharePct(cause)});
  }
  t.totalRows = t.rows.size();
  return t;
}

Table kernelsTable(const Comparison& c, std::size_t rowLimit) {
  Table t{"kernels", "Kernels", "", {}, {}, 0};
  t.note = "Counts and times over each whole trace; sorted by the change of time per step. Matched by: name, "
           "fused_ops (an Inductor kernel naming the operators), operator, annotation, or none (one run only).";
  t.columns = {text("name", "Kernel", true),    text("kind", "Kind"),         text("matched_by", "Matched by"),
               integer("group", "Group"),        integer("count_a", "Calls A"), integer("count_b", "Calls B"),
               duration("time_a_us", "Time A"), duration("time_b_us", "Time B"),
               duration("change_per_step_us", "Change / step")};
  for (const compare::KernelDelta& k : c.kernels)
    t.rows.push_back({k.name, std::string(sliceKindName(k.kind)), std::string(compare::kernelMatchName(k.matchedBy)),
                      k.group < 0 ? Cell{} : Cell{static_cast<std::int64_t>(k.group)}, count(k.countA),
                      count(k.countB), k.timeA, k.timeB, changePerStep(k.timeA, k.timeB, c)});
  finish(t, rowLimit);
  return t;
}

std::string labels(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + kernelLabel(n, 60);
  return s;
}

Table groupsTable(const Comparison& c, std::size_t rowLimit) {
  Table t{"kernel_groups", "Kernels that replaced other kernels", "", {}, {}, 0};
  t.note = "Kernels of A and B with different names, paired through what they share (the key).";
  t.columns = {integer("group", "Group"),         text("matched_by", "Matched by"), text("key", "Key"),
               text("kernels_a", "Kernels of A"),  text("kernels_b", "Kernels of B"), integer("count_a", "Calls A"),
               integer("count_b", "Calls B"),      duration("time_a_us", "Time A"),  duration("time_b_us", "Time B"),
               duration("change_per_step_us", "Change / step")};
  for (std::size_t i = 0; i < c.groups.size(); ++i) {
    const compare::KernelGroup& g = c.groups[i];
    t.rows.push_back({static_cast<std::int64_t>(i), std::string(compare::kernelMatchName(g.matchedBy)), g.key,
                      labels(g.kernelsA), labels(g.kernelsB), count(g.countA), count(g.countB), g.timeA, g.timeB,
                      changePerStep(g.timeA, g.timeB, c)});
  }
  finish(t, rowLimit);
  return t;
}

Table opsTable(const Comparison& c, std::size_t rowLimit) {
  Table t{"ops", "Operators", "", {}, {}, 0};
  t.note = std::string("CPU rows of the operator table (key_averages), matched by name") +
           (c.opsByShapes ? " and input shapes" : "") +
           "; over each whole trace; sorted by the larger change per step of self CPU or device time.";
  t.columns = {text("name", "Operator", true)};
  if (c.opsByShapes) t.columns.push_back(text("input_shapes", "Input shapes"));
  for (Column col : {integer("calls_a", "Calls A"), integer("calls_b", "Calls B"),
                     duration("self_cpu_a_us", "Self CPU A"), duration("self_cpu_b_us", "Self CPU B"),
                     duration("device_a_us", "Device A"), duration("device_b_us", "Device B"),
                     duration("self_cpu_change_per_step_us", "Self CPU change / step"),
                     duration("device_change_per_step_us", "Device change / step")})
    t.columns.push_back(std::move(col));
  for (const compare::OpDelta& o : c.ops) {
    std::vector<Cell> row{o.name};
    if (c.opsByShapes) row.emplace_back(o.inputShapes);
    for (Cell cell : {Cell{o.callsA}, Cell{o.callsB}, Cell{o.selfCpuA}, Cell{o.selfCpuB}, Cell{o.deviceA},
                      Cell{o.deviceB}, changePerStep(o.selfCpuA, o.selfCpuB, c), changePerStep(o.deviceA, o.deviceB, c)})
      row.push_back(std::move(cell));
    t.rows.push_back(std::move(row));
  }
  finish(t, rowLimit);
  return t;
}

}  // namespace

Table recordingsTable(const std::array<std::vector<compare::Recording>, 2>& recordings,
                      const compare::StepSpreadTest& runToRun) {
  Table t{"recordings", "Every recording of each side", "", {}, {}, 0};
  t.note = "The middle recording of each side by its median step time (typical) is compared in full; the "
           "recordings' median step times of A against B's tell the run-to-run spread: " +
           compare::spreadClause(runToRun) + ".";
  t.columns = {text("run", "Run"), text("file", "File"), integer("steps", "Steps"),
               duration("step_time_us", "Step time (median)"), text("typical", "Typical")};
  for (std::size_t i = 0; i < 2; ++i)
    for (const compare::Recording& rec : recordings[i])
      t.rows.push_back({std::string(i == 0 ? "A" : "B"), rec.file, count(rec.steps), rec.stepTimeMedian,
                        std::string(rec.typical ? "yes" : "")});
  t.totalRows = t.rows.size();
  return t;
}

const Table* ComparisonReport::table(std::string_view id) const {
  for (const Table& t : tables)
    if (t.id == id) return &t;
  return nullptr;
}

ComparisonReport buildComparisonReport(Comparison comparison, const ComparisonReportOptions& options) {
  ComparisonReport r;
  r.title = options.title.empty() ? "gapscope comparison: " + fileName(comparison.runs[0].file) + " vs " +
                                        fileName(comparison.runs[1].file)
                                  : options.title;
  r.generator = std::string("gapscope ") + GAPSCOPE_VERSION;
  r.humanRows = options.humanRows;
  if (!comparison.recordings[0].empty()) r.tables.push_back(recordingsTable(comparison.recordings, comparison.runToRun));
  r.tables.push_back(runsTable(comparison));
  r.tables.push_back(idleTable(comparison));
  r.tables.push_back(groupsTable(comparison, options.rowLimit));
  r.tables.push_back(kernelsTable(comparison, options.rowLimit));
  r.tables.push_back(opsTable(comparison, options.rowLimit));
  r.comparison = std::move(comparison);
  return r;
}

}  // namespace gapscope::report
