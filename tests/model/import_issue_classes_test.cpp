// Import issue classes on the real traces of tests/data: every known
// producer quirk and the flow and overlap problems are counted here again
// from the JSON itself (docs/import-issues.md gives the shapes), and must
// equal what the reader counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/json_time.h"
#include "../support/read_text.h"
#include "gapscope/io/chrome_reader.h"

namespace gapscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::exactNs;
using testing::readMaybeGzipped;

const fs::path kData = fs::path(GAPSCOPE_TEST_DATA_DIR);

struct Event {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::string cat;
  std::string name;
};

// Threads keyed by the text of pid and tid: "10" and 10 are one thread.
std::string idText(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
std::string threadKey(const json& e) { return idText(e.value("pid", json(0))) + "/" + idText(e.value("tid", json(0))); }

bool isRuntime(const Event& e) { return e.cat == "cuda_runtime" || e.cat == "cuda_driver" || e.cat == "Runtime"; }

// Runtime and driver calls that enqueue GPU work.
bool enqueuesWork(const Event& e) {
  for (const char* prefix : {"cudaLaunchKernel", "cuLaunchKernel", "cudaLaunchCooperativeKernel", "cudaGraphLaunch",
                             "cuGraphLaunch", "cudaMemcpy", "cudaMemset", "cuMemcpy", "cuMemset"}) {
    if (e.name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

struct Counts {
  std::map<std::string, std::uint64_t> byName;
  void add(const std::string& name) { byName[name] += 1; }
};

class JsonTrace {
 public:
  explicit JsonTrace(const fs::path& path) {
    const json doc = json::parse(readMaybeGzipped(path));
    const json& events = doc.is_array() ? doc : doc.at("traceEvents");
    for (const json& e : events) {
      const std::string ph = e.value("ph", "");
      if (ph == "X") {
        const std::int64_t start = exactNs(e.at("ts"));
        threads_[threadKey(e)].push_back({start, start + exactNs(e.at("dur")), e.value("cat", ""), e.value("name", "")});
      } else if ((ph == "s" || ph == "f" || ph == "t") && isLaunchFlow(e.value("cat", ""))) {
        flows_[idText(e.at("id"))].push_back({ph[0], exactNs(e.at("ts")), threadKey(e)});
      }
    }
    for (auto& [key, list] : threads_) {
      std::stable_sort(list.begin(), list.end(), [](const Event& a, const Event& b) {
        return a.start != b.start ? a.start < b.start : a.end - a.start > b.end - b.start;
      });
    }
  }

  Counts count() const {
    Counts c;
    for (const auto& [id, points] : flows_) countFlow(points, c);
    for (const auto& [key, list] : threads_) countOverlaps(list, c);
    return c;
  }

 private:
  struct FlowPoint {
    char ph;
    std::int64_t ts;
    std::string thread;
  };

  static bool isLaunchFlow(const std::string& cat) { return cat == "ac2g" || cat == "async"; }

  // The innermost X event of the thread whose [start, end] holds ts.
  const Event* enclosing(const FlowPoint& p) const {
    auto it = threads_.find(p.thread);
    if (it == threads_.end()) return nullptr;
    const Event* best = nullptr;
    for (const Event& e : it->second) {
      if (e.start <= p.ts && p.ts <= e.end && (!best || e.start >= best->start)) best = &e;
    }
    return best;
  }

  static const char* startWithoutEnd(const Event* from) {
    if (!from || !isRuntime(*from)) return "orphan_flow_start";
    return enqueuesWork(*from) ? "launch_without_gpu_work" : "sync_flow_without_end";
  }

  void countFlow(std::vector<FlowPoint> points, Counts& c) const {
    std::stable_sort(points.begin(), points.end(), [](const FlowPoint& a, const FlowPoint& b) {
      return a.ts != b.ts ? a.ts < b.ts : (a.ph == 's') > (b.ph == 's');
    });
    const auto starts = std::count_if(points.begin(), points.end(), [](const FlowPoint& p) { return p.ph == 's'; });
    ASSERT_LE(starts, 1) << "one launch per correlation id in these traces";
    if (starts == 1) {
      ASSERT_EQ(points.front().ph, 's') << "a launch comes before its GPU work";
      const Event* from = enclosing(points.front());
      const auto ends = static_cast<std::int64_t>(points.size()) - 1;
      if (ends == 0) c.add(startWithoutEnd(from));
      for (std::int64_t k = 1; k < ends; ++k) c.add("launch_flow_extra_end");
      return;
    }
    for (const FlowPoint& p : points) {
      const Event* at = enclosing(p);
      const bool quirk = at && ((isRuntime(*at) && !enqueuesWork(*at)) || at->cat == "cuda_sync");
      c.add(quirk ? "flow_end_on_non_launch_call" : "orphan_flow_end");
    }
  }

  // A stack of nested events; one that ends after the innermost open one
  // overlaps it without nesting and stays off the stack.
  static void countOverlaps(const std::vector<Event>& list, Counts& c) {
    std::vector<const Event*> open;
    for (const Event& e : list) {
      while (!open.empty() && open.back()->end <= e.start) open.pop_back();
      if (!open.empty() && e.end > open.back()->end) {
        const Event& o = *open.back();
        if (e.cat == "python_function" || o.cat == "python_function") c.add("python_frame_overlap");
        else if (e.cat == "cuda_sync" || o.cat == "cuda_sync") c.add("sync_record_overlap");
        else c.add("overlap_spilled");
        continue;
      }
      open.push_back(&e);
    }
  }

  std::map<std::string, std::vector<Event>> threads_;
  std::map<std::string, std::vector<FlowPoint>> flows_;
};

struct Counted {
  const char* name;
  bool producerQuirk;
};
const Counted kCounted[] = {
    {"flow_end_on_non_launch_call", true}, {"sync_flow_without_end", true}, {"launch_flow_extra_end", true},
    {"python_frame_overlap", true},        {"sync_record_overlap", true},   {"orphan_flow_start", false},
    {"orphan_flow_end", false},            {"overlap_spilled", false},      {"launch_without_gpu_work", false}};

class ImportIssueClasses : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportIssueClasses, CountsEqualACountFromTheJson) {
  const fs::path path = kData / GetParam();
  io::LoadResult loaded = io::loadChromeTrace(path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  const ImportIssues& issues = loaded.trace->issues;
  const Counts expected = JsonTrace(path).count();
  for (const Counted& k : kCounted) {
    const auto it = expected.byName.find(k.name);
    EXPECT_EQ(issues.count(k.name), it == expected.byName.end() ? 0 : it->second) << k.name;
    if (const ImportIssue* issue = issues.find(k.name)) {
      EXPECT_EQ(issue->producerQuirk, k.producerQuirk) << k.name;
    }
  }
  EXPECT_EQ(issues.count("unbound_flow_point"), 0u);
}

// Every Kineto trace here with GPU work: their issues are all producer quirks
// except launches whose memset is missing (launch_without_gpu_work).
INSTANTIATE_TEST_SUITE_P(
    RealTraces, ImportIssueClasses,
    ::testing::Values("h100/train_adam.json", "h100/train_adam_stack.json", "h100/cudagraph_replay.json",
                      "h100/block_eager.json", "h100/block_compiled.json", "h100/block_cudagraph.json",
                      "h200/mlp_eager.json", "h200/square_three_ways.json", "h200/split_stack_eager.json",
                      "public/hta-alexnet-a100/benchmark_result_2869224_1695835535_trace.json.gz",
                      "public/hta-event-sync-multistream/event_sync_trace.json.gz",
                      "public/hta-triton-example/triton_example.json.gz",
                      "public/tl-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz"),
    [](const auto& info) {
      std::string name = fs::path(info.param).parent_path().filename().string() + "_" +
                         fs::path(info.param).filename().string();
      for (char& ch : name) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      return name;
    });

TEST(ImportIssueClasses, TorchProfilerTracesHaveNoProblems) {
  for (const char* trace : {"h100/train_adam.json", "h100/train_adam_stack.json", "h100/cudagraph_replay.json",
                            "h100/block_cudagraph.json", "h200/mlp_eager.json"}) {
    io::LoadResult loaded = io::loadChromeTrace((kData / trace).string());
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    EXPECT_EQ(problemCount(loaded.trace->issues.all()), 0u) << trace;
    EXPECT_GT(quirkCount(loaded.trace->issues.all()), 0u) << trace;
  }
}

// Kineto 2021 wrote runtime calls on tid "25738" and their flows on 25738:
// one thread, so every launch flow binds (one per "s" in the file).
TEST(ImportIssueClasses, NumericStringThreadIdsBindTheirFlows) {
  const fs::path path = kData / "public/kineto-tb-resnet50-2021/worker0.1623143089861.pt.trace.json.gz";
  const std::string text = readMaybeGzipped(path);
  std::size_t starts = 0;
  for (std::size_t at = text.find("\"ph\": \"s\""); at != std::string::npos; at = text.find("\"ph\": \"s\"", at + 1)) {
    ++starts;
  }
  io::LoadResult loaded = io::loadChromeTrace(path.string());
  ASSERT_TRUE(loaded.ok()) << loaded.error;
  ASSERT_GT(starts, 0u);
  EXPECT_EQ(loaded.trace->flows.size(), starts);
  EXPECT_EQ(loaded.trace->issues.count("unbound_flow_point"), 0u);
  EXPECT_EQ(loaded.trace->issues.count("orphan_flow_end"), 0u);
}

}  // namespace
}  // namespace gapscope
