// Two runs of a program compared: before and after a change (fusion,
// torch.compile, a CUDA graph, another batch size). What got faster per
// step, which idle time went away, which kernels replaced which.
//
// Every figure of a run is read from that run's single-trace analyses
// (analysis::TraceAnalysis: the gap analysis with its per-step figures, the
// kernel table, the operator table, the summary), never worked out a second
// way, so `gapscope-cli diff` and `gapscope-cli gaps|kernels|ops` of the
// same file agree. A run's figures are per step (analysis/steps.h says what
// a step is) so runs with different step counts compare; the kernel and
// operator rows count the whole trace.
//
// docs/compare.md has every definition, the matching rules and the JSON.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/analysis/steps.h"
#include "gapscope/analysis/trace_analysis.h"
#include "gapscope/compare/step_spread.h"
#include "gapscope/model/types.h"

namespace gapscope::compare {

// The largest device gap of a run (GapAnalysis::gaps, listed ones).
struct LargestGap {
  TimeNs dur = 0;  // 0: no listed gap
  analysis::GapCause cause = analysis::GapCause::Other;
  std::string after;  // name of the GPU op that ended it
};

// One run's figures. Per step: the mean over the steps of the gap
// analysis' per-step figures (StepStats), or the whole trace's figures
// when it has no steps (then steps == 1).
struct RunFigures {
  std::string file;
  std::string producer;              // "PyTorch profiler (Kineto)", "gapscope recorder", ...
  std::vector<std::string> devices;  // deviceProperties names, in device order
  bool hasGpuActivity = false;
  analysis::StepSource stepSource = analysis::StepSource::WholeTrace;
  std::string stepName;  // "ProfilerStep#N", the repeated annotation, or "whole trace"
  std::uint64_t steps = 0;
  // Step time: the CPU duration of the step annotations (the trace span for
  // the whole trace): median (lower) and p90 (nearest rank).
  TimeNs stepTimeMedian = 0;
  TimeNs stepTimeP90 = 0;
  TimeNs stepTimeTotal = 0;  // sum over the steps
  std::vector<TimeNs> stepTimes;  // each step's, in step order (the whole trace: its span)
  std::vector<std::int64_t> stepNumbers;  // theirs (StepStats::number; the whole trace: 1)
  // A warm-up first step (StepStats::warmUp: start-up, compilation), left
  // out of `steps` and every figure per step: its length; 0 when none was.
  TimeNs warmUpStepTime = 0;
  // GPU busy / active, 0..100, over all devices: of the steps' GPU windows
  // (summed over steps; 0 when they have none), or of the whole trace's
  // (the summary's utilisation) when it has no steps.
  double gpuBusyPct = 0;
  double kernelsPerStep = 0;
  // Kernel launch calls per step: runtime, driver and graph launches (one
  // per graph, however many kernels it ran).
  double launchesPerStep = 0;
  // Device idle per step by cause, and the device active window per step
  // they are a part of (both summed over devices), rounded to whole ns.
  analysis::IdleByCause idlePerStep;
  TimeNs activePerStep = 0;
  TimeNs busyPerStep = 0;
  LargestGap largestGap;
  // Share (0..100) of the active window per step that the GPU sat idle for `cause`.
  double idleSharePct(analysis::GapCause cause) const;
};

// How a kernel of one run was paired with kernels of the other.
enum class KernelMatch : std::uint8_t {
  Name,        // the same name in both runs
  FusedOps,    // a fused kernel (Inductor's triton_*_fused_<ops>_N) whose op list names the
               // operator that launched the other run's kernels
  Operator,    // launched by the same operator (innermost cpu_op around the launch)
  Annotation,  // launched under the same user annotation (innermost, not the step's)
  None,        // in one run only
};
inline constexpr std::size_t kKernelMatchCount = 5;
// "name", "fused_ops", "operator", "annotation", "none" (the JSON values).
const char* kernelMatchName(KernelMatch match);

// One kernel (or memcpy/memset) name and its whole-trace figures in each run.
struct KernelDelta {
  std::string name;
  SliceKind kind = SliceKind::Kernel;
  std::uint64_t countA = 0;
  std::uint64_t countB = 0;
  TimeNs timeA = 0;  // total GPU time
  TimeNs timeB = 0;
  KernelMatch matchedBy = KernelMatch::None;
  int group = -1;  // index into Comparison::groups; -1 for Name and None
};

// Kernels of A that became kernels of B when their names differ: one to
// one, many to one (6 eager kernels -> 1 fused kernel) or many to many.
struct KernelGroup {
  KernelMatch matchedBy = KernelMatch::None;
  std::string key;  // what they share: the operator(s), the annotation(s), or the fused kernel(s)
  std::vector<std::string> kernelsA;
  std::vector<std::string> kernelsB;
  std::uint64_t countA = 0;
  std::uint64_t countB = 0;
  TimeNs timeA = 0;
  TimeNs timeB = 0;
};

// One operator-table row (CPU events: ops, annotations, runtime calls) in
// each run; kernels are compared in Comparison::kernels.
struct OpDelta {
  std::string name;
  std::string inputShapes;  // when matched by shapes
  bool annotation = false;
  std::int64_t callsA = 0;
  std::int64_t callsB = 0;
  TimeNs selfCpuA = 0;
  TimeNs selfCpuB = 0;
  TimeNs deviceA = 0;  // device total: GPU time of the work it and its children launched
  TimeNs deviceB = 0;
};

// One recording of a side recorded several times (compareRecordings;
// docs/compare.md, "Several recordings of each side").
struct Recording {
  std::string file;
  std::uint64_t steps = 0;        // RunFigures::steps
  TimeNs stepTimeMedian = 0;      // RunFigures::stepTimeMedian
  bool typical = false;           // the side's recording compared in full
  bool wholeTrace = false;        // no steps: its whole trace is its one step
};

// Whether a recording's step time counts among its side's: it has one,
// and steps unless no recording of the side has any (then their spans
// compare, as one recording without steps does).
bool isTimed(const Recording& r, const std::vector<Recording>& side);
std::size_t timedCount(const std::vector<Recording>& side);
// ", the middle of 4 recordings" after a run's name, "" for one timed
// recording or none.
std::string middleOfRecordings(const std::vector<Recording>& side);

// A recording as its run's figures give it.
Recording recordingOf(const RunFigures& run);

// Which of a side's recordings is compared in full: the one whose median
// step time is the median of theirs (the lower of the middle two of an
// even count; the first given of equal ones), among the timed ones
// (isTimed). 0 when none is.
std::size_t typicalRecording(const std::vector<Recording>& recordings);

// A's recordings against B's by their median step times (runToRunTest),
// the timed ones.
StepSpreadTest recordingsTest(const std::array<std::vector<Recording>, 2>& recordings);

// One sentence per recording left out of the test: "A's recording F has
// no step time (no events) and is left out of the run-to-run test", "...
// has no steps (its whole trace would be one) and is left out ...".
std::vector<std::string> untimedRecordings(const std::array<std::vector<Recording>, 2>& recordings);

struct CompareOptions {
  // Key operator rows by input shapes too when both runs recorded them.
  bool opsByShapes = true;
};

struct Comparison {
  std::array<RunFigures, 2> runs;  // A, B
  // Every kernel name of either run, by the size of the change of its time
  // per step, largest first.
  std::vector<KernelDelta> kernels;
  std::vector<KernelGroup> groups;  // by the size of the change, largest first
  std::vector<OpDelta> ops;         // by the size of the change per step, largest first
  bool opsByShapes = false;         // rows were keyed by input shapes
  // A's median step time / B's: above 1, B is faster. 0 when either is 0.
  double speedup = 0;
  // A's step times against B's: whether the change is beyond their spread.
  StepSpreadTest stepSpread;
  // Several recordings a side: each side's, in the order given (runs[] are
  // the typical ones), and their median step times of A against B's, which
  // the verdict then tells instead of stepSpread. Empty, and a test of
  // method None, when each side is one recording.
  std::array<std::vector<Recording>, 2> recordings;
  StepSpreadTest runToRun;
  // "B is 2.9x faster per step (...); launch-overhead idle fell from 61% to
  // 4% of the GPU's active time; 14 kernels per step became 3; ..."
  std::string verdict;
  // What makes the two runs less comparable (other GPUs, other producers,
  // other step definitions), each a sentence.
  std::vector<std::string> warnings;

