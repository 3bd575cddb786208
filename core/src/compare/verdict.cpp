// The comparison in words: how much faster or slower B is per step, the
// idle cause that changed most, kernels and launches per step, and the
// largest gap left in B. And what makes the runs less comparable.
#include <algorithm>
#include <cmath>

#include "compare/compare_detail.h"
#include "gapscope/format/duration.h"
#include "gapscope/format/number.h"
#include "gapscope/report/report.h"

namespace gapscope::compare::detail {
namespace {

using analysis::GapCause;
using format::DurationStyle;

// Within this share, two step times count as the same.
constexpr double kSameTime = 0.02;
// An idle share must move by at least this many points to be told.
constexpr double kIdlePoints = 1.0;

std::string duration(TimeNs ns) { return format::formatDuration(ns, DurationStyle::Verdict); }
std::string percent(double pct) { return format::formatPercent(pct, format::PercentStyle::Verdict); }

// The idle cause whose share of the active window moved most.
std::string idleSentence(const RunFigures& a, const RunFigures& b) {
  GapCause most = GapCause::LaunchOverhead;
  double largest = -1;
  for (std::size_t c = 0; c < analysis::kGapCauseCount; ++c) {
    const auto cause = static_cast<GapCause>(c);
    const double move = std::abs(b.idleSharePct(cause) - a.idleSharePct(cause));
    if (move > largest) {
      largest = move;
      most = cause;
    }
  }
  if (largest < kIdlePoints) return "idle time by cause is about the same";
  const double pa = a.idleSharePct(most);
  const double pb = b.idleSharePct(most);
  return std::string(analysis::gapCauseLabel(most)) + " idle " + (pb < pa ? "fell" : "rose") + " from " +
         percent(pa) + " to " + percent(pb) + " of the GPU's active time";
}

std::string perStepNumber(double v) { return format::formatNumber(v, 1); }

std::string countSentence(const char* what, double a, double b) {
  if (perStepNumber(a) == perStepNumber(b)) return std::string(what) + " per step unchanged (" + perStepNumber(a) + ")";
  return perStepNumber(a) + " " + what + " per step became " + perStepNumber(b);
}

std::string gapSentence(const RunFigures& b) {
  if (!b.hasGpuActivity) return "B has no GPU activity";
  if (b.largestGap.dur <= 0) {
    return b.stepSource == analysis::StepSource::WholeTrace ? "B has no listed GPU idle gap left"
                                                            : "B has no listed GPU idle gap left in its steps";
  }
  std::string s = "the largest gap left in B is " + duration(b.largestGap.dur) + " of " +
                  analysis::gapCauseLabel(b.largestGap.cause);
  if (!b.largestGap.after.empty()) s += " before " + report::kernelLabel(b.largestGap.after);
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "no GPU named" : s;
}

}  // namespace

std::string makeVerdict(const Comparison& c) {
  const RunFigures& a = c.runs[0];
  const RunFigures& b = c.runs[1];
  // Several recordings a side: the run-to-run spread is the one that tells.
  const bool severalRecordings = !c.recordings[0].empty();
  std::string v = speedPhrase(a.stepTimeMedian, b.stepTimeMedian, severalRecordings ? c.runToRun : c.stepSpread);
  if (a.hasGpuActivity || b.hasGpuActivity) {
    v += "; " + idleSentence(a, b);
    v += "; " + countSentence("kernels", a.kernelsPerStep, b.kernelsPerStep);
    // Launches tell something kernels do not where the two part ways (a
    // CUDA graph: one launch, many kernels).
    const bool launchesTellMore = perStepNumber(a.launchesPerStep) != perStepNumber(a.kernelsPerStep) ||
                                  perStepNumber(b.launchesPerStep) != perStepNumber(b.kernelsPerStep);
    if (launchesTellMore && perStepNumber(a.launchesPerStep) != perStepNumber(b.launchesPerStep))
      v += "; " + countSentence("kernel launches", a.launchesPerStep, b.launchesPerStep);
    v += "; " + gapSentence(b);
  }
  return v + ".";
}

std::vector<std::string> makeWarnings(const Comparison& c) {
  const RunFigures& a = c.runs[0];
  const RunFigures& b = c.runs[1];
  std::vector<std::string> w;
  if (a.devices != b.devices)
    w.push_back("the runs used different GPUs: A " + joined(a.devices) + ", B " + joined(b.devices));
  if (a.producer != b.producer)
    w.push_back("the runs were recorded by different tools: A by " + a.producer + ", B by " + b.producer +
                "; names and nesting may differ");
  if (a.stepSource != b.stepSource || a.stepName != b.stepName)
    w.push_back("the runs define a step differently: A by " + a.stepName + ", B by " + b.stepName);
  for (const RunFigures* r : {&a, &b}) {
    const char* side = r == &a ? "A" : "B";
    if (r->stepSource == analysis::StepSource::WholeTrace)
      w.push_back(std::string("run ") + side + " has no steps (no ProfilerStep#N, no repeated annotation): "
                  "its whole trace counts as one step");
    if (!r->hasGpuActivity) w.push_back(std::string("run ") + side + " has no GPU activity");
    if (r->warmUpStepTime > 0)
      w.push_back(std::string(side) + "'s first step, " + duration(r->warmUpStepTime) + " (" +
                  std::to_string(r->stepTimeMedian > 0 ? (r->warmUpStepTime + r->stepTimeMedian / 2) / r->stepTimeMedian : 0) +
                  "x the median of the others: start-up or compilation), is left out of its per-step figures");
  }
  return w;
}

}  // namespace gapscope::compare::detail

namespace gapscope::compare {

using detail::duration;
using detail::percent;
using detail::kSameTime;

std::string speedPhrase(TimeNs ta, TimeNs tb, const StepSpreadTest& spread) {
  if (ta <= 0 || tb <= 0) return "step times are unknown";
  // One timed recording a side has no middle to speak of.
  const bool middle = spread.unit == SpreadUnit::Recordings && std::max(spread.stepsA, spread.stepsB) > 1;
  const std::string of =
      middle ? ", middle recordings of " + std::to_string(spread.stepsA) + " and " + std::to_string(spread.stepsB) : "";
  const std::string times = " (" + duration(ta) + " -> " + duration(tb) + " median" + of + ")";
  const double ratio = static_cast<double>(ta) / static_cast<double>(tb);
  if (std::abs(ratio - 1.0) < kSameTime) return "B takes as long per step as A" + times;
  const bool faster = ratio > 1.0;
  const double factor = faster ? ratio : 1.0 / ratio;
  // Small changes read better as a share: "6.3% slower", not "1.1x slower".
  const std::string amount = factor >= 1.1 ? format::formatFixed(factor, 1) + "x"
                                           : percent(100.0 * std::abs(1.0 - static_cast<double>(tb) / static_cast<double>(ta)));
  return "B is " + amount + (faster ? " faster" : " slower") + " per step" + times + ", " + spreadClause(spread);
}

}  // namespace gapscope::compare
