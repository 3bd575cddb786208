// Step detection (steps.h): ProfilerStep#N, else the most repeated
// top-level user annotation, else the whole trace.
#include <algorithm>
#include <charconv>

#include "gapscope/analysis/steps.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace {

// No user annotation encloses `s` on its track.
bool isTopLevelAnnotation(const Trace& trace, const Slice& s) {
  for (std::uint32_t p = s.parent; p != kNoIndex; p = trace.slices[p].parent)
    if (trace.slices[p].kind == SliceKind::UserAnnotation) return false;
  return true;
}

// The CPU user annotations, split into ProfilerStep#N ones and top-level
// others. PyTorch before Kineto's user_annotation category (2021 traces
// and older) wrote ProfilerStep#N as an "Operator" event: a CPU op of that
// name is a step too.
struct Candidates {
  std::vector<std::uint32_t> profilerSteps;
  std::vector<std::uint32_t> topLevel;
};

Candidates collectCandidates(const Trace& trace) {
  Candidates c;
  std::vector<std::int8_t> stepName(trace.strings.size(), -1);  // per name: is it ProfilerStep#N (-1 unknown)
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::CpuThread) continue;
    for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
      const Slice& s = trace.slices[i];
      if (s.kind != SliceKind::UserAnnotation && s.kind != SliceKind::CpuOp) continue;
      std::int8_t& known = stepName[s.name];
      if (known < 0) known = isProfilerStepName(trace.str(s.name)) ? 1 : 0;
      if (known) {
        c.profilerSteps.push_back(i);
      } else if (s.kind == SliceKind::UserAnnotation && isTopLevelAnnotation(trace, s)) {
        c.topLevel.push_back(i);
      }
    }
  }
  return c;
}

// The most repeated name among `slices` (count, then total time, then
// text); kEmptyString when no name occurs twice.
StringId mostRepeatedName(const Trace& trace, const std::vector<std::uint32_t>& slices) {
  struct Tally {
    std::uint64_t count = 0;
    TimeNs total = 0;
  };
  std::vector<Tally> tally(trace.strings.size());
  for (std::uint32_t i : slices) {
    ++tally[trace.slices[i].name].count;
    tally[trace.slices[i].name].total = addSaturating(tally[trace.slices[i].name].total, trace.slices[i].dur);
  }
  StringId best = kEmptyString;
  auto better = [&](StringId a, StringId b) {  // is a better than b
    if (tally[a].count != tally[b].count) return tally[a].count > tally[b].count;
    if (tally[a].total != tally[b].total) return tally[a].total > tally[b].total;
    return trace.str(a) < trace.str(b);
  };
  for (std::uint32_t i : slices) {
    StringId name = trace.slices[i].name;
    if (tally[name].count >= 2 && (best == kEmptyString || better(name, best))) best = name;
  }
  return best;
}

// Sorts by start and drops every slice that starts before the previous kept one ends.
void keepDisjoint(const Trace& trace, std::vector<std::uint32_t>& slices) {
  std::stable_sort(slices.begin(), slices.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].start < trace.slices[b].start;
  });
  std::vector<std::uint32_t> kept;
  kept.reserve(slices.size());
  for (std::uint32_t i : slices) {
    if (!kept.empty() && trace.slices[i].start < trace.slices[kept.back()].end()) continue;
    kept.push_back(i);
  }
  slices = std::move(kept);
}

}  // namespace

const char* stepSourceName(StepSource source) {
  switch (source) {
    case StepSource::ProfilerStep: return "profiler_step";
    case StepSource::RepeatedAnnotation: return "annotation";
    case StepSource::WholeTrace: return "whole_trace";
  }
  return "whole_trace";
}

bool isProfilerStepName(std::string_view name) {
  constexpr std::string_view kProfilerStep = "ProfilerStep#";
  return name.substr(0, kProfilerStep.size()) == kProfilerStep;
}

std::int64_t profilerStepNumber(std::string_view name) {
  auto hash = name.find('#');
  std::int64_t n = -1;
  if (hash == std::string_view::npos) return n;
  std::from_chars(name.data() + hash + 1, name.data() + name.size(), n);
  return n;
}

StepAnnotations findSteps(const Trace& trace) {
  Candidates c = collectCandidates(trace);
  StepAnnotations steps;
  if (!c.profilerSteps.empty()) {
    steps.source = StepSource::ProfilerStep;
    steps.slices = std::move(c.profilerSteps);
  } else if (StringId name = mostRepeatedName(trace, c.topLevel); name != kEmptyString) {
    steps.source = StepSource::RepeatedAnnotation;
    steps.name = name;
    for (std::uint32_t i : c.topLevel)
      if (trace.slices[i].name == name) steps.slices.push_back(i);
  } else {
    return steps;
  }
  keepDisjoint(trace, steps.slices);
  return steps;
}

}  // namespace gapscope::analysis
