#include "gapscope/model/trace_builder.h"

#include <gtest/gtest.h>

#include <string>

using namespace gapscope;

namespace {

struct Fixture {
  TraceBuilder b;
  ChromeId pid = b.numericId(10);
  ChromeId tid = b.numericId(11);

  SliceEvent ev(const char* name, const char* cat, TimeNs start, TimeNs dur, ChromeId p, ChromeId t) {
    SliceEvent e;
    e.pid = p;
    e.tid = t;
    e.start = start;
    e.dur = dur;
    e.name = b.intern(name);
    e.category = b.intern(cat);
    return e;
  }
  SliceEvent cpu(const char* name, TimeNs start, TimeNs dur) {
    return ev(name, "cpu_op", start, dur, pid, tid);
  }
};

std::string names(const Trace& t, const Track& tr) {
  std::string out;
  for (const Slice* s = t.trackBegin(tr); s != t.trackEnd(tr); ++s) {
    out += std::string(t.str(s->name)) + "@" + std::to_string(s->depth) + " ";
  }
  return out;
}

}  // namespace

TEST(TraceBuilder, NestsCompleteEventsByTimeNotFileOrder) {
  Fixture f;
  f.b.addComplete(f.cpu("child", 20, 10));
  f.b.addComplete(f.cpu("parent", 10, 50));
  f.b.addComplete(f.cpu("grandchild", 22, 2));
  f.b.addComplete(f.cpu("sibling", 40, 5));
  Trace t = f.b.finish();
  ASSERT_EQ(t.tracks.size(), 1u);
  EXPECT_EQ(names(t, t.tracks[0]), "parent@0 child@1 grandchild@2 sibling@1 ");
  EXPECT_EQ(t.tracks[0].rows, 3);
  EXPECT_TRUE(t.issues.empty());
  EXPECT_EQ(t.minTime(), 10);
  EXPECT_EQ(t.maxTime(), 60);
}

TEST(TraceBuilder, OverlappingSlicesSpillToExtraRowsAndAreCounted) {
  Fixture f;
  ChromeId dev = f.b.numericId(0), stream = f.b.numericId(7);
  f.b.addComplete(f.ev("k1", "kernel", 100, 50, dev, stream));
  f.b.addComplete(f.ev("k2", "kernel", 120, 50, dev, stream));  // overlaps k1
  f.b.addComplete(f.ev("k3", "kernel", 200, 10, dev, stream));
  Trace t = f.b.finish();
  ASSERT_EQ(t.tracks.size(), 1u);
  const Track& tr = t.tracks[0];
  EXPECT_EQ(tr.kind, TrackKind::GpuStream);
  EXPECT_EQ(tr.stream, 7);
  EXPECT_EQ(tr.device, 0);
  EXPECT_EQ(names(t, tr), "k1@0 k2@1 k3@0 ");
  EXPECT_EQ(tr.nestedRows, 1);
  EXPECT_EQ(tr.rows, 2);
  EXPECT_EQ(t.issues.count("overlap_spilled"), 1u);
  EXPECT_TRUE(t.slices[tr.firstSlice + 1].flags & kSliceSpilled);
}

TEST(TraceBuilder, MatchesBeginEndPerThreadAndClosesUnclosedAtTraceEnd) {
  Fixture f;
  ChromeId other = f.b.numericId(12);
  f.b.addBegin(f.cpu("outer", 0, 0));
  f.b.addBegin(f.cpu("inner", 5, 0));
  f.b.addBegin(f.ev("elsewhere", "cpu_op", 6, 0, f.pid, other));
  f.b.addEnd(f.pid, f.tid, 8, 100);
  f.b.addEnd(f.pid, other, 9, 200);
  f.b.addEnd(f.pid, other, 9, 300);  // unmatched
  f.b.addComplete(f.cpu("late", 30, 20));
  Trace t = f.b.finish();
  ASSERT_EQ(t.tracks.size(), 2u);
  const Slice* outer = t.trackBegin(t.tracks[0]);
  EXPECT_EQ(t.str(outer->name), "outer");
  EXPECT_EQ(outer->dur, 50);  // closed at the trace end (50)
  EXPECT_TRUE(outer->flags & kSliceUnclosed);
  EXPECT_EQ(t.str(outer[1].name), "inner");
  EXPECT_EQ(outer[1].dur, 3);
  EXPECT_EQ(t.trackBegin(t.tracks[1])->dur, 3);
  EXPECT_EQ(t.issues.count("unclosed_begin"), 1u);
  EXPECT_EQ(t.issues.count("unmatched_end"), 1u);
  EXPECT_EQ(t.issues.find("unmatched_end")->firstOffset, 300u);
}

