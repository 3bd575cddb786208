// gapscope-cli tree: the folded output of a small trace with a known tree,
// line for line, and on a real trace the folded sums against counts made
// here from the JSON itself: device time = the kernels, memcpys and memsets
// whose correlation id is a runtime/driver call's on a CPU thread; CPU time
// = per thread, the durations of the slices no other slice contains.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "../support/json_time.h"
#include "../support/read_text.h"
#include "cli_run.h"

namespace gapscope::testing {
namespace {

using nlohmann::json;

const std::string kMlpEager = GAPSCOPE_TEST_DATA_DIR "/h200/mlp_eager.json";

// The value after the last space of each folded line, summed by the line's
// first frame (the thread).
std::map<std::string, long long> foldedSumsByThread(const std::string& folded) {
  std::map<std::string, long long> sums;
  std::istringstream lines(folded);
  for (std::string line; std::getline(lines, line);) {
    const auto space = line.rfind(' ');
    sums[line.substr(0, line.find(';'))] += std::stoll(line.substr(space + 1));
  }
  return sums;
}

bool isCpuWorkCategory(const std::string& cat) {
  return cat == "cpu_op" || cat == "user_annotation" || cat == "python_function" || cat == "cuda_runtime" ||
         cat == "cuda_driver";
}
bool isLaunchCategory(const std::string& cat) { return cat == "cuda_runtime" || cat == "cuda_driver"; }
bool isGpuWorkCategory(const std::string& cat) {
  return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset";
}

struct ThreadKey {
  std::string pid, tid;
  auto operator<=>(const ThreadKey&) const = default;
};

ThreadKey threadOf(const json& e) { return {e["pid"].dump(), e["tid"].dump()}; }
std::string category(const json& e) { return e.value("cat", ""); }

// The counts the folded sums must equal, made from the JSON alone.
struct JsonCounts {
  std::map<std::string, long long> rootCpuNsByThread;  // by thread label
  long long launchedDeviceNs = 0;
};

std::string labelOf(const std::map<ThreadKey, std::string>& names, const ThreadKey& t) {
  std::string tid = t.tid;
  tid.erase(std::remove(tid.begin(), tid.end(), '"'), tid.end());
  auto it = names.find(t);
  if (it == names.end()) return "thread " + tid;
  return it->second.find(tid) != std::string::npos ? it->second : it->second + " (" + tid + ")";
}

long long rootDurationSum(std::vector<std::pair<long long, long long>> slices) {  // (start, dur)
  std::sort(slices.begin(), slices.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  });
  long long sum = 0, rootEnd = 0;
  bool any = false;
  for (auto [start, dur] : slices) {
    if (any && start + dur <= rootEnd) continue;  // inside the current root
    sum += dur;
    rootEnd = start + dur;
    any = true;
  }
  return sum;
}

JsonCounts countFromJson(const std::string& path) {
  const json trace = json::parse(readMaybeGzipped(path));
  std::map<ThreadKey, std::string> names;
  std::map<ThreadKey, std::vector<std::pair<long long, long long>>> slices;
  std::set<ThreadKey> cpuThreads;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("ph", "") == "M" && e.value("name", "") == "thread_name") names[threadOf(e)] = e["args"]["name"];
    if (e.value("ph", "") != "X") continue;
    slices[threadOf(e)].emplace_back(exactNs(e["ts"]), exactNs(e["dur"]));
    if (isCpuWorkCategory(category(e))) cpuThreads.insert(threadOf(e));
  }
  std::set<long long> launchCorrelations;
  JsonCounts counts;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("ph", "") == "X" && isLaunchCategory(category(e)) && cpuThreads.count(threadOf(e))) {
      launchCorrelations.insert(e["args"].value("correlation", 0LL));
    }
  }
  for (const json& e : trace["traceEvents"]) {
    if (e.value("ph", "") != "X" || !isGpuWorkCategory(category(e))) continue;
    if (launchCorrelations.count(e["args"].value("correlation", 0LL))) counts.launchedDeviceNs += exactNs(e["dur"]);
  }
  for (const ThreadKey& t : cpuThreads) counts.rootCpuNsByThread[labelOf(names, t)] = rootDurationSum(slices[t]);
  return counts;
}

TEST(TreeCommand, FoldedDeviceSumIsTheLaunchedGpuWorkOfARealTrace) {
  const JsonCounts counts = countFromJson(kMlpEager);
  ASSERT_GT(counts.launchedDeviceNs, 0);
  const CliResult r = runCli({"tree", kMlpEager, "--metric", "device", "--format", "folded"});
  ASSERT_EQ(r.status, 0) << r.err;
  long long sum = 0;
  for (const auto& [thread, value] : foldedSumsByThread(r.out)) sum += value;
  EXPECT_EQ(sum, counts.launchedDeviceNs);
}

