// Write, read back with the Chrome reader, compare the models.
#include <gtest/gtest.h>

#include <filesystem>

#include "gapscope/io/chrome_reader.h"
#include "gapscope/model/trace_builder.h"
#include "gapscope/writer/chrome_writer.h"
#include "model_compare.h"

using namespace gapscope;
namespace fs = std::filesystem;

namespace {

// A small trace with what the recorder produces: a CPU lane with a step,
// ops and launch calls, a GPU stream with kernels and a memcpy, ac2g flows,
// metadata, devices; plus an instant and a counter.
Trace builtTrace() {
  TraceBuilder b;
  ChromeId cpu = b.numericId(4242);
  ChromeId gpu = b.numericId(0);
  ChromeId stream = b.numericId(7);
  auto slice = [&](ChromeId pid, ChromeId tid, const char* name, const char* cat, TimeNs start, TimeNs dur,
                   std::int64_t corr = 0) {
    SliceEvent e;
    e.pid = pid;
    e.tid = tid;
    e.name = b.intern(name);
    e.category = b.intern(cat);
    e.start = start;
    e.dur = dur;
    e.correlation = corr;
    return e;
  };
  b.setProcessName(cpu, "gapscope-cli");
  b.setProcessLabels(cpu, "CPU");
  b.setProcessSortIndex(cpu, 4242);
  b.setThreadName(cpu, cpu, "thread 4242 (gapscope-cli)");
  b.setProcessName(gpu, "gapscope-cli");
  b.setProcessLabels(gpu, "GPU 0");
  b.setProcessSortIndex(gpu, 5000000);
  b.setThreadName(gpu, stream, "stream 7");
  b.addComplete(slice(cpu, cpu, "ProfilerStep#1", "user_annotation", 1000, 90001));
  b.addComplete(slice(cpu, cpu, "matmul", "cpu_op", 2000, 30000));
  b.addComplete(slice(cpu, cpu, "cuLaunchKernelEx", "cuda_driver", 3000, 9999, 45));
  b.addComplete(slice(cpu, cpu, "cudaMemcpyAsync", "cuda_runtime", 40000, 5000, 46));
  SliceEvent k = slice(gpu, stream, "nvjet_sm90_tst_64x8", "kernel", 15000, 1920, 45);
  KernelInfo info;
  info.grid[0] = 4;
  info.grid[1] = 2;
  info.grid[2] = 1;
  info.block[0] = 384;
  info.block[1] = info.block[2] = 1;
  info.registersPerThread = 168;
  info.sharedMemory = 164308;
  info.blocksPerSm = 0.060606f;
  info.warpsPerSm = 0.727273f;
  info.occupancyPct = 1.f;
  info.device = 0;
  info.stream = 7;
  k.kernel = info;
  b.addComplete(k);
  b.addComplete(slice(gpu, stream, "Memcpy DtoH (Device -> Pinned)", "gpu_memcpy", 46000, 1500, 46));
  for (std::int64_t corr : {45, 46}) {
    FlowEvent s;
    s.phase = 's';
    s.pid = cpu;
    s.tid = cpu;
    s.ts = corr == 45 ? 3000 : 40000;
    s.name = s.category = b.intern("ac2g");
    s.id = static_cast<std::uint64_t>(corr);
    b.addFlow(s);
    FlowEvent f = s;
    f.phase = 'f';
    f.pid = gpu;
    f.tid = stream;
    f.ts = corr == 45 ? 15000 : 46000;
    f.bindEnclosing = true;
    b.addFlow(f);
  }
  InstantEvent in;
  in.pid = cpu;
  in.tid = cpu;
  in.ts = 50000;
  in.name = b.intern("marker");
  in.scope = 't';
  b.addInstant(in);
  b.addCounter(cpu, b.intern("memory"), 60000, 12.5, 0);
  TraceMetadata& md = b.metadata();
  md.baseTimeNanoseconds = 1790857026000000000;
  md.displayTimeUnit = "ms";
  DeviceProperties d;
  d.id = 0;
  d.name = "NVIDIA H200";
  d.numSms = 132;
  d.computeMajor = 9;
  d.maxThreadsPerMultiprocessor = 2048;
  d.regsPerMultiprocessor = 65536;
  d.sharedMemPerMultiprocessor = 233472;
  d.totalGlobalMem = 150109880320;
  md.devices.push_back(d);
  md.otherKeys.emplace_back("schemaVersion", "1");
  md.otherKeys.emplace_back("gapscope_workload", "\"matmul_add\"");
  return b.finish();
}

fs::path scratchFile(const std::string& name) {
  return fs::temp_directory_path() / ("gapscope_rt_" + std::to_string(::getpid()) + "_" + name);
}

Trace writeAndRead(const Trace& t, const std::string& name) {
  fs::path p = scratchFile(name);
  writer::WriteResult w = writer::writeChromeTrace(t, p.string());
  EXPECT_TRUE(w.ok()) << w.error;
  io::LoadResult r = io::loadChromeTrace(p.string());
  fs::remove(p);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(r.trace.has_value());
  return r.trace ? std::move(*r.trace) : Trace{};
}

}  // namespace

