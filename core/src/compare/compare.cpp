// compareTraces(): both runs' analyses (computed side by side), their
// figures, the kernel and operator matching, the verdict and warnings;
// compareRecordings(): the same of each side's typical recording, and the
// sides' recordings tested against each other.
#include <algorithm>
#include <stdexcept>
#include <thread>

#include "compare/compare_detail.h"
#include "gapscope/compare/compare.h"

namespace gapscope::compare {
namespace {

using analysis::TraceAnalysis;

// Whether any CPU op of the trace carries input shapes (record_shapes=True).
bool hasShapes(const Trace& trace) {
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::CpuThread) continue;
    for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s)
      if (s->kind == SliceKind::CpuOp && s->shapes != kEmptyString) return true;
  }
  return false;
}

// The run's operator table keyed as asked: the held one when its grouping
// fits, else the same function with the other grouping.
analysis::OpTable opTableFor(const TraceAnalysis& run, bool byShapes) {
  if (run.options().ops.groupByShapes == byShapes) return run.ops();
  analysis::OpTableOptions options = run.options().ops;
  options.groupByShapes = byShapes;
  return analysis::buildOpTable(run.trace(), options);
}

detail::KernelSide kernelSide(const TraceAnalysis& run, const RunFigures& figures) {
  return {&run.kernels(), &run.trace(),
          figures.stepSource == analysis::StepSource::RepeatedAnnotation ? run.gaps().stepName : kEmptyString};
}

}  // namespace

const char* kernelMatchName(KernelMatch match) {
  switch (match) {
    case KernelMatch::Name: return "name";
    case KernelMatch::FusedOps: return "fused_ops";
    case KernelMatch::Operator: return "operator";
    case KernelMatch::Annotation: return "annotation";
    case KernelMatch::None: return "none";
  }
  return "none";
}

// The rows count the whole trace, a warm-up step included: so does the divisor.
double Comparison::changePerStep(TimeNs a, TimeNs b) const {
  auto stepsCounted = [](const RunFigures& r) { return r.steps + (r.warmUpStepTime > 0 ? 1 : 0); };
  return detail::perStep(b, stepsCounted(runs[1])) - detail::perStep(a, stepsCounted(runs[0]));
}

Comparison compareTraces(const TraceAnalysis& a, const TraceAnalysis& b, const CompareOptions& options) {
  {
    // Each run's parts at once, the two runs side by side.
    std::thread other([&] { b.computeAll(); });
    a.computeAll();
    other.join();
  }
  Comparison c;
  c.runs = {runFigures(a), runFigures(b)};
  c.opsByShapes = options.opsByShapes && hasShapes(a.trace()) && hasShapes(b.trace());
  detail::matchKernels(kernelSide(a, c.runs[0]), kernelSide(b, c.runs[1]), c);
  detail::matchOps(opTableFor(a, c.opsByShapes), opTableFor(b, c.opsByShapes), c);
  const TimeNs ta = c.runs[0].stepTimeMedian;
  const TimeNs tb = c.runs[1].stepTimeMedian;
  c.speedup = ta > 0 && tb > 0 ? static_cast<double>(ta) / static_cast<double>(tb) : 0.0;
  c.stepSpread = stepSpreadTest(c.runs[0].stepTimes, c.runs[1].stepTimes);
  c.verdict = detail::makeVerdict(c);
  c.warnings = detail::makeWarnings(c);
  return c;
}

Recording recordingOf(const RunFigures& run) {
  return {run.file, run.steps, run.stepTimeMedian, false, run.stepSource == analysis::StepSource::WholeTrace};
}

bool isTimed(const Recording& r, const std::vector<Recording>& side) {
  if (r.stepTimeMedian <= 0) return false;
  return !r.wholeTrace || std::all_of(side.begin(), side.end(), [](const Recording& o) { return o.wholeTrace; });
}

std::size_t timedCount(const std::vector<Recording>& side) {
  return static_cast<std::size_t>(
      std::count_if(side.begin(), side.end(), [&](const Recording& r) { return isTimed(r, side); }));
}

std::string middleOfRecordings(const std::vector<Recording>& side) {
  const std::size_t n = timedCount(side);
  return n > 1 ? ", the middle of " + std::to_string(n) + " recordings" : "";
}

std::size_t typicalRecording(const std::vector<Recording>& recordings) {
  std::vector<TimeNs> timed;
  for (const Recording& r : recordings)
    if (isTimed(r, recordings)) timed.push_back(r.stepTimeMedian);
  if (timed.empty()) return 0;
  // The lower median, as a run's median step is taken.
  const TimeNs middle = analysis::distributionOf(timed).median;
  return static_cast<std::size_t>(std::find_if(recordings.begin(), recordings.end(), [&](const Recording& r) {
                                    return isTimed(r, recordings) && r.stepTimeMedian == middle;
                                  }) -
                                  recordings.begin());
}

StepSpreadTest recordingsTest(const std::array<std::vector<Recording>, 2>& recordings) {
  std::array<std::vector<TimeNs>, 2> medians;
  for (std::size_t side = 0; side < 2; ++side)
    for (const Recording& r : recordings[side])
      if (isTimed(r, recordings[side])) medians[side].push_back(r.stepTimeMedian);
  return runToRunTest(medians[0], medians[1]);
}

std::vector<std::string> untimedRecordings(const std::array<std::vector<Recording>, 2>& recordings) {
  std::vector<std::string> sentences;
  for (std::size_t side = 0; side < 2; ++side)
    for (const Recording& r : recordings[side])
      if (!isTimed(r, recordings[side]))
        sentences.push_back(std::string(side == 0 ? "A" : "B") + "'s recording " + r.file +
                            (r.stepTimeMedian <= 0 ? " has no step time (no events)"
                                                   : " has no steps (its whole trace would be one)") +
                            " and is left out of the run-to-run test");
  return sentences;
}

Comparison compareRecordings(const TraceAnalysis& a, const TraceAnalysis& b,
                             std::array<std::vector<Recording>, 2> recordings, const CompareOptions& options) {
  for (std::size_t side = 0; side < 2; ++side) {
    if (recordings[side].empty()) throw std::invalid_argument(std::string("run ") + "AB"[side] + " has no recording");
  }
  if (recordings[0].size() == 1 && recordings[1].size() == 1) return compareTraces(a, b, options);
  for (std::size_t side = 0; side < 2; ++side) {
    for (Recording& r : recordings[side]) r.typical = false;
    recordings[side][typicalRecording(recordings[side])].typical = true;
  }
  Comparison c = compareTraces(a, b, options);
  for (std::size_t side = 0; side < 2; ++side) {
    const Recording& typical = *std::find_if(recordings[side].begin(), recordings[side].end(),
                                             [](const Recording& r) { return r.typical; });
    // By its median step: a trace recorded in the app has no file name.
    if (typical.stepTimeMedian != c.runs[side].stepTimeMedian)
      throw std::invalid_argument(std::string("run ") + "AB"[side] + " is " + c.runs[side].file +
                                  ", not its side's typical recording " + typical.file);
  }
  c.runToRun = recordingsTest(recordings);
  for (std::string& w : untimedRecordings(recordings)) c.warnings.push_back(std::move(w));
  c.recordings = std::move(recordings);
  c.verdict = detail::makeVerdict(c);
  return c;
}

}  // namespace gapscope::compare
