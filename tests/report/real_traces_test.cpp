// Reports on the real traces in tests/data: structure, and the findings each
// workload is known for (tests/data/PROVENANCE.md says what each one runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <vector>

#include <nlohmann/json.hpp>

#include "gapscope/format/duration.h"
#include "gapscope/io/chrome_reader.h"
#include "gapscope/report/report.h"
#include "report_of.h"
#include "html_check.h"
#include "../support/json_time.h"
#include "../support/read_text.h"

namespace gapscope::report {
namespace {

const Report& reportFor(const std::string& relativePath) {
  static std::map<std::string, Report> cache;  // each trace is read and analysed once
  auto it = cache.find(relativePath);
  if (it != cache.end()) return it->second;
  io::LoadResult loaded = io::loadChromeTrace(std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relativePath);
  EXPECT_TRUE(loaded.ok()) << relativePath << ": " << loaded.error;
  Report r = loaded.trace ? gapscope::testing::reportOf(std::move(*loaded.trace)) : Report{};
  return cache.emplace(relativePath, std::move(r)).first->second;
}

bool triggered(const Report& r, std::string_view rule) {
  const Finding* f = r.finding(rule);
  EXPECT_NE(f, nullptr) << rule;
  return f && !f->passed;
}

std::string cellText(const Table& t, std::size_t row, std::string_view column) {
  int c = t.column(column);
  if (c < 0 || row >= t.rows.size()) return "<missing>";
  const Cell& cell = t.rows[row][static_cast<std::size_t>(c)];
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  return "<other>";
}

TEST(RealTraces, SplitStackIsLaunchBoundAndBatchable) {
  const Report& r = reportFor("h200/split_stack_eager.json");
  EXPECT_TRUE(triggered(r, "launch-overhead-bound"));
  EXPECT_TRUE(triggered(r, "small-kernels-same-op"));
  EXPECT_TRUE(triggered(r, "launch-dominated-kernels"));
  const Finding* same = r.finding("small-kernels-same-op");
  ASSERT_NE(same, nullptr);
  // The 16 LayerNorms and 16 tanhs per step, three steps.
  std::string ops = cellText(same->evidence, 0, "cpu_op") + " " + cellText(same->evidence, 1, "cpu_op");
  EXPECT_NE(ops.find("aten::native_layer_norm"), std::string::npos) << ops;
  EXPECT_NE(ops.find("aten::tanh"), std::string::npos) << ops;
  EXPECT_EQ(cellText(same->evidence, 0, "kernels"), "48");
  EXPECT_EQ(cellText(same->evidence, 0, "longest_run"), "16");
  EXPECT_EQ(r.verdict.kind, "launch_overhead_bound") << r.verdict.line;
  // The finding measures what the verdict does: the three steps' GPU windows
  // (871.681 + 863.500 + 915.026 us of launch overhead, `gaps --per-step`),
  // not the whole trace's 2857.795 us.
  EXPECT_TRUE(r.verdict.overSteps);
  const Finding* launch = r.finding("launch-overhead-bound");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->estimatedSavingNs, 2650207);
  EXPECT_EQ(r.verdict.estimatedSavingNs, launch->estimatedSavingNs);
  EXPECT_NE(launch->summary.find("of its steps' GPU windows (91.5%"), std::string::npos) << launch->summary;
}

TEST(RealTraces, SplitStackStructure) {
  const Report& r = reportFor("h200/split_stack_eager.json");
  EXPECT_NE(r.trace.source.find("split_stack_eager.json"), std::string::npos);
  ASSERT_EQ(r.trace.devices.size(), 1u);
  EXPECT_EQ(r.trace.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(r.trace.devices[0].numSms, 132);
  EXPECT_EQ(r.trace.steps, 3u);
  EXPECT_EQ(r.trace.kernels, 105u);
  EXPECT_GT(r.trace.span(), 0);
  ASSERT_NE(r.table("steps"), nullptr);
  EXPECT_EQ(r.table("steps")->rows.size(), 3u);  // three steps on one device
  // PyTorch's own table: aten::native_layer_norm has the largest self CUDA time (121.985 us).
  const Table* dev = r.table("top_ops_self_device");
  ASSERT_NE(dev, nullptr);
  EXPECT_EQ(cellText(*dev, 0, "name"), "aten::native_layer_norm");
  EXPECT_EQ(std::get<std::int64_t>(dev->rows[0][static_cast<std::size_t>(dev->column("self_device_us"))]), 121985);
  const Table* kernels = r.table("top_kernels");
  ASSERT_NE(kernels, nullptr);
  EXPECT_EQ(cellText(*kernels, 0, "grid"), "64x1x1");  // the LayerNorm: 64 blocks on 132 SMs
  const Table* gaps = r.table("worst_gaps");
  ASSERT_NE(gaps, nullptr);
  ASSERT_FALSE(gaps->rows.empty());
  EXPECT_FALSE(cellText(*gaps, 0, "explanation").empty());
  EXPECT_EQ(testing::checkWellFormedHtml(renderHtml(r)), "");
}

TEST(RealTraces, CombinedIsNotBatchable) {
  const Report& r = reportFor("h200/combined_eager.json");
  EXPECT_FALSE(triggered(r, "small-kernels-same-op"));
  EXPECT_FALSE(triggered(r, "gemm-separate-add"));
}

TEST(RealTraces, MatmulThenAddCouldUseTheEpilogue) {
  EXPECT_TRUE(triggered(reportFor("h200/matmul_add_64_bf16_eager.json"), "gemm-separate-add"));
  // nn.Linear already carries its bias in the GEMM (nvjet ..._bias_...).
  EXPECT_FALSE(triggered(reportFor("h200/linear_64x4096_eager.json"), "gemm-separate-add"));
  EXPECT_FALSE(triggered(reportFor("h200/mlp_eager.json"), "gemm-separate-add"));
}

TEST(RealTraces, SquareThreeWaysIsAnElementwiseChain) {
  const Report& r = reportFor("h200/square_three_ways.json");
  EXPECT_TRUE(triggered(r, "elementwise-chain"));
  EXPECT_FALSE(triggered(r, "launch-overhead-bound"));
  EXPECT_FALSE(triggered(r, "low-occupancy"));  // 100% estimated occupancy
}

TEST(RealTraces, AlexNetCopiesFromPageableMemory) {
  const Report& r = reportFor("public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz");
  EXPECT_TRUE(triggered(r, "pageable-memcpy"));
  const Finding* f = r.finding("pageable-memcpy");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(cellText(f->evidence, 0, "copy"), "Memcpy HtoD (Pageable -> Device)");
}

// The time each CUDA memory-management call of the AlexNet trace spent
// inside launch-overhead gaps, counted from the JSON alone: the device's
// idle intervals (between the union of its kernels, copies and sets, 1 us or
// longer), those whose next op's launch call ended after the gap began and
// whose launching thread was not blocked in a synchronising call then
// (docs/gaps.md's rules), and each call's overlap with them.
std::map<std::string, TimeNs> alexNetAllocatorIdle() {
  using testing::exactNs;
  const auto json = nlohmann::json::parse(testing::readMaybeGzipped(
      std::string(GAPSCOPE_TEST_DATA_DIR) + "/public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz"));
  struct Event {
    TimeNs start, end;
    std::string tid;  // as written: a number or a string
    std::int64_t correlation;
    std::string name, cat;
  };
  std::vector<Event> gpu, calls;
  std::map<std::int64_t, Event> launches;
  for (const auto& e : json.at("traceEvents")) {
    if (e.value("ph", "") != "X") continue;
    const TimeNs start = exactNs(e.at("ts"));
    Event ev{start, start + exactNs(e.at("dur")), e.value("tid", nlohmann::json()).dump(),
             e.contains("args") && e["args"].contains("correlation") && e["args"]["correlation"].is_number()
                 ? e["args"]["correlation"].get<std::int64_t>()
                 : -1,
             e.value("name", ""),
             e.value("cat", "")};
    if (ev.cat == "kernel" || ev.cat == "gpu_memcpy" || ev.cat == "gpu_memset") gpu.push_back(ev);
    if (ev.cat == "cuda_runtime" || ev.cat == "cuda_sync") calls.push_back(ev);
    if (ev.cat == "cuda_runtime" && ev.correlation >= 0) launches[ev.correlation] = ev;
  }
  std::sort(gpu.begin(), gpu.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
  const std::regex sync("^(cudaDeviceSynchronize|cudaStreamSynchronize|cudaEventSynchronize|cudaMemcpy)$");
  const std::regex alloc("^(cudaMalloc|cudaFree|cudaHostAlloc).*");
  std::vector<std::pair<TimeNs, TimeNs>> overheadGaps;
  TimeNs busyEnd = gpu.front().end;
  for (std::size_t i = 1; i < gpu.size(); ++i) {
    const Event& next = gpu[i];
    if (next.start - busyEnd >= 1000 && launches.count(next.correlation)) {
      const Event& launch = launches.at(next.correlation);
      const bool blocked = std::any_of(calls.begin(), calls.end(), [&](const Event& c) {
        return c.tid == launch.tid && (c.cat == "cuda_sync" || std::regex_match(c.name, sync)) && c.start <= busyEnd &&
               c.end >= busyEnd - 2000;
      });
      if (!blocked && launch.end > busyEnd) overheadGaps.emplace_back(busyEnd, next.start);
    }
    busyEnd = std::max(busyEnd, next.end);
  }
  std::map<std::string, TimeNs> idle;
  for (const Event& c : calls) {
    if (!std::regex_match(c.name, alloc)) continue;
    for (const auto& [from, to] : overheadGaps) idle[c.name] += std::max<TimeNs>(0, std::min(c.end, to) - std::max(c.start, from));
  }
  return idle;
}

// Most of AlexNet's launch-overhead idle is the allocator (cudaFree,
// cudaMalloc): the first advice says so, with the times counted above.
TEST(RealTraces, AlexNetsLaunchOverheadIsMostlyTheAllocator) {
  const Report& r = reportFor("public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz");
  const Finding* f = r.finding("launch-overhead-bound");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->advice.empty());
  const auto idle = alexNetAllocatorIdle();
  TimeNs total = 0;
  for (const auto& [name, ns] : idle) total += ns;
  using format::formatDuration;
  EXPECT_EQ(f->advice.front().rfind(formatDuration(total) + " of it the launching threads spent allocating or freeing memory "
                                    "(cudaFree " + formatDuration(idle.at("cudaFree")) + ", cudaMalloc " +
                                    formatDuration(idle.at("cudaMalloc")) + ", cudaHostAlloc " +
                                    formatDuration(idle.at("cudaHostAlloc")) + ")", 0),
            0u)
      << f->advice.front();
}

TEST(RealTraces, EveryPublicTraceMakesAWellFormedReport) {
  for (const char* path : {"public/hta-event-sync-multistream/event_sync_trace.json.gz",
                           "public/hta-triton-example/triton_example.json.gz",
                           "public/hta-old-format-inference/inference_rank_1.json.gz",
                           "public/cat-unclosed-slices-array/main_thread_has_unclosed_slices.json"}) {
    const Report& r = reportFor(path);
    EXPECT_EQ(r.findings.size(), reportRules().size()) << path;
    EXPECT_EQ(testing::checkWellFormedHtml(renderHtml(r)), "") << path;
  }
}

}  // namespace
}  // namespace gapscope::report
