// The range of times a trace may hold, and how totals of times are added.
//
// Every timestamp and every duration is at most kMaxAbsTimeNs in magnitude
// (3e15 us: about 95 years either side of the Unix epoch, so Kineto's epoch
// microseconds fit until 2065). Readers drop a timestamp or clamp a
// duration beyond it, with an import issue naming the event, so a start
// plus a duration (at most 6e18) and the difference of any two ends (at
// most 9e18) never overflow an int64. Sums over many slices can still go
// past it: totals are added with addSaturating.
#pragma once

#include <limits>

#include "gapscope/model/types.h"

namespace gapscope {

inline constexpr TimeNs kMaxAbsTimeNs = 3'000'000'000'000'000'000;

inline constexpr bool isTimeInRange(TimeNs t) { return t >= -kMaxAbsTimeNs && t <= kMaxAbsTimeNs; }

// An end (a start plus a duration, each in range) may lie up to twice the
// limit past the epoch.
inline constexpr bool isEndInRange(TimeNs t) { return t >= -kMaxAbsTimeNs && t <= 2 * kMaxAbsTimeNs; }

// a + b, held at the int64 limits instead of overflowing (an operator's
// total time over millions of calls, busy time summed over streams).
inline constexpr TimeNs addSaturating(TimeNs a, TimeNs b) {
  TimeNs sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<TimeNs>::max() : std::numeric_limits<TimeNs>::min();
}

// total / n rounded to the nearest (halves away from zero), without the
// overflow of (total + n / 2) / n near the limits; 0 when n is 0.
inline constexpr TimeNs averageRounded(TimeNs total, std::int64_t n) {
  if (n <= 0) return 0;
  const TimeNs q = total / n;
  const TimeNs r = total % n;
  if (r >= 0 ? r >= n - r : -r >= n + r) return q + (r >= 0 ? 1 : -1);
  return q;
}

// t * num / den (0 <= num <= den, den > 0) without the overflow of t * num:
// a tick at i/4 of a span of 9e18 ns.
inline constexpr TimeNs partOf(TimeNs t, std::int64_t num, std::int64_t den) {
  return t / den * num + t % den * num / den;
}

}  // namespace gapscope
