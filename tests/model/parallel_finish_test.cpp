// finish() splits its passes between threads on traces of many slices
// (core/src/model/parallel.h): the trace it makes must be the same on one
// thread and on eight, slice by slice, flow by flow, whichever way the
// slices are reordered (the side-buffer partition when one track holds
// half of them, cycles otherwise, with and without a sort inside tracks).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "gapscope/model/trace_builder.h"
#include "parallel.h"

using namespace gapscope;

namespace {

struct Shape {
  int steps = 7000;           // each: an op with two children, a launch, a kernel
  int smallTracks = 2;        // CPU threads beside the main one
  int smallPerStep = 1;       // slices on each of them per step
  bool swapNeighbours = false;  // file order not time order inside tracks
  std::int64_t idStride = 1;    // correlation ids step by this (over 4: the sorted index, not the table)
  bool defects = false;         // overlaps, graph launches, orphan flows, kernel infos without a device
};

// A Kineto-like trace: per step a cpu_op with two nested children and a
// cudaLaunchKernel on the main thread, slices on the other threads, the
// kernel on one of two streams, and an s/f flow pair per launch. With
// `defects`, every 97th step a slice on a small track overlaps its
// neighbour without nesting, a second kernel reuses step 1's id (a graph
// launch: its first kernel is the one indexed), the flow's finish has no
// start or its start no finish; the kernels carry their stream and, but on
// the first of each stream, their device.
Trace build(const Shape& shape, int threads) {
  TraceBuilder b;
  const ChromeId pid = b.numericId(1);
  const ChromeId gpu = b.numericId(0);
  const StringId op = b.intern("aten::op");
  const StringId child = b.intern("aten::child");
  const StringId launch = b.intern("cudaLaunchKernel");
  const StringId kernel = b.intern("kernel");
  const StringId cpuOp = b.intern("cpu_op");
  const StringId runtime = b.intern("cuda_runtime");
  const StringId kernelCat = b.intern("kernel");
  const StringId ac2g = b.intern("ac2g");
  std::mt19937 rng(17);
  std::vector<SliceEvent> events;
  std::vector<FlowEvent> flows;
  auto slice = [&](ChromeId p, std::int64_t tid, TimeNs start, TimeNs dur, StringId name, StringId cat,
                   std::int64_t correlation) {
    SliceEvent e;
    e.pid = p;
    e.tid = b.numericId(tid);
    e.start = start;
    e.dur = dur;
    e.name = name;
    e.category = cat;
    e.correlation = correlation;
    e.offset = events.size() * 100;
    events.push_back(e);
  };
  for (int step = 0; step < shape.steps; ++step) {
    const TimeNs t = step * 1000;
    slice(pid, 1, t, 600, op, cpuOp, 0);
    slice(pid, 1, t + 10, 200, child, cpuOp, 0);
    slice(pid, 1, t + 300, 250, child, cpuOp, 0);
    const std::int64_t id = (step + 1) * shape.idStride;
    slice(pid, 1, t + 320, 20, launch, runtime, id);
    // Same start, not longer: file order is track order (ties by file order).
    slice(pid, 1, t + 320, 20 - static_cast<TimeNs>(rng() % 3), child, cpuOp, 0);
    const TimeNs kernelStart = t + 400 + static_cast<TimeNs>(rng() % 50);
    slice(gpu, 7 + step % 2, kernelStart, 300, kernel, kernelCat, id);
    KernelInfo info;
    info.device = step < 2 ? -1 : 0;
    info.stream = 7 + step % 2;
    if (shape.defects) events.back().kernel = info;
    for (int k = 0; k < shape.smallTracks; ++k)
      for (int j = 0; j < shape.smallPerStep; ++j)
        slice(pid, 100 + k, t + 100 * j + k, 50, child, cpuOp, 0);
    const bool defect = shape.defects && step % 97 == 5;
    if (defect) {
      slice(pid, 100, t + 20, 600, child, cpuOp, 0);  // overlaps [t, t + 50) there without nesting
      slice(gpu, 7, kernelStart + 310, 20, kernel, kernelCat, shape.idStride);
    }
    FlowEvent s;
    s.phase = 's';
    s.pid = pid;
    s.tid = b.numericId(1);
    s.ts = t + 325;
    s.category = ac2g;
    s.name = ac2g;
    s.id = static_cast<std::uint64_t>(step + 1);
    s.offset = events.size() * 100 + 1;
    FlowEvent f = s;
    f.phase = 'f';
    f.offset = s.offset + 1;
    f.pid = gpu;
    f.tid = b.numericId(7 + step % 2);
    f.ts = kernelStart;
    if (!defect || step % 2 == 0) flows.push_back(s);
    if (!defect || step % 2 == 1) flows.push_back(f);
  }
  if (shape.swapNeighbours)
    for (std::size_t i = 0; i + 1 < events.size(); i += 7) std::swap(events[i], events[i + 1]);
  for (const auto& e : events) b.addComplete(e);
  for (const auto& f : flows) b.addFlow(f);
  return b.finish(nullptr, threads);
}

void expectSameTrace(const Trace& one, const Trace& many) {
  ASSERT_EQ(one.tracks.size(), many.tracks.size());
  for (std::size_t k = 0; k < one.tracks.size(); ++k) {
    const Track& a = one.tracks[k];
    const Track& b = many.tracks[k];
    EXPECT_EQ(std::tie(a.firstSlice, a.sliceCount, a.rows, a.nestedRows, a.pid.num, a.tid.num),
              std::tie(b.firstSlice, b.sliceCount, b.rows, b.nestedRows, b.pid.num, b.tid.num))
        << "track " << k;
  }
  ASSERT_EQ(one.slices.size(), many.slices.size());
  for (std::size_t i = 0; i < one.slices.size(); ++i) {
    const Slice& a = one.slices[i];
    const Slice& b = many.slices[i];
    ASSERT_EQ(std::tie(a.start, a.dur, a.name, a.track, a.parent, a.depth, a.flags, a.correlation, a.args.offset),
              std::tie(b.start, b.dur, b.name, b.track, b.parent, b.depth, b.flags, b.correlation, b.args.offset))
        << "slice " << i;
  }
  ASSERT_EQ(one.flows.size(), many.flows.size());
  for (std::size_t i = 0; i < one.flows.size(); ++i) {
    const Flow& a = one.flows[i];
    const Flow& b = many.flows[i];
    ASSERT_EQ(std::tie(a.from, a.to, a.id, a.category, a.kind), std::tie(b.from, b.to, b.id, b.category, b.kind))
        << "flow " << i;
  }
  ASSERT_EQ(one.issues.all().size(), many.issues.all().size());
  for (std::size_t i = 0; i < one.issues.all().size(); ++i) {
    EXPECT_EQ(one.issues.all()[i].name, many.issues.all()[i].name);
    EXPECT_EQ(one.issues.all()[i].count, many.issues.all()[i].count);
    EXPECT_EQ(one.issues.all()[i].firstOffset, many.issues.all()[i].firstOffset);
    EXPECT_EQ(one.issues.all()[i].description, many.issues.all()[i].description);
  }
  for (std::size_t k = 0; k < one.tracks.size(); ++k) {
    EXPECT_EQ(std::tie(one.tracks[k].kind, one.tracks[k].device, one.tracks[k].stream),
              std::tie(many.tracks[k].kind, many.tracks[k].device, many.tracks[k].stream))
        << "track " << k;
  }
}

// The lowest slice index of each correlation id among the slices `picked`,
// searched slice by slice.
std::map<std::int64_t, std::uint32_t> firstSliceOfEachId(const Trace& t, bool (*picked)(const Slice&)) {
  std::map<std::int64_t, std::uint32_t> first;
  for (std::uint32_t j = 0; j < t.slices.size(); ++j) {
    if (t.slices[j].correlation != kNoCorrelation && picked(t.slices[j])) first.emplace(t.slices[j].correlation, j);
  }
  return first;
}

bool isGpuOp(const Slice& s) { return isGpuActivity(s.kind); }
bool isLaunchCall(const Slice& s) { return s.kind == SliceKind::CudaRuntime || s.kind == SliceKind::CudaDriver; }

// Every id finds the first slice that carries it, and ids no slice carries
// find none.
void expectIndicesFound(const Trace& t) {
  const auto gpu = firstSliceOfEachId(t, isGpuOp);
  const auto launches = firstSliceOfEachId(t, isLaunchCall);
  ASSERT_FALSE(gpu.empty());
  for (const auto& [id, slice] : gpu) ASSERT_EQ(t.gpuOpForCorrelation(id), slice) << "id " << id;
  for (const auto& [id, slice] : launches) ASSERT_EQ(t.launchForCorrelation(id), slice) << "id " << id;
  const std::int64_t past = gpu.rbegin()->first + 1;
  EXPECT_EQ(t.gpuOpForCorrelation(past), kNoIndex);
  EXPECT_EQ(t.gpuOpForCorrelation(gpu.begin()->first - 1), kNoIndex);
}

TEST(ParallelFinish, SameTraceOnOneThreadAndEightWhenOneTrackHoldsHalf) {
  const Shape shape;
  const Trace one = build(shape, 1);
  ASSERT_GT(one.slices.size(), detail::kParallelAbove);
  EXPECT_EQ(one.flows.size(), static_cast<std::size_t>(shape.steps));
  expectSameTrace(one, build(shape, 8));
}

TEST(ParallelFinish, SameTraceWhenNoTrackHoldsHalf) {
  Shape shape;
  shape.smallTracks = 5;  // 6 of 11 slices a step off the main thread
  expectSameTrace(build(shape, 1), build(shape, 8));
}

TEST(ParallelFinish, SameTraceWhenTracksMustBeSorted) {
  Shape shape;
  shape.swapNeighbours = true;
  expectSameTrace(build(shape, 1), build(shape, 8));
}

// One track in time order inside every part of the slices the finish
// splits them into (seven on eight threads) but not across them: each
// part's first slice starts before the previous part's last. Only the
// check at the parts' edges can tell that the track must be sorted.
Trace outOfOrderAtPartEdges(int threads) {
  TraceBuilder b;
  const std::size_t n = 70000;
  const int parts = 7;  // finish() on 8 threads: each pass in 8 - 1 parts
  std::vector<TimeNs> start(n);
  for (std::size_t i = 0; i < n; ++i) start[i] = static_cast<TimeNs>(i) * 10;
  for (int p = 1; p < parts; ++p) {
    const std::size_t first = n * static_cast<std::size_t>(p) / static_cast<std::size_t>(parts);
    start[first] = start[first - 1] - 3;
  }
  const StringId name = b.intern("op");
  for (std::size_t i = 0; i < n; ++i) {
    SliceEvent e;
    e.pid = b.numericId(1);
    e.tid = b.numericId(1);
    e.start = start[i];
    e.dur = 2;
    e.name = name;
    e.offset = i;
    b.addComplete(e);
  }
  return b.finish(nullptr, threads);
}

TEST(ParallelFinish, SortsATrackOutOfOrderOnlyAtThePartsEdges) {
  const Trace one = outOfOrderAtPartEdges(1);
  const Trace many = outOfOrderAtPartEdges(8);
  for (const Trace* t : {&one, &many}) {
    ASSERT_EQ(t->tracks.size(), 1u);
    EXPECT_TRUE(std::is_sorted(t->slices.begin(), t->slices.end(),
                               [](const Slice& a, const Slice& b) { return a.start < b.start; }));
  }
  expectSameTrace(one, many);
}

// Pairs with many equal keys, told apart by their index.
std::vector<std::pair<int, int>> keyed(std::size_t n, int keys, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::pair<int, int>> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = {static_cast<int>(rng() % static_cast<unsigned>(keys)), static_cast<int>(i)};
  }
  return v;
}

