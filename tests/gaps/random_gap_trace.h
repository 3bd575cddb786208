// Random Kineto-like traces with everything the gap analysis looks at:
// several devices, streams and launching threads, a stream split over two
// tracks, kernel/driver/graph/memcpy/memset launches, blocking syncs and
// stream waits with and without cuda_sync markers, nested and spilled CPU
// ops, ops that touch, overlap or tie, zero-length ops, missing, duplicate,
// sparse and orphan correlation ids, GPU annotations and ProfilerStep#N.
// Deterministic for a seed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gapscope/model/trace_builder.h"

namespace gapscope::gaps_test {

class RandomGapTrace {
 public:
  RandomGapTrace(std::uint64_t seed, int launches) : state_(seed * 0x9e3779b97f4a7c15ull + 1), launches_(launches) {}

  Trace build() {
    const int devices = 1 + pick(2);
    const int threads = 1 + pick(3);
    const bool sparseIds = chance(20);
    coarse_ = chance(50);  // whole microseconds: ties everywhere
    for (int d = 0; d < devices; ++d) {
      int n = 1 + pick(3);
      for (int s = 0; s < n; ++s) streams_[d].push_back(7 + 3 * s + d);
    }
    std::map<int, TimeNs> cpuTime;
    for (int th = 0; th < threads; ++th) cpuTime[th] = 1'000'000;
    std::int64_t id = sparseIds ? 1000 : 1;
    int step = 0, stepLeft = 5 + pick(30);
    TimeNs stepStart = cpuTime[0];
    for (int i = 0; i < launches_; ++i) {
      int th = pick(threads);
      TimeNs& now = cpuTime[th];
      int d = pick(devices);
      int s = streams_[d][pick(static_cast<int>(streams_[d].size()))];
      std::int64_t corr = chance(3) ? kNoCorrelation : (sparseIds ? (id += 1 + pick(5000)) : ++id);
      if (corr != kNoCorrelation && chance(1)) corr = id - 1;  // a duplicate id
      launchOne(th, now, d, s, corr);
      if (th == 0 && --stepLeft == 0) {
        cpu("ProfilerStep#" + std::to_string(step++), "user_annotation", stepStart,
            cpuTime[0] - stepStart, kNoCorrelation, 0);
        stepStart = cpuTime[0];
        stepLeft = 5 + pick(30);
      }
    }
    return b_.finish();
  }

 private:
  struct Call {
    std::string name;
    std::string category = "cuda_runtime";
    int ops = 1;
    std::string opName = "kernel_a";
    std::string opCategory = "kernel";
    bool blocks = false;
  };

  Call pickCall() {
    int k = pick(100);
    Call c;
    if (k < 50) c.name = chance(30) ? "cudaLaunchKernelExC_v11060" : "cudaLaunchKernel";
    else if (k < 60) c.name = "cuLaunchKernel", c.category = "cuda_driver";
    else if (k < 66) c.name = "cudaGraphLaunch", c.ops = 2 + pick(4);
    else if (k < 72) c.name = "cudaMemcpyAsync", c.opName = "Memcpy HtoD", c.opCategory = "gpu_memcpy";
    else if (k < 76) c.name = "cudaMemsetAsync", c.opName = "Memset", c.opCategory = "gpu_memset";
    else if (k < 80) c.name = "cudaMemcpy", c.opName = "Memcpy DtoH", c.opCategory = "gpu_memcpy", c.blocks = true;
    else if (k < 86) c.name = "cudaDeviceSynchronize", c.ops = 0, c.blocks = true;
    else if (k < 90) c.name = "cudaStreamSynchronize", c.ops = 0, c.blocks = true;
    else if (k < 95) c.name = "cudaStreamWaitEvent", c.ops = 0;
    else if (k < 97) c.name = "cudaEventSynchronize", c.ops = 0, c.blocks = true;
    else c.name = "cudaEventRecord", c.ops = 0;
    return c;
  }

