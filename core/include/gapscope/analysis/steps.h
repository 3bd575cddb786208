// What one iteration ("step") of the profiled program is: found once per
// trace and shared by the gap analysis' per-step figures, the recorder's
// per-step counts and the comparison of two runs.
//
// In order of preference:
//   profiler_step  the CPU user annotations "ProfilerStep#N" that
//                  torch.profiler (and gapscope's recorder) write per step
//   annotation     else the top-level CPU user annotation whose name repeats
//                  most often (at least twice), e.g. a training loop's
//                  record_function("train_step"); top-level: no user
//                  annotation encloses it (cpu ops and python frames may);
//                  ties go to the name with the most time, then to the
//                  name that sorts first
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
  std::vector<std::uint32_t> slices;  // slice indices, sorted by start; empty for WholeTrace
};

StepAnnotations findSteps(const Trace& trace);

// "ProfilerStep#12" and the like.
bool isProfilerStepName(std::string_view name);
// The step number of "ProfilerStep#12" (12); -1 when the name has none.
std::int64_t profilerStepNumber(std::string_view name);

}  // namespace gapscope::analysis
