// Several recordings of each side (compare::compareRecordings): the typical
// recording of a side, the run-to-run test of the recordings' median step
// times against U counted pair by pair and its p over every split, the
// verdict's words, and the report's table of recordings. Recordings are
// generated with known step times (run_maker.h: a step of one op launching
// k kernels lasts 3,400 + 3,000 k ns from its annotation's start to end).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "gapscope/compare/compare.h"
#include "gapscope/format/number.h"
#include "gapscope/report/comparison_report.h"
#include "run_maker.h"
#include "u_count.h"

namespace gapscope::compare {
namespace {

using testing::OpSpec;
using testing::RunMaker;

TimeNs stepNs(int kernels) { return 3400 + 3000 * static_cast<TimeNs>(kernels); }

// A recording whose five steps launch k, k + 1, k, k and k kernels: its
// median step is k's.
std::shared_ptr<const analysis::TraceAnalysis> recording(const std::string& file, int k) {
  RunMaker run;
  for (int n : {k, k + 1, k, k, k}) run.step({OpSpec("aten::work", std::vector<std::string>(static_cast<std::size_t>(n), "kernel"))});
  return run.analysis(file);
}

struct Side {
  std::vector<std::shared_ptr<const analysis::TraceAnalysis>> runs;
  std::vector<Recording> recordings;
  std::vector<TimeNs> medians;  // worked out from k
};

Side side(const std::string& name, const std::vector<int>& ks) {
  Side s;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    s.runs.push_back(recording(name + "-" + std::to_string(i + 1) + ".json", ks[i]));
    s.recordings.push_back(recordingOf(runFigures(*s.runs.back())));
    s.medians.push_back(stepNs(ks[i]));
  }
  return s;
}

Comparison compareSides(const Side& a, const Side& b) {
  return compareRecordings(*a.runs[typicalRecording(a.recordings)], *b.runs[typicalRecording(b.recordings)],
                           {a.recordings, b.recordings});
}

std::size_t typicalOf(const std::vector<TimeNs>& medians) {
  std::vector<Recording> recordings;
  for (TimeNs m : medians) recordings.push_back({"", 1, m, false});
  return typicalRecording(recordings);
}

TEST(Recordings, TheTypicalOneIsTheLowerMedianAndTheFirstGivenOfEqualOnes) {
  EXPECT_EQ(typicalOf({30, 10, 20}), 2u);
  EXPECT_EQ(typicalOf({40, 10, 30, 20}), 3u);  // 20 of 20 and 30
  EXPECT_EQ(typicalOf({5, 5, 5}), 0u);
  EXPECT_EQ(typicalOf({7, 3, 3, 9}), 1u);
  EXPECT_EQ(typicalOf({0, 30, 10, 20}), 3u);  // a recording without a step time is no candidate
  EXPECT_EQ(typicalOf({0, 0}), 0u);
  EXPECT_EQ(typicalOf({}), 0u);
}

// An empty recording (no events: no step time) is listed, left out of the
// test and named; the others count.
TEST(Recordings, ARecordingWithoutAStepTimeIsLeftOutAndNamed) {
  Side a = side("a", {8, 11, 9, 10});
  a.runs.push_back(RunMaker().analysis("empty.json"));
  a.recordings.push_back(recordingOf(runFigures(*a.runs.back())));
  ASSERT_EQ(a.recordings.back().stepTimeMedian, 0);
  const Side b = side("b", {3, 4, 5, 2});
  const Comparison c = compareSides(a, b);
  EXPECT_EQ(c.recordings[0].size(), 5u);
  EXPECT_EQ(c.runToRun.stepsA, 4u);
  EXPECT_NEAR(c.runToRun.pValue, 2.0 / 70.0, 1e-12);
  EXPECT_NE(std::find(c.warnings.begin(), c.warnings.end(),
                      "A's recording empty.json has no step time (no events) and is left out of the run-to-run test"),
            c.warnings.end());
}

// A recording without steps (no annotation: its whole trace one step)
// among recordings with steps would compare a span with steps: left out
// and named. A side with no steps at all compares its spans.
// Each side one timed recording beside one without events: no middle to
// speak of, and too few to tell.
TEST(Recordings, OneTimedRecordingASideHasNoMiddle) {
  Side a = side("a", {8});
  a.runs.push_back(RunMaker().analysis("a-empty.json"));
  a.recordings.push_back(recordingOf(runFigures(*a.runs.back())));
  Side b = side("b", {3});
  b.runs.push_back(RunMaker().analysis("b-empty.json"));
  b.recordings.push_back(recordingOf(runFigures(*b.runs.back())));
  const Comparison c = compareRecordings(*a.runs[0], *b.runs[0], {a.recordings, b.recordings});
  EXPECT_EQ(c.verdict.substr(0, c.verdict.find(';')),
            "B is 2.2x faster per step (27.4 µs -> 12.4 µs median), too few recordings (1 and 1) to tell from their "
            "spread: record at least 4 of each");
}

TEST(Recordings, ARecordingWithoutStepsAmongOnesWithStepsIsLeftOut) {
  Side a = side("a", {8, 11, 9, 10});
  RunMaker noSteps("-");
  for (int k : {9, 9}) noSteps.step({OpSpec("aten::work", std::vector<std::string>(static_cast<std::size_t>(k), "kernel"))});
  a.runs.push_back(noSteps.analysis("no-steps.json"));
  a.recordings.push_back(recordingOf(runFigures(*a.runs.back())));
  ASSERT_TRUE(a.recordings.back().wholeTrace);
  ASSERT_GT(a.recordings.back().stepTimeMedian, 0);
  EXPECT_FALSE(isTimed(a.recordings.back(), a.recordings));
  EXPECT_EQ(timedCount(a.recordings), 4u);
  const Side b = side("b", {3, 4, 5, 2});
  const Comparison c = compareSides(a, b);
  EXPECT_EQ(c.runToRun.stepsA, 4u);
  EXPECT_NE(std::find(c.warnings.begin(), c.warnings.end(),
                      "A's recording no-steps.json has no steps (its whole trace would be one) and is left out of the "
                      "run-to-run test"),
            c.warnings.end());
  // Only spans on a side: they are its values.
  const std::vector<Recording> spans{a.recordings.back(), a.recordings.back()};
  EXPECT_EQ(timedCount(spans), 2u);
}

TEST(Recordings, EachRecordingsMedianStepIsItsOwn) {
  const Side a = side("a", {8, 11, 9, 10});
  for (std::size_t i = 0; i < a.recordings.size(); ++i) {
    EXPECT_EQ(a.recordings[i].stepTimeMedian, a.medians[i]) << i;
    EXPECT_EQ(a.recordings[i].steps, 5u);
    EXPECT_EQ(a.recordings[i].file, "a-" + std::to_string(i + 1) + ".json");
  }
}

TEST(Recordings, BeyondTheRunToRunSpread) {
  const Side a = side("a", {8, 11, 9, 10});
  const Side b = side("b", {3, 4, 5, 2});
  const Comparison c = compareSides(a, b);
  // The typical ones: 9 of {8, 9, 10, 11} (the second given), 3 of {2, 3, 4, 5}.
  EXPECT_EQ(c.runs[0].file, "a-3.json");
  EXPECT_EQ(c.runs[1].file, "b-1.json");
  EXPECT_EQ(c.runs[0].stepTimeMedian, stepNs(9));
  EXPECT_EQ(c.runs[1].stepTimeMedian, stepNs(3));
  ASSERT_EQ(c.recordings[0].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(c.recordings[0][i].typical, i == 2) << i;
    EXPECT_EQ(c.recordings[1][i].typical, i == 0) << i;
  }
  EXPECT_EQ(c.runToRun.unit, SpreadUnit::Recordings);
  EXPECT_EQ(c.runToRun.stepsA, 4u);
  EXPECT_DOUBLE_EQ(c.runToRun.u, pairCount(a.medians, b.medians));
  EXPECT_DOUBLE_EQ(c.runToRun.u, 16.0);
  EXPECT_NEAR(c.runToRun.pValue, 2.0 / 70.0, 1e-12);  // the two extreme splits of C(8, 4)
  EXPECT_NEAR(c.runToRun.pValue, enumeratedPValue(a.medians, b.medians), 1e-12);
  EXPECT_EQ(c.verdict.substr(0, c.verdict.find(';')),
            "B is 2.5x faster per step (30.4 µs -> 12.4 µs median, middle recordings of 4 and 4), beyond the "
            "run-to-run spread (p = 0.029 over 4 and 4 recordings)");
}

// Each typical pair's own steps are told apart, but the recordings of A and
// B interleave: a second run would differ as much.
TEST(Recordings, WithinTheRunToRunSpreadThoughThePairsStepsDiffer) {
  const Side a = side("a", {2, 4, 6, 8});
  const Side b = side("b", {3, 5, 7, 9});
  const Comparison c = compareSides(a, b);
  EXPECT_TRUE(c.stepSpread.beyondSpread());  // the pair: k = 4 against k = 5, 5 steps each
  EXPECT_FALSE(c.runToRun.beyondSpread());
  EXPECT_TRUE(c.runToRun.canTell);
  const double p = enumeratedPValue(a.medians, b.medians);
  EXPECT_NEAR(c.runToRun.pValue, p, 1e-12);
  EXPECT_NE(c.verdict.find(", within the run-to-run spread (p = " + format::formatFixed(p, 2) +
                           " over 4 and 4 recordings): record more runs of each to tell;"),
            std::string::npos)
      << c.verdict;
}

TEST(Recordings, ThreeASideCannotTell) {
  const Side a = side("a", {8, 9, 10});
  const Side b = side("b", {2, 3, 4});
  const Comparison c = compareSides(a, b);
  EXPECT_NEAR(c.runToRun.pValue, 0.1, 1e-12);  // the smallest there is: 2 / C(6, 3)
  EXPECT_FALSE(c.runToRun.canTell);
  EXPECT_NE(c.verdict.find(", too few recordings (3 and 3) to tell from their spread: record at least 4 of each;"),
            std::string::npos)
      << c.verdict;
}

TEST(Recordings, ARunThatIsNotItsSidesTypicalOneIsRefused) {
  const Side a = side("a", {8, 9, 10});
  const Side b = side("b", {2, 3, 4});
  EXPECT_THROW(compareRecordings(*a.runs[0], *b.runs[1], {a.recordings, b.recordings}), std::invalid_argument);
  EXPECT_THROW(compareRecordings(*a.runs[1], *b.runs[1], {a.recordings, {}}), std::invalid_argument);
}

TEST(Recordings, TheReportListsEveryRecording) {
  const Side a = side("a", {8, 11, 9, 10});
  const Side b = side("b", {3, 4, 5});
  const report::ComparisonReport r = report::buildComparisonReport(compareSides(a, b));
  const report::Table* t = r.table("recordings");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) {
    const bool ofA = i < 4;
    const std::size_t k = ofA ? i : i - 4;
    EXPECT_EQ(std::get<std::string>(t->rows[i][0]), ofA ? "A" : "B");
    EXPECT_EQ(std::get<std::int64_t>(t->rows[i][3]), (ofA ? a : b).medians[k]);
    EXPECT_EQ(std::get<std::string>(t->rows[i][4]), (ofA ? k == 2 : k == 1) ? "yes" : "");
  }
  const std::string html = report::renderComparisonHtml(r);
  EXPECT_NE(html.find("Every recording of each side"), std::string::npos);
  // 4 and 3 recordings: the smallest p is 2 / C(7, 3) = 0.057.
  EXPECT_NE(html.find("Too few recordings (4 and 3) to tell from their spread: record at least 4 of each"),
            std::string::npos);
  const std::string json = report::renderComparisonJson(r.comparison);
  EXPECT_NE(json.find("\"run_to_run_test\""), std::string::npos);
  EXPECT_NE(json.find("\"recordings_a\": 4"), std::string::npos);
  // One recording a side: no such table nor test.
  const Comparison one = compareTraces(*a.runs[0], *b.runs[0]);
  EXPECT_EQ(report::buildComparisonReport(one).table("recordings"), nullptr);
  EXPECT_EQ(report::renderComparisonJson(one).find("run_to_run_test"), std::string::npos);
}

}  // namespace
}  // namespace gapscope::compare
