// Benchmark of the launch-gap analysis on a generated eager-PyTorch-like
// trace built in memory with TraceBuilder (no file, so only the analysis is
// timed). Shape per op: aten::linear > aten::addmm > cudaLaunchKernel on the
// main thread and one kernel on one of two streams; now and then a memcpy,
// a memset, a CUDA graph launch of 4 kernels, a cudaDeviceSynchronize, and
// a ProfilerStep#N annotation every 10,000 ops.
//
//   gaps_bench [--events N] [--repeat R] [--threads T] [--phases]
//
// Defaults: 10,000,000 events, 5 runs, the analysis' default threads. The
// machine the numbers come from is shared, so each figure is the best of
// the runs, in wall time and in CPU time of the whole process (both
// threads; page faults included); --phases adds the time of each stage of
// the analysis (wall, and CPU time of the thread that ran it), heard through
// a StageObserver. GPU busy time is computed first, timed on its own: the
// analysis reads it, as TraceAnalysis does.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <ctime>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "gapscope/analysis/gaps.h"
#include "gapscope/analysis/stage_observer.h"
#include "gapscope/model/trace_builder.h"
#include <mutex>

using namespace gapscope;

namespace {

struct Rng {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  TimeNs between(TimeNs lo, TimeNs hi) { return lo + static_cast<TimeNs>(next() % static_cast<std::uint64_t>(hi - lo)); }
};

class Generator {
 public:
  explicit Generator(std::uint64_t targetEvents) : target_(targetEvents) {
    cpu_ = b_.numericId(1);
    mainThread_ = b_.numericId(1);
    gpu_ = b_.numericId(0);
    for (const char* n : {"aten::linear", "aten::addmm", "cudaLaunchKernel", "cudaMemcpyAsync",
                          "cudaMemsetAsync", "cudaGraphLaunch", "cudaDeviceSynchronize", "cpu_op",
                          "cuda_runtime", "kernel", "gpu_memcpy", "gpu_memset", "user_annotation",
                          "ampere_sgemm_64x64_nn", "Memcpy HtoD", "Memset (Device)", "graph_kernel"})
      ids_[n] = b_.intern(n);
  }

