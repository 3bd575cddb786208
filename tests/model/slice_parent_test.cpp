// Slice::parent and depth, set once by TraceBuilder::finish(), checked
// against the definition counted here by brute force: a slice's parent is
// the last non-spilled slice before it on its track (in track order) that
// is still open at its start; async tracks have no parents.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "gapscope/io/chrome_reader.h"
#include "../support/slice_events.h"
#include "gapscope/model/trace_builder.h"

namespace gapscope {
namespace {

std::uint32_t bruteParent(const Trace& t, std::uint32_t x) {
  const Slice& s = t.slices[x];
  const Track& track = t.tracks[s.track];
  if (track.kind == TrackKind::Async) return kNoIndex;
  for (std::uint32_t k = x; k > track.firstSlice;) {
    --k;
    const Slice& c = t.slices[k];
    if (!(c.flags & kSliceSpilled) && c.end() > s.start) return k;
  }
  return kNoIndex;
}

// Checks every slice (or every `stride`-th on big tracks) of every track.
void expectParentsMatch(const Trace& t, std::uint32_t stride = 1) {
  for (const Track& track : t.tracks) {
    for (std::uint32_t x = track.firstSlice; x < track.firstSlice + track.sliceCount; x += stride) {
      const Slice& s = t.slices[x];
      ASSERT_EQ(s.parent, bruteParent(t, x)) << "slice " << x << " " << t.str(s.name);
      if (s.parent != kNoIndex) {
        EXPECT_EQ(t.slices[s.parent].track, s.track);
        EXPECT_FALSE(t.slices[s.parent].flags & kSliceSpilled) << "a spilled slice is never a parent";
      }
      if (track.kind == TrackKind::Async || (s.flags & kSliceSpilled)) continue;
      // A nested slice lies inside its parent, one level below it.
      if (s.parent == kNoIndex) {
        EXPECT_EQ(s.depth, 0);
      } else {
        const Slice& p = t.slices[s.parent];
        EXPECT_LE(p.start, s.start);
        EXPECT_GE(p.end(), s.end());
        EXPECT_EQ(s.depth, p.depth + 1);
      }
    }
  }
}

struct Maker {
  TraceBuilder b;
  void add(const char* name, const char* cat, std::int64_t pid, std::int64_t tid, TimeNs start, TimeNs dur) {
    b.addComplete(testing::sliceEvent(b, pid, tid, name, cat, start, dur, kNoCorrelation));
  }
};

std::uint32_t named(const Trace& t, const char* name) {
  for (std::uint32_t i = 0; i < t.slices.size(); ++i)
    if (t.str(t.slices[i].name) == name) return i;
  return kNoIndex;
}

TEST(SliceParent, NestingEqualStartsAndRoots) {
  Maker m;
  m.add("child", "cpu_op", 1, 1, 20, 10);
  m.add("outer", "cpu_op", 1, 1, 10, 50);
  m.add("same-start-shorter", "cpu_op", 1, 1, 10, 5);  // sorts after outer: its child
  m.add("grandchild", "cpu_op", 1, 1, 22, 2);
  m.add("second-root", "cpu_op", 1, 1, 100, 5);
  m.add("other-thread", "cpu_op", 1, 2, 20, 100);
  const Trace t = m.b.finish();
  EXPECT_EQ(t.slices[named(t, "outer")].parent, kNoIndex);
  EXPECT_EQ(t.slices[named(t, "same-start-shorter")].parent, named(t, "outer"));
  EXPECT_EQ(t.slices[named(t, "child")].parent, named(t, "outer"));
  EXPECT_EQ(t.slices[named(t, "grandchild")].parent, named(t, "child"));
  EXPECT_EQ(t.slices[named(t, "grandchild")].depth, 2);
  EXPECT_EQ(t.slices[named(t, "second-root")].parent, kNoIndex);
  EXPECT_EQ(t.slices[named(t, "other-thread")].parent, kNoIndex);  // never across tracks
  expectParentsMatch(t);
}

TEST(SliceParent, ASpilledSliceHangsFromTheSliceOpenAtItsStart) {
  Maker m;
  m.add("op", "cpu_op", 1, 1, 0, 100);
  m.add("a", "cpu_op", 1, 1, 10, 40);
  m.add("b", "cpu_op", 1, 1, 30, 40);  // overlaps a without nesting: spilled
  m.add("c", "cpu_op", 1, 1, 60, 10);  // after a ended: a child of op
  const Trace t = m.b.finish();
  const Slice& b = t.slices[named(t, "b")];
  EXPECT_TRUE(b.flags & kSliceSpilled);
  EXPECT_EQ(b.parent, named(t, "a"));  // open at its start, though b outlives it
  EXPECT_EQ(t.slices[named(t, "c")].parent, named(t, "op"));
  expectParentsMatch(t);
}

TEST(SliceParent, AsyncTracksHaveNone) {
  TraceBuilder b;
  AsyncEvent b1{'b', b.numericId(1), b.numericId(1), 0, b.intern("req"), b.intern("net"), "1", {}, 0};
  AsyncEvent b2{'b', b.numericId(1), b.numericId(1), 5, b.intern("req"), b.intern("net"), "2", {}, 0};
  AsyncEvent e2{'e', b.numericId(1), b.numericId(1), 8, b.intern("req"), b.intern("net"), "2", {}, 0};
  AsyncEvent e1{'e', b.numericId(1), b.numericId(1), 20, b.intern("req"), b.intern("net"), "1", {}, 0};
  for (auto* e : {&b1, &b2, &e2, &e1}) b.addAsync(*e);
  const Trace t = b.finish();
  ASSERT_EQ(t.slices.size(), 2u);
  for (const Slice& s : t.slices) EXPECT_EQ(s.parent, kNoIndex);
}

TEST(SliceParent, MatchesTheDefinitionOnRandomTraces) {
  std::mt19937 rng(5);
  for (int round = 0; round < 100; ++round) {
    Maker m;
    const int n = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      const bool gpu = rng() % 4 == 0;
      const TimeNs start = static_cast<TimeNs>(rng() % 500);
      const TimeNs dur = static_cast<TimeNs>(rng() % 4 == 0 ? 0 : rng() % 200);
      m.add("s", gpu ? "kernel" : "cpu_op", gpu ? 0 : 1, 1 + static_cast<std::int64_t>(rng() % 3), start, dur);
    }
    const Trace t = m.b.finish();
    SCOPED_TRACE("round " + std::to_string(round));
    expectParentsMatch(t);
  }
}

TEST(SliceParent, MatchesTheDefinitionOnEveryRealTrace) {
  int traces = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(GAPSCOPE_TEST_DATA_DIR)) {
    const std::string name = e.path().filename().string();
    if (name.find(".oracle.") != std::string::npos) continue;
    if (!name.ends_with(".json") && !name.ends_with(".json.gz")) continue;
    io::LoadResult r = io::loadChromeTrace(e.path().string());
    ASSERT_TRUE(r.trace) << name << ": " << r.error;
    SCOPED_TRACE(name);
    // Big tracks: every 7th slice (the brute force is quadratic).
    expectParentsMatch(*r.trace, r.trace->slices.size() > 50000 ? 7 : 1);
    ++traces;
  }
  EXPECT_GE(traces, 14);
}

}  // namespace
}  // namespace gapscope
