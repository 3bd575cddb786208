// Issue 14: times near the int64 limit. Every ts and dur must lie within
// +-kMaxAbsTimeNs (gapscope/model/time_limits.h); the reader drops or
// clamps the rest with an import issue naming the event, so nothing
// downstream can overflow.
#include <gtest/gtest.h>

#include <limits>

#include "gapscope/model/time_limits.h"
#include "test_util.h"

using gapscope::io::LoadResult;
using gapscope::io::parseChromeTrace;

TEST(HostileTimes, OutOfRangeTimestampIsDroppedWithItsEvent) {
  const std::string json = R"({"traceEvents":[
{"ph":"X","name":"ok","cat":"kernel","pid":0,"tid":7,"ts":10,"dur":5,"args":{"device":0,"stream":7}},
{"ph":"X","name":"far","cat":"kernel","pid":0,"tid":7,"ts":9000000000000000,"dur":5,"args":{"device":0,"stream":7}},
{"ph":"X","name":"long","cat":"kernel","pid":0,"tid":7,"ts":30,"dur":9000000000000000,"args":{"device":0,"stream":7}},
{"ph":"X","name":"edge","cat":"kernel","pid":0,"tid":7,"ts":3000000000000000,"dur":3000000000000000,"args":{"device":0,"stream":7}}
]})";
  LoadResult r = parseChromeTrace(json);
  ASSERT_TRUE(r.ok()) << r.error;
  const gapscope::ImportIssue* ts = r.trace->issues.find("timestamp_out_of_range");
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->firstOffset, json.find("{\"ph\":\"X\",\"name\":\"far\""));
  EXPECT_NE(ts->description.find("ts 9000000000000000 us of the event \"far\""), std::string::npos) << ts->description;
  EXPECT_NE(ts->description.find("event dropped"), std::string::npos);
  const gapscope::ImportIssue* dur = r.trace->issues.find("duration_out_of_range");
  ASSERT_NE(dur, nullptr);
  EXPECT_NE(dur->description.find("\"long\""), std::string::npos) << dur->description;
  // "far" is dropped, "long" kept with duration 0, "edge" (exactly the limit) kept whole.
  ASSERT_EQ(r.trace->slices.size(), 3u);
  for (const auto& s : r.trace->slices) {
    const std::string name(r.trace->str(s.name));
    if (name == "long") {
      EXPECT_EQ(s.dur, 0);
    }
    if (name == "edge") {
      EXPECT_EQ(s.start, gapscope::kMaxAbsTimeNs);
      EXPECT_EQ(s.dur, gapscope::kMaxAbsTimeNs);
    }
  }
}

TEST(HostileTimes, LimitIsExact) {
  auto tsIssue = [](const std::string& ts) {
    LoadResult r = parseChromeTrace(R"([{"ph":"i","name":"a","pid":1,"tid":1,"s":"t","ts":)" + ts + "}]");
    return r.trace->issues.count("timestamp_out_of_range");
  };
  EXPECT_EQ(tsIssue("3000000000000000"), 0u);
  EXPECT_EQ(tsIssue("-3000000000000000"), 0u);
  EXPECT_EQ(tsIssue("3000000000000000.001"), 1u);
  EXPECT_EQ(tsIssue("-3000000000000000.001"), 1u);
  EXPECT_EQ(tsIssue("9.2e15"), 1u);
}

TEST(TimeLimits, SaturatingSumAndRoundedAverage) {
  using gapscope::addSaturating;
  using gapscope::averageRounded;
  constexpr auto kMax = std::numeric_limits<gapscope::TimeNs>::max();
  constexpr auto kMin = std::numeric_limits<gapscope::TimeNs>::min();
  EXPECT_EQ(addSaturating(1, 2), 3);
  EXPECT_EQ(addSaturating(kMax - 1, 5), kMax);
  EXPECT_EQ(addSaturating(kMin + 1, -5), kMin);
  EXPECT_EQ(addSaturating(kMax, kMin), -1);
  EXPECT_EQ(averageRounded(5, 2), 3);
  EXPECT_EQ(averageRounded(4, 3), 1);
  EXPECT_EQ(averageRounded(5, 3), 2);
  EXPECT_EQ(averageRounded(kMax, 1), kMax);
  EXPECT_EQ(averageRounded(kMax, 2), kMax / 2 + 1);
  EXPECT_EQ(averageRounded(7, 0), 0);
}

TEST(TimeLimits, PartOfASpanDoesNotOverflow) {
  // Found by fuzz_report (tests/fuzz/regressions/report/axis-ticks-span-9e18.json):
  // the report's axis ticks computed span * i / 4 on a 6e18 ns span.
  using gapscope::partOf;
  constexpr gapscope::TimeNs span = 9'000'000'000'000'000'000;
  EXPECT_EQ(partOf(span, 0, 4), 0);
  EXPECT_EQ(partOf(span, 1, 4), span / 4);
  EXPECT_EQ(partOf(span, 3, 4), 6'750'000'000'000'000'000);
  EXPECT_EQ(partOf(span, 4, 4), span);
  EXPECT_EQ(partOf(10, 1, 3), 3);
  EXPECT_EQ(partOf(11, 2, 3), 7);
}