TEST(RoundTrip, BuiltTraceSurvivesJson) {
  Trace original = builtTrace();
  ASSERT_EQ(original.flows.size(), 2u);
  Trace back = writeAndRead(original, "built.json");
  EXPECT_EQ(roundtrip::compareTraces(original, back), "");
}

TEST(RoundTrip, BuiltTraceSurvivesGzip) {
  Trace original = builtTrace();
  Trace back = writeAndRead(original, "built.json.gz");
  EXPECT_EQ(roundtrip::compareTraces(original, back), "");
}

TEST(RoundTrip, ComparisonNoticesADifference) {
  // The comparison itself must be able to fail.
  Trace a = builtTrace();
  Trace b = builtTrace();
  b.slices[1].dur += 1;
  EXPECT_NE(roundtrip::compareTraces(a, b), "");
}

// Every real H200 trace: read, write, read again: the same model.
class RealTraceRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RealTraceRoundTrip, SameModelAfterRewrite) {
  std::string path = std::string(GAPSCOPE_TEST_DATA_DIR) + "/h200/" + GetParam() + ".json";
  io::LoadResult first = io::loadChromeTrace(path);
  ASSERT_TRUE(first.ok()) << first.error;
  Trace back = writeAndRead(*first.trace, std::string(GetParam()) + ".json");
  roundtrip::CompareOptions strict;
  strict.argsOnlyWhereFirstHasThem = false;
  strict.compareIssues = false;
  EXPECT_EQ(roundtrip::compareTraces(*first.trace, back, strict), "");
  // What the writer wrote imports cleanly.
  for (const auto& issue : back.issues.all()) ADD_FAILURE() << "import issue in the rewrite: " << issue.name;
}

// A .json.gz's args are inflated again in file order before writing
// (ArgsText in chrome_writer.cpp), not in the writer's order: each slice
// and instant must still get its own.
TEST(RoundTrip, GzipTraceKeepsEveryEventsArgs) {
  io::LoadResult first = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/h100/gapscope_split_stack.json.gz");
  ASSERT_TRUE(first.ok()) << first.error;
  ASSERT_TRUE(first.trace->argsSource->slowOutOfOrder());
  Trace back = writeAndRead(*first.trace, "split_stack_from_gz.json");
  roundtrip::CompareOptions strict;
  strict.argsOnlyWhereFirstHasThem = false;
  strict.compareIssues = false;
  EXPECT_EQ(roundtrip::compareTraces(*first.trace, back, strict), "");
}

INSTANTIATE_TEST_SUITE_P(H200, RealTraceRoundTrip,
                         ::testing::Values("matmul_add_64_bf16_eager", "linear_64x4096_eager", "mlp_eager",
                                           "split_stack_eager", "combined_eager", "square_three_ways"));
