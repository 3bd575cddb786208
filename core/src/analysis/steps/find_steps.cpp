// Step detection (steps.h): ProfilerStep#N, else the iteration marked by a
// repeated top-level user annotation, else the whole trace.
#include <algorithm>
#include <charconv>
#include <limits>

#include "gapscope/analysis/steps.h"

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

// The top-level annotations of each name that occurs at least twice once
// overlapping occurrences are left out, each list sorted by start. Grouped
// by sorting (names, then file order), so the cost follows the annotations,
// not the trace's string table.
std::vector<std::vector<std::uint32_t>> repeatedNames(const Trace& trace, std::vector<std::uint32_t> topLevel) {
  std::stable_sort(topLevel.begin(), topLevel.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].name < trace.slices[b].name;
  });
  std::vector<std::vector<std::uint32_t>> repeated;
  for (std::size_t from = 0; from < topLevel.size();) {
    std::size_t to = from + 1;
    while (to < topLevel.size() && trace.slices[topLevel[to]].name == trace.slices[topLevel[from]].name) ++to;
    if (to - from >= 2) {
      std::vector<std::uint32_t> occurrences(topLevel.begin() + static_cast<std::ptrdiff_t>(from),
                                             topLevel.begin() + static_cast<std::ptrdiff_t>(to));
      keepDisjoint(trace, occurrences);
      if (occurrences.size() >= 2) repeated.push_back(std::move(occurrences));
    }
    from = to;
  }
  return repeated;
}

// What a span holds: the GPU ops launched inside it (`launchTimes`,
// sorted), or its length where the trace has no GPU work.
std::uint64_t workIn(const TimeRange& span, const std::vector<TimeNs>& launchTimes) {
  if (launchTimes.empty()) return static_cast<std::uint64_t>(span.duration());
  const auto from = std::lower_bound(launchTimes.begin(), launchTimes.end(), span.start);
  return static_cast<std::uint64_t>(std::lower_bound(from, launchTimes.end(), span.end) - from);
}

// One repeated name's steps: from each occurrence to the next; the last
// occurrence a step of its own length when it wraps an iteration (holds at
// least half the work of the median step before it), and `work`, what the
// steps hold.
StepAnnotations periodsOf(const Trace& trace, const std::vector<std::uint32_t>& occurrences,
                          const std::vector<TimeNs>& launchTimes, std::uint64_t& work) {
  StepAnnotations steps;
  steps.source = StepSource::RepeatedAnnotation;
  steps.name = trace.slices[occurrences.front()].name;
  std::vector<std::uint64_t> held;
  for (std::size_t i = 0; i + 1 < occurrences.size(); ++i) {
    steps.slices.push_back(occurrences[i]);
    steps.spans.push_back(TimeRange{trace.slices[occurrences[i]].start, trace.slices[occurrences[i + 1]].start});
    held.push_back(workIn(steps.spans.back(), launchTimes));
  }
  work = 0;
  for (std::uint64_t w : held) work += w;
  const auto middle = held.begin() + static_cast<std::ptrdiff_t>((held.size() - 1) / 2);
  std::nth_element(held.begin(), middle, held.end());
  const Slice& last = trace.slices[occurrences.back()];
  const TimeRange own{last.start, last.end()};
  const std::uint64_t lastWork = workIn(own, launchTimes);
  if (lastWork > 0 && lastWork >= *middle - *middle / 2) {
    steps.slices.push_back(occurrences.back());
    steps.spans.push_back(own);
    work += lastWork;
  }
  return steps;
}

// When each GPU op was launched (its launch call's start, else its own),
// sorted: what a step "holds" is what was launched inside it.
std::vector<TimeNs> gpuLaunchTimes(const Trace& trace) {
  std::vector<TimeNs> times;
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
      if (!isGpuActivity(s->kind)) continue;
      const std::uint32_t launch =
          s->correlation == kNoCorrelation ? kNoIndex : trace.launchForCorrelation(s->correlation);
      times.push_back(launch == kNoIndex ? s->start : trace.slices[launch].start);
    }
  }
  std::sort(times.begin(), times.end());
  return times;
}

// The iteration marker among the repeated names (steps.h); WholeTrace steps when none repeats.
StepAnnotations iterationMarkerSteps(const Trace& trace, const std::vector<std::uint32_t>& topLevel) {
  const std::vector<std::vector<std::uint32_t>> repeated = repeatedNames(trace, topLevel);
  if (repeated.empty()) return {};
  const std::vector<TimeNs> launchTimes = gpuLaunchTimes(trace);
  std::vector<StepAnnotations> candidates;
  std::vector<std::uint64_t> work;
  for (const auto& occurrences : repeated) {
    std::uint64_t held = 0;
    candidates.push_back(periodsOf(trace, occurrences, launchTimes, held));
    work.push_back(held);
  }
  // Holding at least 90 % of the most; of those, within one step of the
  // fewest steps (an iteration, not a layer: iteration markers differ by
  // one, a data loader's last call or a last step kept or not).
  const std::uint64_t most = *std::max_element(work.begin(), work.end());
  auto holdsEnough = [&](std::size_t i) { return work[i] >= most - most / 10; };
  std::size_t fewest = std::numeric_limits<std::size_t>::max();
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (holdsEnough(i)) fewest = std::min(fewest, candidates[i].slices.size());
  auto better = [&](std::size_t a, std::size_t b) {  // is candidate a better than b
    if (work[a] != work[b]) return work[a] > work[b];
    const TimeNs startA = candidates[a].spans.front().start, startB = candidates[b].spans.front().start;
    if (startA != startB) return startA < startB;
    return trace.str(candidates[a].name) < trace.str(candidates[b].name);
  };
  std::size_t best = candidates.size();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!holdsEnough(i) || candidates[i].slices.size() > fewest + 1) continue;
    if (best == candidates.size() || better(i, best)) best = i;
  }
  return std::move(candidates[best]);
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
  if (c.profilerSteps.empty()) return iterationMarkerSteps(trace, c.topLevel);
  StepAnnotations steps;
  steps.source = StepSource::ProfilerStep;
  steps.slices = std::move(c.profilerSteps);
  keepDisjoint(trace, steps.slices);
  for (std::uint32_t i : steps.slices) steps.spans.push_back(TimeRange{trace.slices[i].start, trace.slices[i].end()});
  return steps;
}

}  // namespace gapscope::analysis
