#include <algorithm>

#include "gapscope/format/duration.h"
#include "report/rules/rules.h"

namespace gapscope::report {

const std::vector<RuleInfo>& reportRules() {
  static const std::vector<RuleInfo> kRules{
      {"launch-overhead-bound", "Launch-overhead bound"},
      {"launch-dominated-kernels", "Short kernels dominated by their launch"},
      {"small-kernels-same-op", "Many small kernels of the same op back to back (horizontal fusion)"},
      {"elementwise-chain", "Chains of element-wise kernels (vertical fusion)"},
      {"gemm-separate-add", "GEMM followed by a separate add (epilogue fusion)"},
      {"sync-in-step", "Synchronisation inside the step"},
      {"pageable-memcpy", "Copies from or to pageable host memory"},
      {"low-occupancy", "Kernels with very low estimated occupancy"},
  };
  return kRules;
}

std::vector<Finding> evaluateRules(const ReportInputs& in) {
  return {rules::launchOverheadBound(in), rules::launchDominatedKernels(in),
          rules::smallKernelsSameOp(in),  rules::elementwiseChain(in),
          rules::gemmSeparateAdd(in),     rules::syncInStep(in),
          rules::pageableMemcpy(in),      rules::lowOccupancy(in)};
}

namespace rules {

Finding newFinding(std::string_view ruleId, std::string threshold) {
  Finding f;
  f.id = std::string(ruleId);
  for (const RuleInfo& r : reportRules())
    if (r.id == ruleId) f.title = r.title;
  f.threshold = std::move(threshold);
  f.passed = true;
  return f;
}

void trigger(Finding& f, Table evidence, std::size_t maxRows, std::vector<std::string> advice) {
  f.passed = false;
  evidence.id = f.id;
  limitRows(evidence, maxRows);
  f.evidence = std::move(evidence);
  f.advice = std::move(advice);
}

VerdictScope verdictScope(const analysis::GapAnalysis& gaps) {
  VerdictScope s;
  s.overSteps = gaps.verdict.overSteps;
  s.devices = analysis::verdictDeviceTotals(gaps);
  for (const auto& d : s.devices) s.total.add(d.totals);
  return s;
}

std::string VerdictScope::windowText() const {
  return overSteps ? "the " + format::formatDuration(total.active) + " of its steps' GPU windows"
                   : "its " + format::formatDuration(total.active) + " active window";
}

TimeNs medianOf(std::vector<TimeNs> values) {
  if (values.empty()) return 0;
  auto mid = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

}  // namespace rules
}  // namespace gapscope::report