  void launchOne(int th, TimeNs& now, int d, int s, std::int64_t corr) {
    Call c = pickCall();
    TimeNs opStart = now + t(0, 3000);
    TimeNs callStart = opStart + t(0, 4000);
    TimeNs callDur = t(0, 9000);
    TimeNs& streamFree = free_[{d, s}];
    if (c.blocks) {
      TimeNs until = c.name == "cudaStreamSynchronize" ? streamFree : deviceFree(d);
      callDur = std::max(callDur, until + t(0, 3000) - callStart);
    }
    cpu("aten::op" + std::to_string(pick(6)), "cpu_op", opStart, callStart + callDur + t(0, 2000) - opStart,
        kNoCorrelation, th);
    if (chance(5)) cpu("aten::spill", "cpu_op", callStart - 100, callDur + 5000, kNoCorrelation, th);
    if (chance(10))
      cpu("aten::empty", "cpu_op", opStart + 10, std::max<TimeNs>(0, callStart - opStart - 20), kNoCorrelation, th);
    cpu(c.name, c.category, callStart, callDur, corr, th);
    if (corr != kNoCorrelation) markSync(c.name, d, s, corr, callStart);
    TimeNs at = std::max(streamFree + (chance(30) ? 0 : t(0, 4000)),
                         callStart + t(0, 6000) - (chance(10) ? 3000 : 0));
    if (chance(5)) at = streamFree;  // touches the op before
    for (int k = 0; k < c.ops; ++k) {
      TimeNs dur = chance(3) ? 0 : t(100, 20000);
      std::int64_t opCorr = chance(2) ? kNoCorrelation : chance(2) ? 999'999'999 : corr;
      bool secondTrack = d == 0 && s == 7 && chance(20);
      gpu(c.opName, c.opCategory, at, dur, opCorr, d, s, secondTrack);
      if (chance(3)) gpu("annotation", "gpu_user_annotation", at, dur + 5000, kNoCorrelation, d, s, false);
      at += dur + (c.ops > 1 ? t(0, 2000) : 0);
      if (chance(5)) at -= dur / 2;  // overlaps on its stream
    }
    streamFree = std::max(streamFree, at);
    now = std::max(now, callStart + callDur + t(0, 2000)) + t(0, 5000);
  }

  // Kineto's cuda_sync markers on the GPU rows, for some of the calls.
  void markSync(const std::string& call, int d, int s, std::int64_t corr, TimeNs at) {
    if (call == "cudaStreamWaitEvent" && chance(70)) {
      int waiting = streams_[d][pick(static_cast<int>(streams_[d].size()))];
      gpu("Stream Wait Event", "cuda_sync", at, 0, corr, d, waiting, false);
    } else if ((call == "cudaEventSynchronize" || call == "cudaStreamSynchronize") && chance(70)) {
      gpu(call == "cudaEventSynchronize" ? "Event Sync" : "Stream Sync", "cuda_sync", at, 0, corr, d, s, false);
    } else if (call == "cudaEventRecord" && chance(50)) {
      gpu("Context Sync", "cuda_sync", at, 0, corr, d, s, false);  // makes this call a blocking one
    }
  }

  TimeNs deviceFree(int d) const {
    TimeNs m = 0;
    for (const auto& [key, v] : free_)
      if (key.first == d) m = std::max(m, v);
    return m;
  }

  void cpu(const std::string& name, const std::string& category, TimeNs start, TimeNs dur,
           std::int64_t corr, int th) {
    SliceEvent e;
    e.pid = b_.numericId(1);
    e.tid = b_.numericId(100 + th);
    e.start = start;
    e.dur = dur;
    e.name = b_.intern(name);
    e.category = b_.intern(category);
    e.correlation = corr;
    b_.addComplete(e);
  }

  // A stream's second track has its own tid but names the same (device, stream).
  void gpu(const std::string& name, const std::string& category, TimeNs start, TimeNs dur,
           std::int64_t corr, int d, int s, bool secondTrack) {
    SliceEvent e;
    e.pid = b_.numericId(d);
    e.tid = b_.numericId(secondTrack ? s + 1000 : s);
    e.start = start;
    e.dur = dur;
    e.name = b_.intern(name);
    e.category = b_.intern(category);
    e.correlation = corr;
    if (category == "kernel" || secondTrack) {
      KernelInfo k;
      k.device = d;
      k.stream = s;
      e.kernel = k;
    }
    b_.addComplete(e);
  }

  std::uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  int pick(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return pick(100) < percent; }
  TimeNs t(TimeNs lo, TimeNs hi) {
    TimeNs v = lo + static_cast<TimeNs>(next() % static_cast<std::uint64_t>(hi - lo));
    return coarse_ ? v / 1000 * 1000 : v;
  }

  std::uint64_t state_;
  int launches_;
  bool coarse_ = false;
  TraceBuilder b_;
  std::map<int, std::vector<int>> streams_;
  std::map<std::pair<int, int>, TimeNs> free_;
};

}  // namespace gapscope::gaps_test
