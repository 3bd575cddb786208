// Internal: the report's rules. Each rule reads the analyses and returns one
// Finding: passed with a sentence of what it measured, or triggered with the
// evidence rows, advice and (where it can be bounded) an estimated saving.
// docs/reports.md documents every rule; keep the two in step.
#pragma once

#include <string>

#include "report/report_build.h"

namespace gapscope::report::rules {

Finding launchOverheadBound(const ReportInputs& in);
Finding launchDominatedKernels(const ReportInputs& in);
Finding smallKernelsSameOp(const ReportInputs& in);
Finding elementwiseChain(const ReportInputs& in);
Finding gemmSeparateAdd(const ReportInputs& in);
Finding syncInStep(const ReportInputs& in);
Finding pageableMemcpy(const ReportInputs& in);
Finding lowOccupancy(const ReportInputs& in);

// A finding with id, title and threshold text set, passed until a rule says otherwise.
Finding newFinding(std::string_view ruleId, std::string threshold);
// Marks the finding triggered with its evidence (rows limited to the report's maximum).
void trigger(Finding& f, Table evidence, std::size_t maxRows, std::vector<std::string> advice);

// Median of durations (lower median), 0 for none.
TimeNs medianOf(std::vector<TimeNs> values);

// The GPU figures the verdict speaks of, per device and summed (the steps'
// GPU windows, or the whole trace's active window), and how to name that
// time: "its 3.11 ms active window" or "the 2.78 ms of its steps' GPU windows".
struct VerdictScope {
  std::vector<analysis::DeviceTotals> devices;
  analysis::GpuTotals total;
  bool overSteps = false;
  std::string windowText() const;
};
VerdictScope verdictScope(const analysis::GapAnalysis& gaps);

}  // namespace gapscope::report::rules
