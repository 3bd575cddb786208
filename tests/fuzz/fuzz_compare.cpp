// Fuzzes the comparison of two different traces (fuzz_report compares a
// trace with itself): the input is run A and run B split at the first NUL
// byte, which JSON text never holds. Whatever both load is compared and
// written as the comparison report; every figure must stay sane: shares
// within 0..100 %, no negative time, each run's step times one per step,
// the spread test's U within its pairs and its p-value a probability. Then
// the same two as several recordings a side (A and B against B): one
// typical recording a side, the run-to-run test as sane, every format
// written.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "fuzz_input.h"
#include "gapscope/compare/compare.h"
#include "gapscope/report/comparison_report.h"

using namespace gapscope;

namespace {

[[noreturn]] void absurd(const char* what, double value) {
  std::fprintf(stderr, "absurd comparison figure: %s = %.17g\n", what, value);
  std::abort();
}

void requireSaneRun(const compare::RunFigures& run) {
  if (!(run.gpuBusyPct >= 0.0 && run.gpuBusyPct <= 100.0)) absurd("GPU busy %", run.gpuBusyPct);
  if (run.largestGap.dur < 0) absurd("largest gap", static_cast<double>(run.largestGap.dur));
  if (run.stepTimes.size() != run.steps || run.stepNumbers.size() != run.steps)
    absurd("step times listed", static_cast<double>(run.stepTimes.size()));
  for (TimeNs t : run.stepTimes)
    if (t < 0) absurd("a step time", static_cast<double>(t));
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
    const double share = run.idleSharePct(static_cast<analysis::GapCause>(c));
    if (!(share >= 0.0 && share <= 100.0)) absurd("idle share %", share);
  }
}

void requireSaneTest(const compare::StepSpreadTest& t) {
  const double pairs = static_cast<double>(t.stepsA) * static_cast<double>(t.stepsB);
  if (!(t.u >= 0.0 && t.u <= pairs)) absurd("U", t.u);
  if (!(t.pValue >= 0.0 && t.pValue <= 1.0)) absurd("p-value", t.pValue);
}

void requireSaneSpread(const compare::Comparison& c) {
  const compare::StepSpreadTest& t = c.stepSpread;
  if (t.stepsA != c.runs[0].stepTimes.size() || t.stepsB != c.runs[1].stepTimes.size())
    absurd("steps tested", static_cast<double>(t.stepsA));
  requireSaneTest(t);
  if (!(std::isfinite(c.speedup) && c.speedup >= 0.0)) absurd("speedup", c.speedup);
}

void writeEveryFormat(const compare::Comparison& c) {
  const report::ComparisonReport r = report::buildComparisonReport(c);
  (void)report::renderComparisonHtml(r);
  (void)report::renderComparisonMarkdown(r);
  (void)report::renderComparisonCsv(r);
  (void)report::renderComparisonJson(c);
}

// A's side recorded as A and B, B's as B: compared through its typical one.
void compareAsRecordings(const analysis::TraceAnalysis& runA, const analysis::TraceAnalysis& runB) {
  std::array<std::vector<compare::Recording>, 2> recordings{
      std::vector<compare::Recording>{compare::recordingOf(compare::runFigures(runA)),
                                      compare::recordingOf(compare::runFigures(runB))},
      std::vector<compare::Recording>{compare::recordingOf(compare::runFigures(runB))}};
  const analysis::TraceAnalysis& typicalA = compare::typicalRecording(recordings[0]) == 0 ? runA : runB;
  const compare::Comparison c = compare::compareRecordings(typicalA, runB, recordings);
  for (const auto& side : c.recordings)
    if (std::count_if(side.begin(), side.end(), [](const compare::Recording& r) { return r.typical; }) != 1)
      absurd("typical recordings of a side", 0);
  requireSaneTest(c.runToRun);
  if (c.runToRun.stepsA > 2 || c.runToRun.stepsB > 1) absurd("recordings tested", static_cast<double>(c.runToRun.stepsA));
  writeEveryFormat(c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::asText(data, size);
  const std::size_t cut = text.find('\0');
  if (cut == std::string_view::npos) return 0;
  std::shared_ptr<const Trace> a = fuzz::loadForFuzz(text.substr(0, cut));
  std::shared_ptr<const Trace> b = fuzz::loadForFuzz(text.substr(cut + 1));
  if (!a || !b) return 0;
  const analysis::TraceAnalysis runA(a);
  const analysis::TraceAnalysis runB(b);
  const compare::Comparison c = compare::compareTraces(runA, runB);
  for (const compare::RunFigures& run : c.runs) requireSaneRun(run);
  requireSaneSpread(c);
  if (c.verdict.empty()) absurd("verdict length", 0);
  writeEveryFormat(c);
  compareAsRecordings(runA, runB);
  return 0;
}
