// Trace summary: counts, span, import issues.
#include <gtest/gtest.h>

#include "gapscope/analysis/summary.h"
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

}  // namespace
}  // namespace gapscope::analysis
