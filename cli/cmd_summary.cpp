// gapscope-cli summary: what a trace holds, its span, GPU busy time (one
// figure per device: GpuBusy, the gap analysis' own), import issues.
#include <cstdio>
#include <ostream>

#include "command.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/analysis/summary.h"
#include "load_trace.h"
#include "output.h"

namespace gapscope::cli {
namespace {

using analysis::GpuBusy;
using analysis::TraceSummary;

std::string deviceLabel(std::int32_t device) {
  return device < 0 ? std::string("GPU ?") : "GPU " + std::to_string(device);
}

std::string utilizationText(const analysis::GapSummary& g) {
  if (!g.hasGpuActivity) return "no GPU activity";
  std::string text = format::formatPercent(100.0 * g.utilization, kTablePercent) +
                     (g.overSteps ? " of the steps' GPU windows" : " of the active window");
  if (g.deviceUtilization.size() > 1) text += " (all devices)";
  return text;
}

// What a step is here and how long it takes: "3 ProfilerStep#N, median
// 1.103 ms", "12, each from one Optimizer.zero_grad#SGD.zero_grad to the
// next (no ProfilerStep#N), median 17.879 ms after the first, a warm-up of
// 2.108 s ...", "none (...)".
std::string stepsText(const Trace& trace, const analysis::GapSummary& g) {
  // (A trace without GPU activity lists no steps, whatever annotates them.)
  if (g.steps == 0) return "none (no ProfilerStep#N, no repeated annotation, or no GPU activity)";
  std::string median = ", median " + format::formatDuration(g.medianStepNs, kTableTime);
  if (g.warmUpStepNs > 0)
    median += " after the first, a warm-up of " + format::formatDuration(g.warmUpStepNs, kTableTime) +
              " (start-up or compilation) left out of the verdict";
  switch (g.stepSource) {
    case analysis::StepSource::ProfilerStep: return std::to_string(g.steps) + " ProfilerStep#N" + median;
    case analysis::StepSource::RepeatedAnnotation:
      return std::to_string(g.steps) + (g.steps == 1 ? ", from one " : ", each from one ") +
             std::string(trace.str(g.stepName)) + " to the next (no ProfilerStep#N)" + median;
    case analysis::StepSource::WholeTrace: break;
  }
  return "none";
}

// Problems and notes in a table; the known producer quirks (expected in
// every Kineto trace, docs/import-issues.md) summed on one line below it.
void printIssues(std::ostream& out, const std::vector<ImportIssue>& issues) {
  const std::uint64_t quirks = quirkCount(issues);
  out << "Import problems: " << problemCount(issues) << '\n';
  {
    TextTable table;
    table.addColumn("Issue", TextTable::Align::Left);
    table.addColumn("Class", TextTable::Align::Left);
    table.addColumn("Severity", TextTable::Align::Left);
    table.addColumn("Count");
    table.addColumn("First byte");
    table.addColumn("What", TextTable::Align::Left);
    bool any = false;
    for (const auto& i : issues) {
      if (i.producerQuirk) continue;
      any = true;
      table.addRow({i.name, issueClassName(i), severityName(i.severity), std::to_string(i.count),
                    std::to_string(i.firstOffset), i.description});
    }
    if (any) table.print(out);
  }
  if (quirks == 0) return;
  out << "Known producer quirks: " << quirks << " (expected, not problems; see docs/import-issues.md):";
  const char* separator = " ";
  for (const auto& i : issues) {
    if (!i.producerQuirk) continue;
    out << separator << i.name << ' ' << i.count;
    separator = ", ";
  }
  out << '\n';
}

// "3 events lie 13.0 days before the others; without them the trace spans 2.18 s".
std::string outlyingText(const analysis::OutlyingEvents& o) {
  return std::to_string(o.count) + (o.count == 1 ? " event lies " : " events lie ") +
         format::formatDuration(o.gapNs, kTableTime) + (o.before ? " before" : " after") +
         " the others; without them the trace spans " + format::formatDuration(o.denseEnd - o.denseStart, kTableTime);
}

void printText(std::ostream& out, const std::string& path, const Trace& trace, const TraceSummary& s,
               const GpuBusy& busy, const analysis::GapSummary& g) {
  out << "Trace:        " << path << '\n'
      << "Events:       " << s.events << '\n'
      << "Tracks:       " << s.tracks << '\n'
      << "Slices:       " << s.slices << " (kernels " << s.kernels << ", memcpy " << s.memcpys << ", memset "
      << s.memsets << ")\n"
      << "Flows:        " << s.flows << '\n'
      << "Instants:     " << s.instants << '\n'
      << "Counters:     " << s.counters << " series\n"
      << "Span:         " << format::formatDuration(s.span(), kTableTime) << '\n';
  if (s.outlying.count > 0) out << "Outlying:     " << outlyingText(s.outlying) << '\n';
  if (busy.devices.empty()) out << "GPU busy:     no GPU activity\n";
  for (const auto& d : busy.devices) {
    out << "GPU busy:     " << deviceLabel(d.device) << ": " << format::formatDuration(d.busy, kTableTime)
        << " of a " << format::formatDuration(d.activeNs(), kTableTime) << " active window ("
        << format::formatPercent(100.0 * d.utilization(), kTablePercent) << "), " << d.activities << " activities\n";
  }
  out << "Steps:        " << stepsText(trace, g) << '\n'
      << "Utilisation:  " << utilizationText(g) << '\n'
      << "Verdict:      " << g.verdict << '\n';
  printIssues(out, s.issues);
}

void printJson(std::ostream& out, const Trace& trace, const TraceSummary& s, const GpuBusy& busy,
               const analysis::GapSummary& g) {
  nlohmann::ordered_json j;
  j["events"] = s.events;
  j["tracks"] = s.tracks;
  j["slices"] = s.slices;
  j["kernels"] = s.kernels;
  j["flows"] = s.flows;
  j["span_us"] = format::usNumber(s.span());
  j["outlying_events"] = s.outlying.count;
  j["outlying_gap_us"] = format::usNumber(s.outlying.gapNs);
  j["span_without_outlying_us"] = format::usNumber(s.spanWithoutOutlying());
  j["gpu_busy_us"] = format::usNumber(busy.total());
  j["gpu_busy_per_device"] = nlohmann::ordered_json::array();
  for (const auto& d : busy.devices) {
    j["gpu_busy_per_device"].push_back(nlohmann::ordered_json{{"device", d.device},
                                                              {"busy_us", format::usNumber(d.busy)},
                                                              {"active_us", format::usNumber(d.activeNs())},
                                                              {"utilization", d.utilization()},
                                                              {"activities", d.activities}});
  }
  j["utilization"] = g.hasGpuActivity ? nlohmann::ordered_json(g.utilization) : nlohmann::ordered_json(nullptr);
  j["utilization_over_steps"] = g.overSteps;
  j["steps"] = g.steps;
  j["step_source"] = analysis::stepSourceName(g.stepSource);
  j["step_name"] = std::string(trace.str(g.stepName));
  j["median_step_us"] = format::usNumber(g.medianStepNs);
  j["warm_up_step_us"] = format::usNumber(g.warmUpStepNs);
  j["verdict"] = g.verdict;
  j["memcpys"] = s.memcpys;
  j["memsets"] = s.memsets;
  j["instants"] = s.instants;
  j["counters"] = s.counters;
  j["import_problems"] = problemCount(s.issues);
  j["import_quirks"] = quirkCount(s.issues);
  j["import_issues"] = nlohmann::ordered_json::array();
  for (const auto& i : s.issues) {
    j["import_issues"].push_back(nlohmann::ordered_json{{"name", i.name},
                                                        {"class", issueClassName(i)},
                                                        {"severity", severityName(i.severity)},
                                                        {"count", i.count},
                                                        {"first_offset", i.firstOffset},
                                                        {"description", i.description}});
  }
  writeJson(out, j);
}

// Long form, one "field,value" pair per line: per-device busy time and
// issues get their own fields ("gpu_busy_us.gpu0", "import_issue.NAME").
void printCsv(std::ostream& out, const Trace& trace, const TraceSummary& s, const GpuBusy& busy,
              const analysis::GapSummary& g) {
  writeCsvRow(out, {"field", "value"});
  auto field = [&](const std::string& name, const std::string& value) { writeCsvRow(out, {name, value}); };
  field("events", std::to_string(s.events));
  field("tracks", std::to_string(s.tracks));
  field("slices", std::to_string(s.slices));
  field("kernels", std::to_string(s.kernels));
  field("flows", std::to_string(s.flows));
  field("span_us", format::exactUs(s.span()));
  field("outlying_events", std::to_string(s.outlying.count));
  field("outlying_gap_us", format::exactUs(s.outlying.gapNs));
  field("span_without_outlying_us", format::exactUs(s.spanWithoutOutlying()));
  field("gpu_busy_us", format::exactUs(busy.total()));
  for (const auto& d : busy.devices) {
    field("gpu_busy_us.gpu" + std::to_string(d.device), format::exactUs(d.busy));
    field("gpu_active_us.gpu" + std::to_string(d.device), format::exactUs(d.activeNs()));
  }
  field("utilization", g.hasGpuActivity ? std::to_string(g.utilization) : "");
  field("utilization_over_steps", g.overSteps ? "true" : "false");
  field("steps", std::to_string(g.steps));
  field("step_source", analysis::stepSourceName(g.stepSource));
  field("step_name", std::string(trace.str(g.stepName)));
  field("median_step_us", format::exactUs(g.medianStepNs));
  field("warm_up_step_us", format::exactUs(g.warmUpStepNs));
  field("verdict", g.verdict);
  field("memcpys", std::to_string(s.memcpys));
  field("memsets", std::to_string(s.memsets));
  field("instants", std::to_string(s.instants));
  field("counters", std::to_string(s.counters));
  field("import_problems", std::to_string(problemCount(s.issues)));
  field("import_quirks", std::to_string(quirkCount(s.issues)));
  for (const auto& i : s.issues) field("import_issue." + i.name, std::to_string(i.count));
}

int runSummary(const Args& args, std::ostream& out, std::ostream& err) {
  const OutputFormat format = formatOption(args);
  auto path = tracePathArgument(args, "summary", err);
  if (!path) return 2;
  auto trace = loadTraceForCommand(*path, "summary", err);
  if (!trace) return 1;
  const TraceSummary summary = analysis::summarizeTrace(*trace);
  const GpuBusy busy = analysis::computeGpuBusy(*trace);
  const analysis::GapSummary gaps = analysis::summarizeGaps(*trace, busy);
  switch (format) {
    case OutputFormat::Text: printText(out, *path, *trace, summary, busy, gaps); break;
    case OutputFormat::Json: printJson(out, *trace, summary, busy, gaps); break;
    case OutputFormat::Csv: printCsv(out, *trace, summary, busy, gaps); break;
  }
  return 0;
}

}  // namespace

GAPSCOPE_CLI_COMMAND("summary", "summary TRACE [--format text|json|csv]",
                     "counts, time span, GPU busy time per device, utilisation and the gap verdict, and import issues of a trace", {},
                     runSummary);

}  // namespace gapscope::cli
