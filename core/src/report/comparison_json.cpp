// The comparison as JSON, with the field names of docs/compare.md. Times
// are integer nanoseconds (fields end in _ns); counts in "runs" are per
// step, counts in the rows per whole trace.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "gapscope/report/comparison_report.h"
#include "gapscope/report/json_parts.h"

namespace gapscope::report {
namespace {

using json = nlohmann::ordered_json;  // fields in the documented order
using compare::Comparison;

constexpr int kComparisonFormatVersion = 1;

double round3(double v) { return std::isfinite(v) ? std::round(v * 1000.0) / 1000.0 : 0.0; }

json runJson(const compare::RunFigures& r) {
  return {{"file", r.file},
          {"producer", r.producer},
          {"devices", r.devices},
          {"step_source", analysis::stepSourceName(r.stepSource)},
          {"step_name", r.stepName},
          {"steps", r.steps},
          {"warm_up_step_ns", r.warmUpStepTime},
          {"step_time_ns", r.stepTimeMedian},
          {"step_time_p90_ns", r.stepTimeP90},
          {"kernels_per_step", round3(r.kernelsPerStep)},
          {"launches_per_step", round3(r.launchesPerStep)},
          {"gpu_busy_pct", round3(r.gpuBusyPct)},
          {"busy_ns_per_step", r.busyPerStep},
          {"active_ns_per_step", r.activePerStep},
          {"idle_by_cause_ns_per_step", idleJson(r.idlePerStep)},
          {"largest_gap",
           {{"dur_ns", r.largestGap.dur},
            {"cause", analysis::gapCauseName(r.largestGap.cause)},
            {"after", r.largestGap.after}}}};
}

template <typename Row, typename ToJson>
json rowsJson(const std::vector<Row>& rows, std::size_t limit, ToJson toJson) {
  json out = json::array();
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i) out.push_back(toJson(rows[i]));
  return out;
}

json kernelJson(const compare::KernelDelta& k) {
  return {{"name", k.name},
          {"kind", sliceKindName(k.kind)},
          {"count_a", k.countA},
          {"count_b", k.countB},
          {"time_a_ns", k.timeA},
          {"time_b_ns", k.timeB},
          {"matched_by", compare::kernelMatchName(k.matchedBy)},
          {"group", k.group < 0 ? json(nullptr) : json(k.group)}};
}

json groupJson(const compare::KernelGroup& g) {
  return {{"matched_by", compare::kernelMatchName(g.matchedBy)},
          {"key", g.key},
          {"kernels_a", g.kernelsA},
          {"kernels_b", g.kernelsB},
          {"count_a", g.countA},
          {"count_b", g.countB},
          {"time_a_ns", g.timeA},
          {"time_b_ns", g.timeB}};
}

json opJson(const compare::OpDelta& o) {
  return {{"name", o.name},
          {"input_shapes", o.inputShapes},
          {"annotation", o.annotation},
          {"calls_a", o.callsA},
          {"calls_b", o.callsB},
          {"self_cpu_a_ns", o.selfCpuA},
          {"self_cpu_b_ns", o.selfCpuB},
          {"device_a_ns", o.deviceA},
          {"device_b_ns", o.deviceB}};
}

}  // namespace

json idleJson(const analysis::IdleByCause& idle) {
  json j = json::object();
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c)
    j[analysis::gapCauseName(static_cast<analysis::GapCause>(c))] = idle.ns[c];
  return j;
}

json stepSpreadJson(const compare::StepSpreadTest& t) {
  const bool recordings = t.unit == compare::SpreadUnit::Recordings;
  return {{"test", "mann_whitney_u"},
          {"p_from", compare::spreadMethodName(t.method)},
          {recordings ? "recordings_a" : "steps_a", t.stepsA},
          {recordings ? "recordings_b" : "steps_b", t.stepsB},
          {"u", t.u},
          {"p_value", t.pValue},
          {"can_tell", t.canTell},
          {"beyond_spread", t.beyondSpread()}};
}

json recordingsJson(const std::array<std::vector<compare::Recording>, 2>& recordings) {
  json j = json::object();
  for (std::size_t side = 0; side < 2; ++side) {
    json rows = json::array();
    for (const compare::Recording& r : recordings[side])
      rows.push_back({{"file", r.file}, {"steps", r.steps}, {"step_time_ns", r.stepTimeMedian}, {"typical", r.typical}});
    j[side == 0 ? "a" : "b"] = std::move(rows);
  }
  return j;
}

std::string renderComparisonJson(const Comparison& c, std::size_t rowLimit) {
  json j;
  j["format_version"] = kComparisonFormatVersion;
  j["runs"] = json::array({runJson(c.runs[0]), runJson(c.runs[1])});
  j["speedup"] = round3(c.speedup);
  j["step_time_test"] = stepSpreadJson(c.stepSpread);
  if (!c.recordings[0].empty()) {
    j["run_to_run_test"] = stepSpreadJson(c.runToRun);
    j["recordings"] = recordingsJson(c.recordings);
  }
  j["verdict"] = c.verdict;
  j["warnings"] = c.warnings;
  j["ops_by_shapes"] = c.opsByShapes;
  j["rows"] = {{"kernels", c.kernels.size()}, {"kernel_groups", c.groups.size()}, {"ops", c.ops.size()}};
  j["kernels"] = rowsJson(c.kernels, rowLimit, kernelJson);
  j["kernel_groups"] = rowsJson(c.groups, rowLimit, groupJson);
  j["ops"] = rowsJson(c.ops, rowLimit, opJson);
  // Trace strings may hold invalid UTF-8: replace, never throw.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace gapscope::report