TEST(TreeCommand, FoldedCpuSumsAreTheRootDurationsPerThread) {
  const JsonCounts counts = countFromJson(kMlpEager);
  ASSERT_FALSE(counts.rootCpuNsByThread.empty());
  const CliResult r = runCli({"tree", kMlpEager, "--metric", "cpu", "--format", "folded"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(foldedSumsByThread(r.out), counts.rootCpuNsByThread);
}

// Times in us as Kineto writes them; the known tree of the analysis test
// (tests/analysis/call_tree_test.cpp), with a ';' in thread 2's op name.
std::string knownTraceJson() {
  auto cpu = [](const char* name, const char* cat, const char* ts, const char* dur, int tid, int corr) {
    std::string args = corr ? ",\"args\":{\"correlation\":" + std::to_string(corr) + "}" : "";
    return std::string("{\"ph\":\"X\",\"cat\":\"") + cat + "\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":" +
           std::to_string(tid) + ",\"ts\":" + ts + ",\"dur\":" + dur + args + "}";
  };
  auto kernel = [](const char* name, const char* ts, const char* dur, int corr) {
    return std::string("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"") + name +
           "\",\"pid\":0,\"tid\":7,\"ts\":" + ts + ",\"dur\":" + dur +
           ",\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + std::to_string(corr) + "}}";
  };
  const std::vector<std::string> events = {
      cpu("step", "user_annotation", "0", "10", 1, 0),
      cpu("outer", "cpu_op", "1", "5", 1, 0),
      cpu("inner", "cpu_op", "2", "2", 1, 0),
      cpu("cudaLaunchKernel", "cuda_runtime", "2.5", "0.5", 1, 1),
      cpu("outer", "cpu_op", "6.5", "2.5", 1, 0),
      cpu("cudaGraphLaunch", "cuda_runtime", "7", "0.5", 1, 2),
      cpu("other;op", "cpu_op", "0", "0.5", 2, 0),
      kernel("k1", "3.2", "2", 1),
      kernel("g1", "8", "0.1", 2),
      kernel("g2", "8.1", "0.2", 2),
      kernel("g3", "8.3", "0.3", 2),
  };
  std::string text = "{\"traceEvents\":[";
  for (std::size_t i = 0; i < events.size(); ++i) text += (i ? "," : "") + events[i];
  return text + "]}";
}

CliResult runOnKnownTrace(const std::vector<std::string>& options) {
  TempDir dir;
  const auto path = dir.path() / "known.json";
  std::ofstream(path) << knownTraceJson();
  std::vector<std::string> args = {"tree", path.string()};
  args.insert(args.end(), options.begin(), options.end());
  return runCli(args);
}

TEST(TreeCommand, FoldedLinesOfAKnownTree) {
  CliResult r = runOnKnownTrace({"--format", "folded"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "thread 1;step 2500\n"
            "thread 1;step;outer 5000\n"
            "thread 1;step;outer;inner 1500\n"
            "thread 1;step;outer;inner;cudaLaunchKernel 500\n"
            "thread 1;step;outer;cudaGraphLaunch 500\n"
            "thread 2;other:op 500\n");
  r = runOnKnownTrace({"--format", "folded", "--metric", "device"});
  EXPECT_EQ(r.out,
            "thread 1;step;outer;inner;cudaLaunchKernel 2000\n"
            "thread 1;step;outer;cudaGraphLaunch 600\n");
  r = runOnKnownTrace({"--format", "folded", "--metric", "launches"});
  EXPECT_EQ(r.out,
            "thread 1;step;outer;inner;cudaLaunchKernel 1\n"
            "thread 1;step;outer;cudaGraphLaunch 1\n");
  r = runOnKnownTrace({"--format", "folded", "--metric", "idle"});
  EXPECT_EQ(r.out, "thread 1;step;outer;cudaGraphLaunch 2800\n");
}

TEST(TreeCommand, ThreadOptionAndJson) {
  CliResult r = runOnKnownTrace({"--format", "json", "--thread", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["threads"].size(), 1u);
  const json& step = j["threads"][0]["nodes"][0];
  EXPECT_EQ(step["name"], "step");
  EXPECT_EQ(step["cpu_total_us"], 10.0);
  EXPECT_EQ(step["device_total_us"], 2.6);
  EXPECT_EQ(step["launches_total"], 2);
  EXPECT_EQ(step["idle_total_us"], 2.8);
  EXPECT_EQ(step["children"][0]["name"], "outer");
  EXPECT_EQ(step["children"][0]["calls"], 2);

  r = runOnKnownTrace({"--thread", "3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no thread with CPU work has tid 3"), std::string::npos) << r.err;
  r = runOnKnownTrace({"--metric", "gpu"});
  EXPECT_EQ(r.status, 2);
}

TEST(TreeCommand, TextShowsTheLargestNodesIndented) {
  const CliResult r = runOnKnownTrace({"--limit", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\nstep "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  outer "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("inner"), std::string::npos) << r.out;  // third largest: left out
}

}  // namespace
}  // namespace gapscope::testing
