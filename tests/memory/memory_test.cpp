// analyzeMemory on generated traces with known allocation patterns: every
// figure worked out by hand in memory_trace_json.h or next to the test.
#include <gtest/gtest.h>

#include "gapscope/memory/memory.h"
#include "gapscope/report/report.h"
#include "memory_trace_json.h"

namespace gapscope::memory {
namespace {

using testing::MemoryTraceJson;

std::string opName(const Trace& trace, std::uint32_t slice) {
  return slice == kNoIndex ? std::string(kNoOperatorName) : std::string(trace.str(trace.slices[slice].name));
}

const OpMemory& row(const DeviceMemory& d, const std::string& name) {
  for (const OpMemory& o : d.byOp) {
    if (o.name == name) return o;
  }
  throw std::runtime_error("no row " + name);
}

TEST(Memory, PeakLeaksAndUnmatchedFreesAsStated) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  EXPECT_EQ(m.events, 8u);
  EXPECT_EQ(m.unreadableEvents, 0u);
  ASSERT_EQ(m.devices.size(), 2u);
  ASSERT_EQ(m.devices[0].device, kCpuDevice);  // the CPU first

  const DeviceMemory& gpu = m.devices[1];
  EXPECT_EQ(gpu.device, 0);
  EXPECT_EQ(gpu.deviceType, 1);
  EXPECT_EQ(gpu.events, 7u);
  EXPECT_EQ(gpu.basis, AllocatedBasis::Stated);
  std::vector<std::int64_t> curve;
  for (const CurvePoint& p : gpu.curve) curve.push_back(p.allocated);
  EXPECT_EQ(curve, (std::vector<std::int64_t>{1100, 1500, 1100, 1150, 850, 750, 950}));
  EXPECT_EQ(gpu.curve[1].ts, 130'250);
  EXPECT_EQ(gpu.curve[0].reserved, 2048);
  EXPECT_EQ(gpu.peakAllocated, 1500);
  EXPECT_EQ(gpu.peakAllocatedTs, 130'250);
  EXPECT_EQ(gpu.peakReserved, 4096);
  EXPECT_EQ(gpu.peakReservedTs, 130'250);  // the first event at 4096
  EXPECT_EQ(gpu.finalAllocated(), 950);
  EXPECT_EQ(gpu.allocated.count, 4u);
  EXPECT_EQ(gpu.allocated.bytes, 750);
  EXPECT_EQ(gpu.freed.count, 3u);
  EXPECT_EQ(gpu.freed.bytes, 800);
  EXPECT_TRUE(gpu.allAddressed());
  EXPECT_EQ(gpu.neverFreed.count, 2u);
  EXPECT_EQ(gpu.neverFreed.bytes, 250);
  EXPECT_EQ(gpu.unmatchedFrees.count, 1u);
  EXPECT_EQ(gpu.unmatchedFrees.bytes, 300);

  const DeviceMemory& cpu = m.devices[0];
  EXPECT_EQ(cpu.events, 1u);
  EXPECT_EQ(cpu.deviceType, 0);
  EXPECT_EQ(cpu.peakAllocated, 16);
  EXPECT_EQ(cpu.peakAllocatedTs, 115'000);
  EXPECT_EQ(cpu.peakReserved, 0);
  EXPECT_EQ(cpu.neverFreed.count, 1u);
  EXPECT_EQ(cpu.neverFreed.bytes, 16);
  ASSERT_EQ(cpu.byOp.size(), 1u);
  EXPECT_EQ(cpu.byOp[0].name, "outer");
  EXPECT_EQ(cpu.byOp[0].peakIncrement, 16);
}

// The range [130 us, 320 us) holds four GPU events and no CPU one: the
// analysis of those alone, 0x3000 never freed within it, the free of
// 0x9000 (allocated before the trace) unmatched.
TEST(Memory, RangeAnalysesTheEventsInsideIt) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  MemoryOptions options;
  options.range = TimeRange{130'000, 320'000};
  const MemoryAnalysis m = analyzeMemory(trace, options);
  EXPECT_EQ(m.events, 4u);
  ASSERT_EQ(m.devices.size(), 1u);
  const DeviceMemory& gpu = m.devices[0];
  EXPECT_EQ(gpu.device, 0);
  EXPECT_EQ(gpu.peakAllocated, 1500);
  EXPECT_EQ(gpu.peakAllocatedTs, 130'250);
  EXPECT_EQ(gpu.allocated.count, 2u);
  EXPECT_EQ(gpu.allocated.bytes, 450);
  EXPECT_EQ(gpu.freed.count, 2u);
  EXPECT_EQ(gpu.freed.bytes, 700);
  EXPECT_EQ(gpu.neverFreed.count, 1u);
  EXPECT_EQ(gpu.neverFreed.bytes, 50);
  EXPECT_EQ(gpu.unmatchedFrees.count, 1u);
  ASSERT_EQ(m.allocations.size(), 2u);
  EXPECT_EQ(m.allocations[0].addr, 0x2000u);
  EXPECT_EQ(m.allocations[0].freeTs, 140'000);
  EXPECT_EQ(m.allocations[1].addr, 0x3000u);
  EXPECT_FALSE(m.allocations[1].freeTs);
}

// Live at t: allocated at or before t, not freed by t.
TEST(Memory, LiveAllocationsAtATime) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  const auto addrs = [&](TimeNs ts) {
    std::vector<std::uint64_t> out;
    for (const Allocation* a : liveAllocations(m, 0, ts)) out.push_back(a->addr);
    return out;
  };
  EXPECT_EQ(addrs(109'999), std::vector<std::uint64_t>{});
  EXPECT_EQ(addrs(110'000), std::vector<std::uint64_t>{0x1000});
  EXPECT_EQ(addrs(135'000), (std::vector<std::uint64_t>{0x1000, 0x2000}));
  EXPECT_EQ(addrs(140'000), std::vector<std::uint64_t>{0x1000});  // freed at 140 us
  EXPECT_EQ(addrs(500'000), (std::vector<std::uint64_t>{0x3000, 0x4000}));
  EXPECT_EQ(liveAllocations(m, kCpuDevice, 500'000).size(), 1u);  // the CPU's 16 bytes, never freed
}

// The report's and the Memory dock's tables on the same trace: at the GPU
// peak (130.25 us) 0x1000 (100 B, made in outer) and 0x2000 (400 B, made in
// inner) are live.
TEST(Memory, ReportTablesOfThePeak) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  const report::Table devices = report::memoryDevicesTable(m, 100'000);
  ASSERT_EQ(devices.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(devices.rows[1][0]), "GPU 0");
  EXPECT_EQ(std::get<std::int64_t>(devices.rows[1][devices.column("peak_allocated_bytes")]), 1500);
  EXPECT_EQ(std::get<std::int64_t>(devices.rows[1][devices.column("peak_allocated_at_us")]), 30'250);
  EXPECT_EQ(std::get<std::int64_t>(devices.rows[1][devices.column("never_freed_bytes")]), 250);
  const report::Table live = report::liveByOperatorTable(trace, liveAllocations(m, 0, 130'250));
  ASSERT_EQ(live.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(live.rows[0][0]), "inner");
  EXPECT_EQ(std::get<std::int64_t>(live.rows[0][live.column("bytes")]), 400);
  EXPECT_DOUBLE_EQ(std::get<double>(live.rows[0][live.column("share_pct")]), 80.0);
  EXPECT_EQ(std::get<std::string>(live.rows[1][0]), "outer");
  EXPECT_EQ(std::get<std::int64_t>(live.rows[1][live.column("bytes")]), 100);
  const std::vector<const Allocation*> gpu = liveAllocations(m, 0, 500'000);
  const report::Table rows = report::allocationsTable(trace, gpu, 100'000);
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(rows.rows[0][rows.column("address")]), "0x3000");
  EXPECT_EQ(std::get<std::int64_t>(rows.rows[0][rows.column("alloc_at_us")]), 80'000);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(rows.rows[0][rows.column("free_at_us")]));
  EXPECT_EQ(std::get<std::string>(rows.rows[0][rows.column("alloc_op")]), "outer");
  EXPECT_EQ(std::get<std::string>(rows.rows[1][rows.column("alloc_op")]), std::string(kNoOperatorName));
}

TEST(Memory, AllocationTableBlamesTheInnermostOperator) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  ASSERT_EQ(m.allocations.size(), 5u);  // by allocation time, both devices
  const Allocation& first = m.allocations[0];
  EXPECT_EQ(first.device, 0);
  EXPECT_EQ(first.addr, 0x1000u);
  EXPECT_EQ(first.bytes, 100);
  EXPECT_EQ(first.allocTs, 110'000);
  EXPECT_EQ(first.freeTs, 350'000);
  EXPECT_EQ(first.lifetime(), 240'000);
  EXPECT_EQ(opName(trace, first.allocOp), "outer");
  EXPECT_EQ(opName(trace, first.freeOp), "other");  // at other's end: ends count

  EXPECT_EQ(m.allocations[1].device, kCpuDevice);
  const Allocation& nested = m.allocations[2];
  EXPECT_EQ(nested.addr, 0x2000u);
  EXPECT_EQ(opName(trace, nested.allocOp), "inner");
  EXPECT_EQ(opName(trace, nested.freeOp), "inner");
  EXPECT_EQ(nested.lifetime(), 9'750);

  const Allocation& underAnnotation = m.allocations[3];
  EXPECT_EQ(opName(trace, underAnnotation.allocOp), "outer");
  EXPECT_FALSE(underAnnotation.freeTs);
  EXPECT_FALSE(underAnnotation.lifetime());
  EXPECT_EQ(opName(trace, m.allocations[4].allocOp), kNoOperatorName);
}

TEST(Memory, ByOperatorSelfBytesAndCallIncrement) {
  const Trace trace = testing::peakLeakNestedTrace().trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  const DeviceMemory& gpu = *m.device(0);
  std::vector<std::string> order;
  for (const OpMemory& o : gpu.byOp) order.push_back(o.name);
  EXPECT_EQ(order, (std::vector<std::string>{"inner", kNoOperatorName, "outer", "other"}));

  const OpMemory& inner = row(gpu, "inner");
  EXPECT_EQ(inner.allocated.count, 1u);
  EXPECT_EQ(inner.allocated.bytes, 400);
  EXPECT_EQ(inner.freed.bytes, 400);
  EXPECT_EQ(inner.peakIncrement, 400);
  // outer's own +100 and +50, inner's +400 then -400 inside it: the running
  // sum reaches 500, as Total Allocated rises from 1000 to 1500.
  const OpMemory& outer = row(gpu, "outer");
  EXPECT_EQ(outer.allocated.count, 2u);
  EXPECT_EQ(outer.allocated.bytes, 150);
  EXPECT_EQ(outer.freed.count, 0u);
  EXPECT_EQ(outer.peakIncrement, 500);
  const OpMemory& other = row(gpu, "other");
  EXPECT_EQ(other.allocated.count, 0u);
  EXPECT_EQ(other.freed.count, 2u);
  EXPECT_EQ(other.freed.bytes, 400);
  EXPECT_EQ(other.peakIncrement, 0);
  const OpMemory& none = row(gpu, kNoOperatorName);
  EXPECT_EQ(none.allocated.bytes, 200);
  EXPECT_EQ(none.peakIncrement, 0);  // no call to rise in
}

// A call that frees first rises only above where it started; a nested call
// rises on its own.
TEST(Memory, IncrementCountsFromTheCallsStart) {
  MemoryTraceJson t;
  t.slice("c", 0, 100).slice("d", 15, 10);
  t.memory(10, {-50}).memory(20, {30}).memory(30, {40});
  const MemoryAnalysis m = analyzeMemory(t.trace());
  const DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(row(gpu, "d").peakIncrement, 30);
  EXPECT_EQ(row(gpu, "c").peakIncrement, 20);  // -50, -20, +20
}

// Each call counts the events of its own thread, whatever runs beside it.
TEST(Memory, IncrementIsPerThread) {
  MemoryTraceJson t;
  t.slice("a", 0, 100, "cpu_op", 1).slice("b", 0, 100, "cpu_op", 2);
  t.memory(10, {100, 0x1, 100}, 1).memory(20, {1000, 0x2, 1100}, 2).memory(30, {-100, 0x1, 1000}, 1);
  const MemoryAnalysis m = analyzeMemory(t.trace());
  const DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(row(gpu, "a").peakIncrement, 100);
  EXPECT_EQ(row(gpu, "b").peakIncrement, 1000);
  EXPECT_EQ(gpu.peakAllocated, 1100);
}

TEST(Memory, OperatorAtBoundariesAndAfterANestedCall) {
  MemoryTraceJson t;
  t.slice("a", 0, 10).slice("b", 10, 10).slice("parent", 30, 70).slice("child", 40, 10);
  const double times[] = {10, 20, 25, 40, 60};
  for (std::uint64_t i = 0; i < 5; ++i) t.memory(times[i], {1, i + 1});
  const Trace trace = t.trace();
  const MemoryAnalysis m = analyzeMemory(trace);
  std::vector<std::string> ops;
  for (const Allocation& a : m.allocations) ops.push_back(opName(trace, a.allocOp));
  EXPECT_EQ(ops, (std::vector<std::string>{"b", "b", kNoOperatorName, "child", "parent"}));
}

TEST(Memory, WithoutTotalsTheCurveIsTheNetChange) {
  MemoryTraceJson t;
  t.memory(10, {100}).memory(20, {50}).memory(30, {-120}).memory(40, {10});
  const MemoryAnalysis m = analyzeMemory(t.trace());
  const DeviceMemory& gpu = *m.device(0);
  EXPECT_EQ(gpu.basis, AllocatedBasis::NetSinceStart);
  EXPECT_EQ(gpu.peakAllocated, 150);
  EXPECT_EQ(gpu.peakAllocatedTs, 20'000);
  EXPECT_EQ(gpu.finalAllocated(), 40);
  EXPECT_FALSE(gpu.peakReserved);
  EXPECT_EQ(gpu.withoutAddress, 4u);
  EXPECT_FALSE(gpu.allAddressed());
  EXPECT_EQ(gpu.neverFreed.count, 0u);  // not counted: nothing could be paired

  MemoryTraceJson mixed;
  mixed.memory(10, {100}).memory(20, {50, std::nullopt, 1000}).memory(30, {-20});
  const MemoryAnalysis mixedAnalysis = analyzeMemory(mixed.trace());
  const DeviceMemory& d = *mixedAnalysis.device(0);
  EXPECT_EQ(d.basis, AllocatedBasis::Mixed);
  EXPECT_EQ(d.curve.back().allocated, 980);
  EXPECT_EQ(d.peakAllocated, 1000);
}

TEST(Memory, AddressAllocatedAgainWithoutAFree) {
  MemoryTraceJson t;
  t.memory(10, {10, 0x1}).memory(20, {20, 0x1}).memory(30, {-20, 0x1});
  const MemoryAnalysis m = analyzeMemory(t.trace());
  ASSERT_EQ(m.allocations.size(), 2u);
  EXPECT_FALSE(m.allocations[0].freeTs);
  EXPECT_EQ(m.allocations[1].freeTs, 30'000);
  EXPECT_EQ(m.devices[0].neverFreed.count, 1u);
  EXPECT_EQ(m.devices[0].neverFreed.bytes, 10);
}

// Instants of other names are not memory; a "[memory]" without Bytes is counted, not read.
TEST(Memory, UnreadableEventsAndOtherInstants) {
  MemoryTraceJson t;
  t.memoryWithArgs(5, {{"Device Id", 0}});
  t.raw({{"ph", "i"}, {"s", "t"}, {"name", "marker"}, {"pid", 1}, {"tid", 1}, {"ts", 6}, {"args", {{"Bytes", 1}}}});
  // Bytes written as a double: taken when it is a whole number.
  t.memoryWithArgs(7, {{"Device Id", 0}, {"Bytes", 8.0}});
  t.memoryWithArgs(8, {{"Device Id", 0}, {"Bytes", 8.5}});
  const MemoryAnalysis m = analyzeMemory(t.trace());
  EXPECT_EQ(m.events, 1u);
  EXPECT_EQ(m.unreadableEvents, 2u);
  EXPECT_EQ(m.devices[0].allocated.bytes, 8);
  EXPECT_FALSE(m.empty());
}

TEST(Memory, TraceWithoutMemoryEvents) {
  MemoryTraceJson t;
  t.slice("op", 0, 10);
  const MemoryAnalysis m = analyzeMemory(t.trace());
  EXPECT_TRUE(m.empty());
  EXPECT_TRUE(m.devices.empty());
  EXPECT_TRUE(m.allocations.empty());
}

}  // namespace
}  // namespace gapscope::memory
