// Events far from all the others (summary.h): one pass over the events
// into a few thousand time buckets, each keeping its earliest start and
// latest end; the largest empty stretch lies between buckets, where a
// sweep meets it as the next bucket's earliest start less the latest end
// reached so far. O(events) time, a fixed 96 KiB of memory.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>

#include "gapscope/analysis/summary.h"

namespace gapscope::analysis {
namespace {

constexpr std::size_t kBuckets = 4096;
constexpr TimeNs kStretchTenths = 9;     // the empty stretch holds 9/10 of the span or more
constexpr std::uint64_t kFewPercent = 1;  // and its smaller side 1 % of the events or fewer

struct Buckets {
  TimeNs lo;
  TimeNs width;
  std::array<std::uint64_t, kBuckets> count{};
  std::array<TimeNs, kBuckets> firstStart;
  std::array<TimeNs, kBuckets> lastEnd;

  Buckets(TimeNs first, TimeNs last) : lo(first), width((last - first) / static_cast<TimeNs>(kBuckets) + 1) {
    firstStart.fill(std::numeric_limits<TimeNs>::max());
    lastEnd.fill(std::numeric_limits<TimeNs>::min());
  }
  void add(TimeNs start, TimeNs end) {
    const TimeNs i = std::clamp<TimeNs>((start - lo) / width, 0, static_cast<TimeNs>(kBuckets) - 1);
    const auto b = static_cast<std::size_t>(i);
    ++count[b];
    firstStart[b] = std::min(firstStart[b], start);
    lastEnd[b] = std::max(lastEnd[b], end);
  }
};

struct Stretch {
  TimeNs from = 0;  // the latest end before it
  TimeNs to = 0;    // the earliest start after it
  std::uint64_t before = 0;  // events that start before it
};

Stretch largestEmptyStretch(const Buckets& b, std::uint64_t* total) {
  Stretch best;
  TimeNs reach = std::numeric_limits<TimeNs>::min();
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    if (b.count[i] == 0) continue;
    if (seen > 0 && b.firstStart[i] - reach > best.to - best.from) best = {reach, b.firstStart[i], seen};
    reach = std::max(reach, b.lastEnd[i]);
    seen += b.count[i];
  }
  *total = seen;
  return best;
}

}  // namespace

OutlyingEvents findOutlyingEvents(const Trace& trace) {
  OutlyingEvents out;
  const TimeNs span = trace.maxTime() - trace.minTime();
  if (span <= 0) return out;
  auto buckets = std::make_unique<Buckets>(trace.minTime(), trace.maxTime());
  for (const Slice& s : trace.slices) buckets->add(s.start, s.end());
  for (const Instant& i : trace.instants) buckets->add(i.ts, i.ts);
  for (const CounterSeries& c : trace.counters) {
    for (TimeNs ts : c.ts) buckets->add(ts, ts);
  }
  std::uint64_t total = 0;
  const Stretch gap = largestEmptyStretch(*buckets, &total);
  if (gap.to - gap.from < span / 10 * kStretchTenths) return out;
  const std::uint64_t after = total - gap.before;
  const std::uint64_t few = std::max<std::uint64_t>(1, total * kFewPercent / 100);
  out.before = gap.before <= after;
  out.count = out.before ? gap.before : after;
  if (out.count > few) return {};
  out.gapNs = gap.to - gap.from;
  out.denseStart = out.before ? gap.to : trace.minTime();
  out.denseEnd = out.before ? trace.maxTime() : gap.from;
  return out;
}

}  // namespace gapscope::analysis
