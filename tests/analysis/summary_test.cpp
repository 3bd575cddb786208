// Trace summary: counts, span, import issues.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/json_time.h"
#include "../support/read_text.h"
#include "gapscope/analysis/summary.h"
#include "gapscope/io/chrome_reader.h"
#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

using testing::TraceMaker;

TEST(Summary, CountsAndSpan) {
  TraceMaker m;
  m.cpu("aten::mm", "cpu_op", 0, 1000).launch(10, 10, 1).launch(30, 10, 2).launch(50, 10, 3);
  m.kernel("a", 100, 100, 1, 7, 0);
  m.kernel("b", 150, 100, 2, 8, 0);  // overlaps a on another stream: counted once
  m.gpu("Memcpy DtoD (Device -> Device)", "gpu_memcpy", 400, 50, 3, 9, 1);
  m.gpu("step", "gpu_user_annotation", 90, 500, kNoCorrelation, 7, 0);  // not busy time
  Trace trace = m.finish();
  TraceSummary s = summarizeTrace(trace);
  EXPECT_EQ(s.slices, trace.slices.size());
  EXPECT_EQ(s.tracks, trace.tracks.size());
  EXPECT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.memcpys, 1u);
  EXPECT_EQ(s.memsets, 0u);
  EXPECT_EQ(s.start, 0);
  EXPECT_EQ(s.end, 1000);
  EXPECT_EQ(s.span(), 1000);
}

TEST(Summary, ImportIssuesAreCarried) {
  TraceMaker m;
  m.builder().issues().add("unmatched_end", Severity::Warning, 42, "E without B", 3);
  TraceSummary s = summarizeTrace(m.finish());
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_EQ(s.issues[0].name, "unmatched_end");
  EXPECT_EQ(s.issues[0].count, 3u);
  EXPECT_EQ(s.issues[0].firstOffset, 42u);
}

// A slice far before the others (a stray event): 1 of 301, separated by a
// stretch of 99 % of the span.
TEST(Summary, AStrayEventFarFromTheOthersIsOutlying) {
  TraceMaker m;
  m.cpu("stray", "cpu_op", 0, 10);
  for (int i = 0; i < 300; ++i) m.cpu("op", "cpu_op", 1'000'000 + 100 * i, 50);
  const TraceSummary s = summarizeTrace(m.finish());
  EXPECT_EQ(s.outlying.count, 1u);
  EXPECT_TRUE(s.outlying.before);
  EXPECT_EQ(s.outlying.gapNs, 1'000'000 - 10);
  EXPECT_EQ(s.outlying.denseStart, 1'000'000);
  EXPECT_EQ(s.outlying.denseEnd, 1'000'000 + 100 * 299 + 50);
  // After the others too.
  TraceMaker late;
  for (int i = 0; i < 300; ++i) late.cpu("op", "cpu_op", 100 * i, 50);
  late.cpu("stray", "cpu_op", 50'000'000, 10);
  const TraceSummary l = summarizeTrace(late.finish());
  EXPECT_EQ(l.outlying.count, 1u);
  EXPECT_FALSE(l.outlying.before);
  EXPECT_EQ(l.outlying.denseStart, 0);
  EXPECT_EQ(l.outlying.denseEnd, 100 * 299 + 50);
}

// Not outlying: a stretch under 90 % of the span, a side holding more than
// 1 % of the events, or a long slice across the stretch.
TEST(Summary, NoOutlyingEventsWhereTheStretchOrTheSideIsNotSmall) {
  TraceMaker shortGap;
  shortGap.cpu("stray", "cpu_op", 0, 10);
  for (int i = 0; i < 300; ++i) shortGap.cpu("op", "cpu_op", 200'000 + 100 * i, 50);  // stretch 87 % of the span
  EXPECT_EQ(summarizeTrace(shortGap.finish()).outlying.count, 0u);
  TraceMaker manyStray;
  for (int i = 0; i < 4; ++i) manyStray.cpu("stray", "cpu_op", 20 * i, 10);  // 4 of 304: over 1 %
  for (int i = 0; i < 300; ++i) manyStray.cpu("op", "cpu_op", 1'000'000 + 100 * i, 50);
  EXPECT_EQ(summarizeTrace(manyStray.finish()).outlying.count, 0u);
  TraceMaker covered;
  covered.cpu("stray", "cpu_op", 0, 10);
  covered.cpu("long", "cpu_op", 5, 1'000'000, kNoCorrelation, 2);  // on another thread, across the stretch
  for (int i = 0; i < 300; ++i) covered.cpu("op", "cpu_op", 1'000'000 + 100 * i, 50);
  EXPECT_EQ(summarizeTrace(covered.finish()).outlying.count, 0u);
}

// catapult's fuchsia test trace: 45 async slices (b/e) and 327 async
// instants (n) at about 2,191 s, everything else 13 days later. Counted
// from the JSON: the events of those phases before the stretch.
TEST(Summary, TheFuchsiaTracesEarlyAsyncEventsAreOutlying) {
  const std::string path = std::string(GAPSCOPE_TEST_DATA_DIR) + "/public/cat-fuchsia-ns/fuchsia_trace.json.gz";
  const auto json = nlohmann::json::parse(gapscope::testing::readMaybeGzipped(path));
  std::vector<TimeNs> starts;  // each slice's, instant's and counter sample's time
  for (const auto& e : json.at("traceEvents")) {
    const std::string ph = e.value("ph", "");
    if (ph == "X" || ph == "B" || ph == "b" || ph == "n" || ph == "i" || ph == "I" || ph == "C") {
      starts.push_back(gapscope::testing::exactNs(e.at("ts")));
    }
  }
  std::sort(starts.begin(), starts.end());
  std::size_t widest = 0;  // the largest step between consecutive times
  for (std::size_t i = 1; i < starts.size(); ++i) {
    if (starts[i] - starts[i - 1] > starts[widest + 1] - starts[widest]) widest = i - 1;
  }
  io::LoadResult loaded = io::loadChromeTrace(path);
  ASSERT_TRUE(loaded.trace.has_value());
  const TraceSummary s = summarizeTrace(*loaded.trace);
  EXPECT_EQ(s.outlying.count, widest + 1);  // the events up to the widest step
  EXPECT_EQ(s.outlying.count, 372u);
  EXPECT_TRUE(s.outlying.before);
  EXPECT_EQ(s.outlying.denseStart, starts[widest + 1]);
  EXPECT_EQ(s.outlying.denseEnd, s.end);
  EXPECT_LT(s.outlying.denseEnd - s.outlying.denseStart, 11'000'000'000);  // 10.04 s, of 13 days
}

}  // namespace
}  // namespace gapscope::analysis
