// Step detection (steps.h): ProfilerStep#N, else the iteration marked by a
// repeated top-level user annotation, else the whole trace.
#include <algorithm>
#include <charconv>
#include <limits>

#include "gapscope/analysis/collectives.h"
#include "gapscope/analysis/gaps.h"
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
// others, collective calls left out: data-parallel training makes several
// a step (a DDP all-reduce per gradient bucket, from the autograd thread,
// where they are top-level), so they would cut iterations in pieces.
// PyTorch before Kineto's user_annotation category (2021 traces and older)
// wrote ProfilerStep#N as an "Operator" event: a CPU op of that name is a
// step too.
struct Candidates {
  std::vector<std::uint32_t> profilerSteps;
  std::vector<std::uint32_t> topLevel;
};

Candidates collectCandidates(const Trace& trace) {
  Candidates c;
  enum : std::int8_t { Unknown, Other, ProfilerStep, Collective };
  std::vector<std::int8_t> nameIs(trace.strings.size(), Unknown);
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::CpuThread) continue;
    for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
      const Slice& s = trace.slices[i];
      if (s.kind != SliceKind::UserAnnotation && s.kind != SliceKind::CpuOp) continue;
      std::int8_t& known = nameIs[s.name];
      if (known == Unknown) {
        const std::string_view name = trace.str(s.name);
        known = isProfilerStepName(name) ? ProfilerStep : isCollectiveCall(name) ? Collective : Other;
      }
      if (known == ProfilerStep) {
        c.profilerSteps.push_back(i);
      } else if (known == Other && s.kind == SliceKind::UserAnnotation && isTopLevelAnnotation(trace, s)) {
        c.topLevel.push_back(i);
      }
    }
  }
  return c;
}

// Sorts by start and drops every slice that starts before the previous kept
// one ends, or where it starts (a zero-length twin on another thread).
void keepDisjoint(const Trace& trace, std::vector<std::uint32_t>& slices) {
  std::stable_sort(slices.begin(), slices.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].start < trace.slices[b].start;
  });
  std::vector<std::uint32_t> kept;
  kept.reserve(slices.size());
  for (std::uint32_t i : slices) {
    if (!kept.empty()) {
      const Slice& last = trace.slices[kept.back()];
      if (trace.slices[i].start < last.end() || trace.slices[i].start == last.start) continue;
    }
    kept.push_back(i);
  }
  slices = std::move(kept);
}

