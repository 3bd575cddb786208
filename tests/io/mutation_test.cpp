// Fuzz-style robustness: real traces cut and mutated at many positions.
// Nothing may crash or hang; every outcome must be one of: loaded, loaded
// but truncated, or an error message (with what came before kept).
#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

using gapscope::io::LoadResult;
using gapscope::io::parseChromeTrace;

namespace {

void expectCoherent(const LoadResult& r, const std::string& what) {
  if (r.truncated) {
    EXPECT_TRUE(r.error.empty()) << what << ": " << r.error;
    EXPECT_TRUE(r.trace.has_value()) << what;
  }
  if (r.error.empty() && !r.cancelled) {
    EXPECT_TRUE(r.trace.has_value()) << what;
  }
  EXPECT_FALSE(r.cancelled) << what;
  if (r.trace) {
    const auto& t = *r.trace;
    for (const auto& tr : t.tracks) {
      ASSERT_LE(static_cast<std::size_t>(tr.firstSlice) + tr.sliceCount, t.slices.size()) << what;
    }
    for (const auto& f : t.flows) {
      ASSERT_LT(f.from, t.slices.size()) << what;
      ASSERT_LT(f.to, t.slices.size()) << what;
    }
    for (const auto& s : t.slices) (void)t.argsJson(s);  // args stay fetchable
  }
}

}  // namespace

TEST(Mutation, CutAtManyPositionsIsTruncatedNeverAnError) {
  const std::string json = gapscope::testing::readFile(gapscope::testing::dataPath("h200/mlp_eager.json"));
  const std::size_t firstByte = json.find('{');
  std::size_t previous = 0;
  for (std::size_t cut = firstByte + 1; cut < json.size(); cut += 97) {
    LoadResult r = parseChromeTrace(std::string_view(json).substr(0, cut), gapscope::testing::chunked(1 + cut % 3000));
    expectCoherent(r, "cut " + std::to_string(cut));
    ASSERT_TRUE(r.error.empty()) << cut << ": " << r.error;
    ASSERT_TRUE(r.truncated) << cut;
    EXPECT_GE(r.trace->eventCount, previous) << "a longer prefix lost events at " << cut;
    previous = r.trace->eventCount;
  }
}

TEST(Mutation, RandomByteEditsNeverCrash) {
  const std::string original = gapscope::testing::readFile(gapscope::testing::dataPath("h200/combined_eager.json"));
  std::mt19937_64 rng(20240601);
  const std::string interesting = "{}[]\",:\\0123456789.-eE \ntfnu";
  int errors = 0, truncated = 0, clean = 0;
  for (int round = 0; round < 400; ++round) {
    std::string json = original;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      std::size_t pos = rng() % json.size();
      switch (rng() % 5) {
        case 0: json[pos] = interesting[rng() % interesting.size()]; break;
        case 1: json[pos] = static_cast<char>(rng() & 0xff); break;
        case 2: json.erase(pos, std::min<std::size_t>(rng() % 64, json.size() - pos)); break;
        case 3: json.insert(pos, json.substr(rng() % json.size(), rng() % 64)); break;
        case 4: json.resize(pos); break;
      }
      if (json.empty()) json = "{";
    }
    gapscope::io::LoadOptions o;
    o.threads = 1 + static_cast<int>(rng() % 3);
    o.chunkBytes = 64 + rng() % 4000;
    LoadResult r = parseChromeTrace(json, o);
    expectCoherent(r, "round " + std::to_string(round));
    if (!r.error.empty()) ++errors;
    else if (r.truncated) ++truncated;
    else ++clean;
  }
  // The mutations must have exercised every outcome.
  EXPECT_GT(errors, 0);
  EXPECT_GT(truncated, 0);
  EXPECT_GT(clean, 0);
}

TEST(Mutation, PathologicalInputs) {
  for (const std::string& json : {std::string(100000, '['), std::string(100000, '{'), "[" + std::string(100000, '"'),
                                  std::string("{\"traceEvents\":") + std::string(50000, '['),
                                  "[" + std::string(3000, ' ') + "]", std::string("[{\"ph\":\"X\"}") + std::string(5000, ','),
                                  std::string("[\"\\") , std::string("\0\0\0", 3), std::string("{\"traceEvents\":[{}]}\0x", 22)}) {
    LoadResult r = parseChromeTrace(json, gapscope::testing::chunked(256));
    expectCoherent(r, json.substr(0, 20));
  }
}
