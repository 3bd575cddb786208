// record() and recordingAvailability(): bad options are refused before any
// CUDA is touched; without a GPU the reason comes back, never a crash; with
// one (the GPU machine) a small recording is made and checked.
#include "gapscope/gpu/recorder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "gapscope/gpu/step_counts.h"
#include "gapscope/gpu/workloads.h"

using namespace gapscope;
using namespace gapscope::gpu;

TEST(Workloads, RegistryIsComplete) {
  std::set<std::string> names;
  for (const auto& w : workloads()) {
    names.insert(w.name);
    EXPECT_FALSE(w.description.empty()) << w.name;
    EXPECT_EQ(w.description.find('\n'), std::string::npos) << w.name;
    EXPECT_FALSE(w.variants.empty()) << w.name;
    EXPECT_LE(w.minSize, w.defaultSize) << w.name;
    EXPECT_LE(w.defaultSize, w.maxSize) << w.name;
    EXPECT_GT(w.defaultSteps, 0) << w.name;
    EXPECT_EQ(findWorkload(w.name), &w);
  }
  for (const char* n : {"matmul_add", "linear", "mlp", "split_stack", "combined", "split_stack_graph", "square",
                        "sync_every_step"})
    EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(findWorkload("nope"), nullptr);
  EXPECT_EQ(findWorkload("matmul_add")->variants, (std::vector<std::string>{"bf16", "fp32"}));
}

TEST(Record, BadOptionsAreRefusedWithTheReason) {
  RecordOptions o;
  o.workload = "nope";
  RecordResult r = record(o);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("unknown workload 'nope'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("split_stack"), std::string::npos) << r.error;

  o.workload = "matmul_add";
  o.variant = "fp64";
  r = record(o);
  EXPECT_NE(r.error.find("no variant 'fp64'"), std::string::npos) << r.error;

  o.variant = "";
  o.size = 10;
  r = record(o);
  EXPECT_NE(r.error.find("--size 10 is outside 64..8192"), std::string::npos) << r.error;

  o.size = 0;
  o.steps = 5000;
  r = record(o);
  EXPECT_NE(r.error.find("--steps"), std::string::npos) << r.error;
  EXPECT_FALSE(r.trace.has_value());
}

TEST(Record, AvailabilityIsStableAndExplained) {
  Availability a = recordingAvailability();
  Availability b = recordingAvailability();
  EXPECT_EQ(a.available, b.available);
  EXPECT_EQ(a.reason, b.reason);
  if (a.available) {
    EXPECT_EQ(a.why, Unavailable::None);
    EXPECT_TRUE(a.reason.empty());
    EXPECT_FALSE(a.deviceName.empty());
  } else {
    EXPECT_NE(a.why, Unavailable::None);
    EXPECT_FALSE(a.reason.empty());
  }
}

TEST(Record, WithoutAGpuTheReasonComesBack) {
  Availability a = recordingAvailability();
  if (a.available) GTEST_SKIP() << "a GPU is here: " << a.deviceName;
  RecordOptions o;
  o.workload = "split_stack";
  std::vector<RecordProgress::Stage> stages;
  RecordResult r = record(o, [&](const RecordProgress& p) { stages.push_back(p.stage); });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error, a.reason);
  EXPECT_FALSE(r.trace.has_value());
}

// Runs only where recording works (the GPU machine): a real recording with
// the CPU reference check.
TEST(Record, SmallSplitStackOnTheGpu) {
  Availability a = recordingAvailability();
  if (!a.available) GTEST_SKIP() << a.reason;
  RecordOptions o;
  o.workload = "split_stack";
  o.size = 64;
  o.steps = 3;
  o.check = true;
  int progressCalls = 0;
  RecordResult r = record(o, [&](const RecordProgress&) { ++progressCalls; });
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_TRUE(r.trace.has_value());
  EXPECT_TRUE(r.stats.checked);
  EXPECT_GT(progressCalls, 3);
  auto steps = countPerStep(*r.trace, analysis::computeGpuBusy(*r.trace));
  ASSERT_EQ(steps.size(), 3u);
  for (const auto& s : steps) EXPECT_EQ(s.kernels, 32u) << s.name;
  EXPECT_EQ(r.stats.droppedRecords, 0u);
}

TEST(Record, CancelStopsBeforeTheFirstStep) {
  Availability a = recordingAvailability();
  if (!a.available) GTEST_SKIP() << a.reason;
  RecordOptions o;
  o.workload = "combined";
  o.size = 64;
  std::atomic<bool> cancel{true};
  RecordResult r = record(o, {}, &cancel);
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.trace.has_value());
}