// The top-level annotations of each process and name that occurs at least
// twice once overlapping occurrences are left out, each list sorted by
// start: one process's loop, not two processes' interleaved. Grouped by
// sorting, so the cost follows the annotations, not the trace's tables.
std::vector<std::vector<std::uint32_t>> repeatedNames(const Trace& trace, std::vector<std::uint32_t> topLevel) {
  auto key = [&](std::uint32_t i) {
    return std::make_pair(trace.tracks[trace.slices[i].track].process, trace.slices[i].name);
  };
  std::stable_sort(topLevel.begin(), topLevel.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::vector<std::uint32_t>> repeated;
  for (std::size_t from = 0; from < topLevel.size();) {
    std::size_t to = from + 1;
    while (to < topLevel.size() && key(topLevel[to]) == key(topLevel[from])) ++to;
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

// What a span holds: the GPU ops launched inside it (`launchTimes`,
// sorted), or its length where the trace has no GPU work.
std::uint64_t workIn(const TimeRange& span, const std::vector<TimeNs>& launchTimes) {
  if (launchTimes.empty()) return static_cast<std::uint64_t>(span.duration());
  const auto from = std::lower_bound(launchTimes.begin(), launchTimes.end(), span.start);
  return static_cast<std::uint64_t>(std::lower_bound(from, launchTimes.end(), span.end) - from);
}

// One repeated name's steps, from each occurrence to the next (the last
// occurrence only ends the step before it), and what the choice of the
// marker weighs: what the steps hold, their usual length, and whether they
// hold alike amounts (the first, which may be a warm-up, aside).
struct MarkerCandidate {
  StepAnnotations steps;
  std::uint64_t work = 0;
  TimeNs medianLength = 0;
  bool alike = true;
};

MarkerCandidate candidateOf(const Trace& trace, const std::vector<std::uint32_t>& occurrences,
                            const std::vector<TimeNs>& launchTimes) {
  MarkerCandidate c;
  c.steps.source = StepSource::RepeatedAnnotation;
  c.steps.name = trace.slices[occurrences.front()].name;
  std::vector<TimeNs> held;  // (counts of GPU ops, or lengths: both fit a TimeNs)
  std::vector<TimeNs> lengths;
  for (std::size_t i = 0; i + 1 < occurrences.size(); ++i) {
    const TimeRange span{trace.slices[occurrences[i]].start, trace.slices[occurrences[i + 1]].start};
    c.steps.slices.push_back(occurrences[i]);
    c.steps.spans.push_back(span);
    held.push_back(static_cast<TimeNs>(workIn(span, launchTimes)));
    lengths.push_back(span.duration());
    c.work += static_cast<std::uint64_t>(held.back());
  }
  c.medianLength = distributionOf(lengths).median;
  // Alike: each step, the first aside, within 2x of the usual work and 4x
  // of the usual length. A per-layer range is not: its steps are a layer
  // each, then the rest of the iteration (backward, optimizer, data).
  if (held.size() >= 3) {
    const std::vector<TimeNs> laterHeld(held.begin() + 1, held.end());
    const std::vector<TimeNs> laterLengths(lengths.begin() + 1, lengths.end());
    const TimeNs usualWork = distributionOf(laterHeld).median;
    const TimeNs usualLength = distributionOf(laterLengths).median;
    for (std::size_t i = 0; i < laterHeld.size(); ++i) {
      c.alike = c.alike && laterHeld[i] <= 2 * usualWork && 2 * laterHeld[i] >= usualWork &&
                laterLengths[i] / 4 <= usualLength && laterLengths[i] >= usualLength / 4;
    }
  }
  return c;
}

// Is candidate a a better iteration marker than b, both holding enough
// and alike: the finer (a usual step under 4/5 of the other's: not every
// fifth iteration, not a range around the whole loop), then the one
// holding more (a data loader's next() starts every iteration, zero_grad
// all but the last one's), then the earlier (the top of the loop), then
// the name that sorts first.
bool betterMarker(const Trace& trace, const MarkerCandidate& a, const MarkerCandidate& b) {
  if (a.medianLength < b.medianLength - b.medianLength / 5) return true;
  if (b.medianLength < a.medianLength - a.medianLength / 5) return false;
  if (a.work != b.work) return a.work > b.work;
  const TimeNs startA = a.steps.spans.front().start, startB = b.steps.spans.front().start;
  if (startA != startB) return startA < startB;
  return trace.str(a.steps.name) < trace.str(b.steps.name);
}

// The iteration marker among the repeated names (steps.h); WholeTrace steps when none repeats.
StepAnnotations iterationMarkerSteps(const Trace& trace, const std::vector<std::uint32_t>& topLevel) {
  const std::vector<std::vector<std::uint32_t>> repeated = repeatedNames(trace, topLevel);
  if (repeated.empty()) return {};
  const std::vector<TimeNs> launchTimes = gpuLaunchTimes(trace);
  std::vector<MarkerCandidate> candidates;
  for (const auto& occurrences : repeated) candidates.push_back(candidateOf(trace, occurrences, launchTimes));
  // Holding at least 90 % of what the best holds (a burst of autotuning
  // holds little); of those, the ones whose steps hold alike amounts, if any.
  std::uint64_t most = 0;
  for (const MarkerCandidate& c : candidates) most = std::max(most, c.work);
  auto holdsEnough = [&](const MarkerCandidate& c) { return c.work >= most - most / 10; };
  const bool anyAlike = std::any_of(candidates.begin(), candidates.end(),
                                    [&](const MarkerCandidate& c) { return holdsEnough(c) && c.alike; });
  const MarkerCandidate* best = nullptr;
  for (const MarkerCandidate& c : candidates) {
    if (!holdsEnough(c) || (anyAlike && !c.alike)) continue;
    if (!best || betterMarker(trace, c, *best)) best = &c;
  }
  return best->steps;
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
