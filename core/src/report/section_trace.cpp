// The "trace" section: what was loaded, from where, on which devices.
#include <algorithm>

#include "report/report_build.h"

namespace gapscope::report {

TraceInfo buildTraceInfo(const Trace& trace, std::uint64_t steps) {
  TraceInfo info;
  info.source = trace.metadata.sourcePath;
  info.sourceBytes = trace.metadata.sourceBytes;
  for (const DeviceProperties& d : trace.metadata.devices)
    info.devices.push_back(
        DeviceInfo{d.id, d.name, d.numSms, d.computeMajor, d.computeMinor, d.totalGlobalMem});
  std::sort(info.devices.begin(), info.devices.end(),
            [](const DeviceInfo& a, const DeviceInfo& b) { return a.id < b.id; });
  info.start = trace.minTime();
  info.end = trace.maxTime();
  info.steps = steps;
  info.events = trace.eventCount;
  info.slices = trace.slices.size();
  for (const Slice& s : trace.slices) {
    info.kernels += s.kind == SliceKind::Kernel;
    info.memcpys += s.kind == SliceKind::Memcpy;
    info.memsets += s.kind == SliceKind::Memset;
  }
  info.issues = trace.issues.all();
  return info;
}

Table devicesTable(const TraceInfo& info) {
  Table t = makeTable("devices", "Devices",
                      {{"device", "Device", ColumnKind::Integer},
                       {"name", "Name", ColumnKind::Text},
                       {"sms", "SMs", ColumnKind::Integer},
                       {"compute_capability", "Compute capability", ColumnKind::Text},
                       {"memory_bytes", "Memory (bytes)", ColumnKind::Integer}});
  t.note = "From the trace's deviceProperties.";
  for (const DeviceInfo& d : info.devices) {
    t.rows.push_back({intCell(d.id), textCell(d.name), intCell(d.numSms),
                      textCell(std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor)),
                      intCell(d.totalGlobalMem)});
  }
  t.totalRows = t.rows.size();
  return t;
}

Table importIssuesTable(const TraceInfo& info) {
  Table t = makeTable("import_issues", "Import issues",
                      {{"name", "Issue", ColumnKind::Text},
                       {"class", "Class", ColumnKind::Text},
                       {"severity", "Severity", ColumnKind::Text},
                       {"count", "Count", ColumnKind::Integer},
                       {"first_offset", "First byte offset", ColumnKind::Integer},
                       {"description", "Description", ColumnKind::Text}});
  t.note = "Anomalies met while reading the trace; none is dropped silently. Problems: " +
           std::to_string(problemCount(info.issues)) + ". Known producer quirks: " +
           std::to_string(quirkCount(info.issues)) +
           " (expected in every trace of that producer, not problems; docs/import-issues.md).";
  // Problems first, then notes, then the producer quirks.
  std::vector<ImportIssue> issues = info.issues;
  std::stable_sort(issues.begin(), issues.end(), [](const ImportIssue& a, const ImportIssue& b) {
    return std::make_pair(!a.isProblem(), a.producerQuirk) < std::make_pair(!b.isProblem(), b.producerQuirk);
  });
  for (const ImportIssue& i : issues) {
    t.rows.push_back({textCell(i.name), textCell(issueClassName(i)), textCell(severityName(i.severity)),
                      intCell(static_cast<std::int64_t>(i.count)),
                      intCell(static_cast<std::int64_t>(i.firstOffset)), textCell(i.description)});
  }
  t.totalRows = t.rows.size();
  return t;
}

}  // namespace gapscope::report