TEST(TraceBuilder, BindsKinetoLaunchFlowsAndCorrelation) {
  Fixture f;
  ChromeId dev = f.b.numericId(0), stream = f.b.numericId(7);
  f.b.addComplete(f.cpu("aten::mm", 0, 100));
  SliceEvent launch = f.ev("cudaLaunchKernel", "cuda_runtime", 10, 5, f.pid, f.tid);
  launch.correlation = 45;
  f.b.addComplete(launch);
  SliceEvent kernel = f.ev("gemm", "kernel", 40, 3, dev, stream);
  kernel.correlation = 45;
  f.b.addComplete(kernel);
  FlowEvent s{'s', f.pid, f.tid, 10, f.b.intern("ac2g"), f.b.intern("ac2g"), 45, false, 1};
  FlowEvent e{'f', dev, stream, 40, f.b.intern("ac2g"), f.b.intern("ac2g"), 45, true, 2};
  f.b.addFlow(e);  // file order need not be start first
  f.b.addFlow(s);
  Trace t = f.b.finish();
  ASSERT_EQ(t.flows.size(), 1u);
  EXPECT_EQ(t.str(t.slices[t.flows[0].from].name), "cudaLaunchKernel");
  EXPECT_EQ(t.str(t.slices[t.flows[0].to].name), "gemm");
  EXPECT_EQ(t.flows[0].kind, FlowKind::LaunchToGpu);
  EXPECT_EQ(t.str(t.slices[t.gpuOpForCorrelation(45)].name), "gemm");
  EXPECT_EQ(t.str(t.slices[t.launchForCorrelation(45)].name), "cudaLaunchKernel");
  EXPECT_EQ(t.gpuOpForCorrelation(46), kNoIndex);
  EXPECT_TRUE(t.issues.empty());
}

TEST(TraceBuilder, CountsOrphanFlows) {
  Fixture f;
  f.b.addComplete(f.cpu("a", 0, 10));
  f.b.addFlow({'s', f.pid, f.tid, 5, f.b.intern("x"), f.b.intern("x"), 1, false, 11});
  f.b.addFlow({'f', f.pid, f.tid, 5, f.b.intern("x"), f.b.intern("x"), 2, true, 22});
  f.b.addFlow({'s', f.pid, f.tid, 500, f.b.intern("x"), f.b.intern("x"), 3, false, 33});
  Trace t = f.b.finish();
  EXPECT_TRUE(t.flows.empty());
  EXPECT_EQ(t.issues.count("orphan_flow_start"), 1u);
  EXPECT_EQ(t.issues.count("orphan_flow_end"), 1u);
  EXPECT_EQ(t.issues.count("unbound_flow_point"), 1u);
  EXPECT_EQ(t.issues.find("unbound_flow_point")->firstOffset, 33u);
}

TEST(TraceBuilder, FlowV2BindIds) {
  Fixture f;
  SliceEvent a = f.cpu("producer", 0, 10);
  a.hasBindId = true;
  a.bindId = 9;
  a.flowOut = true;
  SliceEvent b = f.cpu("consumer", 20, 10);
  b.hasBindId = true;
  b.bindId = 9;
  b.flowIn = true;
  f.b.addComplete(b);
  f.b.addComplete(a);
  Trace t = f.b.finish();
  ASSERT_EQ(t.flows.size(), 1u);
  EXPECT_EQ(t.str(t.slices[t.flows[0].from].name), "producer");
  EXPECT_EQ(t.str(t.slices[t.flows[0].to].name), "consumer");
}

