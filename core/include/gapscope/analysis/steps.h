// What one iteration ("step") of the profiled program is: found once per
// trace and shared by the gap analysis' per-step figures, the recorder's
// per-step counts and the comparison of two runs.
//
// In order of preference:
//   profiler_step  the CPU user annotations "ProfilerStep#N" that
//                  torch.profiler (and gapscope's recorder) write per step
//   annotation     else an iteration marker: a top-level CPU user
//                  annotation (no user annotation encloses it; cpu ops and
//                  python frames may) whose name repeats in one process, at
//                  least twice. A step runs from one occurrence to the next,
//                  as ProfilerStep#N runs from one prof.step() to the next
//                  (the last occurrence only ends the step before it), so a
//                  program with no step marks of its own gets whole
//                  iterations from what PyTorch annotates once per
//                  iteration ("enumerate(DataLoader)#...__next__",
//                  "Optimizer.zero_grad#...", "Optimizer.step#...") or from
//                  a record_function("train_step") around its body. What a
//                  step "holds" is the GPU ops launched in it (its length
//                  where the trace has no GPU work). The marker: of the
//                  (process, name)s whose steps hold at least 90 % of what
//                  the best one's hold, those whose steps are alike (each,
//                  the first aside, within 2x of their median work and 4x
//                  of their median length: not a per-layer range) if any; of these the finest (a median
//                  step under 4/5 of the other's: not a range every fifth
//                  iteration nor one around the whole loop), then the one
//                  holding the most, then the earliest (the top of the
//                  loop), then the name that sorts first. Names repeated in
//                  a burst (torch.compile's autotuning) hold little and lose.
//                  Collective calls (collectives.h: ncclAllReduce,
//                  nccl:all_reduce) are never markers: DDP makes one per
//                  gradient bucket, several an iteration.
//   whole_trace    else the whole trace is one step (no annotations listed)
// Steps never overlap: an occurrence that starts before the previous one
// ends (the same name on another thread at the same time) is left out.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

enum class StepSource : std::uint8_t { ProfilerStep, RepeatedAnnotation, WholeTrace };
// "profiler_step", "annotation", "whole_trace" (the JSON values).
const char* stepSourceName(StepSource source);

struct StepAnnotations {
  StepSource source = StepSource::WholeTrace;
  // The repeated annotation's name (RepeatedAnnotation); kEmptyString otherwise.
  StringId name = kEmptyString;
  // Per step, sorted by start; empty for WholeTrace: the annotation that
  // opens it (slice index) and the CPU time it spans (the annotation's own
  // for ProfilerStep#N; to the next occurrence of an iteration marker).
  std::vector<std::uint32_t> slices;
  std::vector<TimeRange> spans;
};

StepAnnotations findSteps(const Trace& trace);

// "ProfilerStep#12" and the like.
bool isProfilerStepName(std::string_view name);
// The step number of "ProfilerStep#12" (12); -1 when the name has none.
std::int64_t profilerStepNumber(std::string_view name);

}  // namespace gapscope::analysis