  Trace build() {
    TimeNs cpuT = 1'000'000;
    TimeNs streamFree[2] = {0, 0};
    std::uint64_t op = 0;
    TimeNs stepStart = cpuT;
    while (events_ + 12 < target_) {
      if (op % 10000 == 0 && op) closeStep(stepStart, cpuT, op / 10000), stepStart = cpuT;
      int stream = (op / 8) % 2;
      TimeNs opStart = cpuT;
      TimeNs launchStart = opStart + rng_.between(3'000, 15'000);
      TimeNs launchDur = rng_.between(2'000, 8'000);
      std::uint64_t kind = op % 97;
      const char* call = kind == 13 ? "cudaMemcpyAsync" : kind == 29 ? "cudaMemsetAsync"
                         : kind == 41 ? "cudaGraphLaunch" : "cudaLaunchKernel";
      std::int64_t corr = ++corr_;
      TimeNs opEnd = launchStart + launchDur + rng_.between(1'000, 4'000);
      slice(cpu_, mainThread_, "aten::linear", "cpu_op", opStart, opEnd + 1'000 - opStart, 0);
      slice(cpu_, mainThread_, "aten::addmm", "cpu_op", opStart + 500, opEnd - opStart - 500, 0);
      slice(cpu_, mainThread_, call, "cuda_runtime", launchStart, launchDur, corr);
      TimeNs gpuT = std::max(streamFree[stream], launchStart + rng_.between(1'000, 5'000));
      int gpuOps = kind == 41 ? 4 : 1;
      for (int g = 0; g < gpuOps; ++g) {
        TimeNs dur = rng_.between(2'000, 20'000);
        const char* name = kind == 13 ? "Memcpy HtoD" : kind == 29 ? "Memset (Device)"
                           : kind == 41 ? "graph_kernel" : "ampere_sgemm_64x64_nn";
        const char* cat = kind == 13 ? "gpu_memcpy" : kind == 29 ? "gpu_memset" : "kernel";
        gpuSlice(name, cat, gpuT, dur, corr, 7 + stream);
        gpuT += dur + (kind == 41 ? 500 : 0);
      }
      streamFree[stream] = gpuT;
      cpuT = opEnd + 1'000 + rng_.between(1'000, 6'000);
      if (op % 1000 == 999) {  // a synchronize now and then drains the queue
        TimeNs until = std::max({streamFree[0], streamFree[1], cpuT + 1'000}) + 3'000;
        slice(cpu_, mainThread_, "cudaDeviceSynchronize", "cuda_runtime", cpuT, until - cpuT, ++corr_);
        cpuT = until + 2'000;
      }
      ++op;
    }
    closeStep(stepStart, cpuT, op / 10000 + 1);
    return b_.finish();
  }

  std::uint64_t events() const { return events_; }

 private:
  void slice(ChromeId pid, ChromeId tid, const char* name, const char* cat, TimeNs start, TimeNs dur,
             std::int64_t corr) {
    SliceEvent e;
    e.pid = pid;
    e.tid = tid;
    e.start = start;
    e.dur = dur;
    e.name = ids_.at(name);
    e.category = ids_.at(cat);
    e.correlation = corr;
    b_.addComplete(e);
    ++events_;
  }
  void gpuSlice(const char* name, const char* cat, TimeNs start, TimeNs dur, std::int64_t corr,
                int stream) {
    SliceEvent e;
    e.pid = gpu_;
    e.tid = b_.numericId(stream);
    e.start = start;
    e.dur = dur;
    e.name = ids_.at(name);
    e.category = ids_.at(cat);
    e.correlation = corr;
    if (std::strcmp(cat, "kernel") == 0) {
      KernelInfo k;
      k.device = 0;
      k.stream = stream;
      e.kernel = k;
    }
    b_.addComplete(e);
    ++events_;
  }
  void closeStep(TimeNs start, TimeNs end, std::uint64_t n) {
    SliceEvent e;
    e.pid = cpu_;
    e.tid = mainThread_;
    e.start = start;
    e.dur = end - start;
    e.name = b_.intern("ProfilerStep#" + std::to_string(n));
    e.category = ids_.at("user_annotation");
    b_.addComplete(e);
    ++events_;
  }

  TraceBuilder b_;
  Rng rng_;
  std::uint64_t target_;
  std::uint64_t events_ = 0;
  std::int64_t corr_ = 0;
  ChromeId cpu_, mainThread_, gpu_;
  std::map<std::string, StringId> ids_;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of the process (all its threads): the machine the numbers come
// from is shared, so wall time alone would measure the neighbours too.
double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

long minorFaults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

struct Best {
  double wall = 1e9;
  double cpu = 1e9;
  long faults = 0;
  void add(double w, double c, long f) {
    if (w < wall) wall = w;
    if (c < cpu) cpu = c, faults = f;
  }
};

// Runs f `repeat` times, `untimed` before each; best wall and best CPU time.
template <typename Untimed, typename F>
Best timeRuns(int repeat, Untimed&& untimed, F&& f) {
  Best best;
  for (int r = 0; r < repeat; ++r) {
    untimed();
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpuSeconds();
    long f0 = minorFaults();
    f();
    best.add(secondsSince(t0), cpuSeconds() - c0, minorFaults() - f0);
  }
  return best;
}

// Collects every stage's timing, from whichever thread ran it.
class StageLog : public analysis::StageObserver {
 public:
  void stageFinished(const analysis::StageTiming& t) override {
    std::lock_guard lock(mutex_);
    all_.push_back(t);
  }
  // Per stage: the best wall and thread-CPU time over the runs, in the order
  // the stages first finished.
  void print() const {
    std::vector<analysis::StageTiming> best;
    for (const auto& t : all_) {
      auto it = std::find_if(best.begin(), best.end(), [&](const auto& b) { return std::string(b.name) == t.name; });
      if (it == best.end()) {
        best.push_back(t);
        continue;
      }
      it->wallSeconds = std::min(it->wallSeconds, t.wallSeconds);
      it->threadCpuSeconds = std::min(it->threadCpuSeconds, t.threadCpuSeconds);
    }
    std::printf("  %-40s %9s %11s\n", "stage (best of the runs)", "wall s", "thread CPU s");
    for (const auto& b : best) std::printf("  %-40s %9.3f %11.3f\n", b.name, b.wallSeconds, b.threadCpuSeconds);
  }

 private:
  std::mutex mutex_;
  std::vector<analysis::StageTiming> all_;
};

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t events = 10'000'000;
  int repeat = 5;
  int threads = analysis::GapOptions{}.threads;
  bool phases = false;
  for (int i = 1; i < argc; ++i) {
    bool hasValue = i + 1 < argc;
    if (std::strcmp(argv[i], "--events") == 0 && hasValue) events = std::strtoull(argv[++i], nullptr, 10);
    else if (std::strcmp(argv[i], "--repeat") == 0 && hasValue) repeat = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--threads") == 0 && hasValue) threads = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--phases") == 0) phases = true;
    else {
      std::fprintf(stderr, "usage: gaps_bench [--events N] [--repeat R] [--threads T] [--phases]\n");
      return 2;
    }
  }
  auto t0 = std::chrono::steady_clock::now();
  Generator gen(events);
  Trace trace = gen.build();
  double buildS = secondsSince(t0);
  std::printf("generated %llu events (%zu slices) in memory in %.2f s (not timed below)\n",
              static_cast<unsigned long long>(gen.events()), trace.slices.size(), buildS);

  analysis::GapOptions options;
  options.threads = threads;
  StageLog log;
  analysis::GpuBusy busy;
  Best busyTime = timeRuns(
      repeat, [&] { busy = {}; }, [&] { busy = analysis::computeGpuBusy(trace); });
  analysis::GapAnalysis a;
  Best full = timeRuns(
      repeat, [&] { a = {}; },  // the previous result is freed outside the timed part
      [&] { a = analysis::analyzeGaps(trace, busy, options, phases ? &log : nullptr); });
  std::string verdict;
  Best summary = timeRuns(
      repeat, [] {}, [&] { verdict = analysis::summarizeGaps(trace, busy, options).verdict; });
  if (verdict.empty()) return 1;

  std::printf("analyzeGaps (%d thread%s):   best of %d: %.3f s wall, %.3f s CPU, %ld page faults  "
              "(%zu listed gaps, %llu unlisted, %zu CPU-op entries, %llu launches, %zu steps)\n",
              threads, threads == 1 ? "" : "s", repeat, full.wall, full.cpu, full.faults, a.gaps.size(),
              static_cast<unsigned long long>(a.unlistedGaps), a.cpuOps.size(),
              static_cast<unsigned long long>(a.launchStats.count), a.steps.size());
  std::printf("computeGpuBusy (needed by both):   best of %d: %.3f s wall, %.3f s CPU\n", repeat, busyTime.wall,
              busyTime.cpu);
  std::printf("summarizeGaps (totals and verdict only): best of %d: %.3f s wall, %.3f s CPU\n", repeat,
              summary.wall, summary.cpu);
  std::printf("verdict: %s\n", a.verdict.line.c_str());
  if (phases) log.print();
  return 0;
}