TEST(TraceBuilder, AsyncSlicesPairByIdAndPackIntoRows) {
  Fixture f;
  AsyncEvent b1{'b', f.pid, f.tid, 0, f.b.intern("req"), f.b.intern("net"), "1", {}, 0};
  AsyncEvent b2{'b', f.pid, f.tid, 5, f.b.intern("req"), f.b.intern("net"), "2", {}, 0};
  AsyncEvent e1{'e', f.pid, f.tid, 20, f.b.intern("req"), f.b.intern("net"), "1", {}, 0};
  AsyncEvent e2{'e', f.pid, f.tid, 30, kEmptyString, f.b.intern("net"), "2", {}, 0};
  AsyncEvent n1{'n', f.pid, f.tid, 7, f.b.intern("mark"), f.b.intern("net"), "2", {}, 0};
  for (auto* e : {&b1, &b2, &e1, &e2, &n1}) f.b.addAsync(*e);
  Trace t = f.b.finish();
  ASSERT_EQ(t.tracks.size(), 1u);
  const Track& tr = t.tracks[0];
  EXPECT_EQ(tr.kind, TrackKind::Async);
  EXPECT_EQ(t.str(tr.name), "req");
  ASSERT_EQ(tr.sliceCount, 2u);
  EXPECT_EQ(t.slices[tr.firstSlice].dur, 20);
  EXPECT_EQ(t.slices[tr.firstSlice + 1].dur, 25);
  EXPECT_EQ(t.slices[tr.firstSlice + 1].depth, 1);
  ASSERT_EQ(t.instants.size(), 1u);
  EXPECT_EQ(t.instants[0].track, 0u);
  EXPECT_TRUE(t.issues.empty());
}

TEST(TraceBuilder, MergeKeepsFileOrderAndRemapsStrings) {
  TraceBuilder first, second;
  ChromeId p1 = first.stringId("Spans");
  SliceEvent a;
  a.pid = p1;
  a.tid = first.numericId(1);
  a.name = first.intern("alpha");
  a.category = first.intern("cpu_op");
  a.start = 0;
  a.dur = 100;
  first.addBegin(a);
  ChromeId p2 = second.stringId("Spans");
  SliceEvent b;
  b.pid = p2;
  b.tid = second.numericId(1);
  b.name = second.intern("beta");  // different id space than `first`
  b.category = second.intern("cpu_op");
  b.start = 10;
  b.dur = 5;
  second.addComplete(b);
  second.addEnd(p2, second.numericId(1), 50, 7);
  second.setProcessName(p2, "spans process");
  first.merge(std::move(second));
  Trace t = first.finish();
  ASSERT_EQ(t.tracks.size(), 1u);
  EXPECT_EQ(t.str(t.tracks[0].pid.label), "Spans");
  EXPECT_EQ(t.str(t.processes[0].name), "spans process");
  EXPECT_EQ(names(t, t.tracks[0]), "alpha@0 beta@1 ");
  EXPECT_EQ(t.trackBegin(t.tracks[0])->dur, 50);
}

TEST(TraceBuilder, OrdersProcessesBySortIndexAndCountersBySeries) {
  Fixture f;
  ChromeId gpuPid = f.b.numericId(0);
  f.b.addComplete(f.ev("k", "kernel", 5, 1, gpuPid, f.b.numericId(7)));
  f.b.addComplete(f.cpu("op", 0, 10));
  f.b.setProcessSortIndex(gpuPid, 5000);
  f.b.setProcessSortIndex(f.pid, 1);
  f.b.setThreadName(f.pid, f.tid, "main thread");
  StringId mem = f.b.intern("memory total");
  f.b.addCounter(f.pid, mem, 3, 2.5, 0);
  f.b.addCounter(f.pid, mem, 1, 1.5, 0);
  Trace t = f.b.finish();
  ASSERT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.processes[0].pid.num, 10);
  EXPECT_TRUE(t.processes[1].isGpu);
  EXPECT_EQ(t.str(t.tracks[0].name), "main thread");
  ASSERT_EQ(t.counters.size(), 1u);
  EXPECT_EQ(t.counters[0].ts, (std::vector<TimeNs>{1, 3}));
  EXPECT_EQ(t.counters[0].values, (std::vector<double>{1.5, 2.5}));
}