// Overlaps, graph launches and orphan flows: the same issues (counts, first
// offsets), depths and correlation indices on one thread and eight, with
// dense ids (the flat table) and sparse ones (the sorted pairs).
TEST(ParallelFinish, SameIssuesAndIndicesWithDefects) {
  for (std::int64_t stride : {1, 1000}) {
    Shape shape;
    shape.steps = 20001;  // the main thread's 100,005 slices nest in runs (cut between steps) and slide in runs
    shape.defects = true;
    shape.idStride = stride;
    const Trace one = build(shape, 1);
    ASSERT_GT(one.issues.count("overlap_spilled"), 0u);
    ASSERT_GT(one.issues.count("orphan_flow_end"), 0u);
    ASSERT_GT(one.issues.count("orphan_flow_start"), 0u);
    const Trace many = build(shape, 8);
    expectSameTrace(one, many);
    expectIndicesFound(one);
    expectIndicesFound(many);
    // The first kernel of each stream has no device: the next one names it.
    for (const Track& tr : many.tracks) {
      if (tr.kind == TrackKind::GpuStream) {
        EXPECT_EQ(tr.device, 0) << "stream " << tr.stream;
      }
    }
  }
}

TEST(ParallelSort, SameAsStdSortWhenNoTwoAreEquivalent) {
  for (std::size_t n : {0u, 1u, 1000u, 120000u}) {
    for (int keys : {1, 1 << 20}) {
      auto expected = keyed(n, keys, 3);
      std::sort(expected.begin(), expected.end());
      for (int threads : {2, 3, 8}) {
        auto v = keyed(n, keys, 3);
        detail::parallelSort(v.begin(), v.end(), std::less<>(), threads);
        ASSERT_EQ(v, expected) << n << " items, " << keys << " keys, " << threads << " threads";
      }
    }
  }
}