  // How much a whole-trace time changed per step: b / B's steps - a / A's steps.
  double changePerStep(TimeNs a, TimeNs b) const;
};

// Computes what it needs of both analyses (each part once; the two runs on
// two threads) and compares them.
Comparison compareTraces(const analysis::TraceAnalysis& a, const analysis::TraceAnalysis& b,
                         const CompareOptions& options = {});

// Two sides recorded several times: `recordings` holds each side's (from
// their RunFigures), `a` and `b` are the analyses of each side's typical
// one (typicalRecording). Compares those in full, as compareTraces, and
// the sides' recordings by their median step times (runToRunTest). One
// recording a side is compareTraces' answer. Throws std::invalid_argument
// when a side has no recording or `a` or `b` is not its side's typical one
// (by its median step).
Comparison compareRecordings(const analysis::TraceAnalysis& a, const analysis::TraceAnalysis& b,
                             std::array<std::vector<Recording>, 2> recordings, const CompareOptions& options = {});

// Two median step times in the verdict's words: "B is 1.8x faster per step
// (23.750 ms -> 12.857 ms median), beyond the steps' spread (p < 0.001 over
// 11 and 11 steps)" (of recordings: "(... median, middle recordings of 4
// and 4), beyond the run-to-run spread (...)"), "B is 6.3% slower ...,
// within the steps' spread (...)",
// "B takes as long per step as A (...)" within 2 %; "step times are
// unknown" when either is 0. The clause after a change is spreadClause's.
std::string speedPhrase(TimeNs a, TimeNs b, const StepSpreadTest& spread);

// The figures of one run, as compareTraces() reports them.
RunFigures runFigures(const analysis::TraceAnalysis& run);

}  // namespace gapscope::compare