TEST(ParallelSort, SortsByKeyWhenManyAreEquivalent) {
  for (int keys : {1, 50}) {
    auto v = keyed(120000, keys, 5);
    auto expected = v;
    std::sort(expected.begin(), expected.end());
    detail::parallelSort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; }, 8);
    EXPECT_TRUE(std::is_sorted(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; }));
    std::sort(v.begin(), v.end());
    EXPECT_EQ(v, expected) << keys << " keys: not the same items";
  }
}

// The pool finish() hands its passes' parts to: every part once, part 0 on
// the calling thread, batches handed out from inside parts (as the flow
// sort does beside the slices' passes) completing, and with no workers at
// all; the first exception reaches the caller.
TEST(PartPool, RunsEveryPartOnceWithBatchesInsideParts) {
  for (int workers : {0, 1, 3, 15}) {
    detail::PartPool pool(workers);
    const detail::PartPool::Use use(&pool);
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<std::atomic<int>> runs(2 * 16 * 16);
    std::atomic<bool> zeroOnCaller{true};
    detail::forEachPart(2, [&](int side) {
      const std::thread::id outer = std::this_thread::get_id();
      if (side == 0 && outer != caller) zeroOnCaller = false;
      for (int pass = 0; pass < 16; ++pass) {
        detail::forEachPart(16, [&](int part) {
          if (part == 0 && std::this_thread::get_id() != outer) zeroOnCaller = false;
          ++runs[static_cast<std::size_t>((side * 16 + pass) * 16 + part)];
        });
      }
    });
    EXPECT_TRUE(zeroOnCaller) << workers << " workers";
    for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << "part " << i << ", " << workers << " workers";
  }
}

TEST(PartPool, TheFirstExceptionReachesTheCaller) {
  detail::PartPool pool(4);
  const detail::PartPool::Use use(&pool);
  std::atomic<int> ran{0};
  EXPECT_THROW(detail::forEachPart(8,
                                   [&](int part) {
                                     ++ran;
                                     if (part == 5) throw std::runtime_error("part 5");
                                   }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 8);  // the other parts still ran, and ended before the throw
  detail::forEachPart(3, [&](int) { ++ran; });  // the pool still works
  EXPECT_EQ(ran.load(), 11);
}

TEST(PartPool, SortsAsWithoutIt) {
  auto expected = keyed(120000, 1 << 20, 3);
  std::sort(expected.begin(), expected.end());
  detail::PartPool pool(7);
  const detail::PartPool::Use use(&pool);
  auto v = keyed(120000, 1 << 20, 3);
  detail::parallelSort(v.begin(), v.end(), std::less<>(), 8);
  EXPECT_EQ(v, expected);
}

}  // namespace
