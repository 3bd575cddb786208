// A small trace built through TraceBuilder for the timeline tests: one CPU
// process (two threads, nested ops, launch calls), one GPU device (two
// streams, kernels linked by correlation), Kineto's "Spans" process, a GPU
// process with metadata only, and a counter.
#pragma once

#include <string>

#include "gapscope/model/trace_builder.h"

namespace gapscope::testing {

class TraceFixture {
 public:
  TraceBuilder b;
  ChromeId cpuPid = b.numericId(495);
  ChromeId mainTid = b.numericId(495);
  ChromeId workerTid = b.numericId(500);
  ChromeId gpu0 = b.numericId(0);
  ChromeId gpu1 = b.numericId(1);
  ChromeId stream7 = b.numericId(7);
  ChromeId stream9 = b.numericId(9);

  SliceEvent ev(const std::string& name, const char* cat, TimeNs start, TimeNs dur, ChromeId pid,
                ChromeId tid, std::int64_t correlation = kNoCorrelation) {
    SliceEvent e;
    e.pid = pid;
    e.tid = tid;
    e.start = start;
    e.dur = dur;
    e.name = b.intern(name);
    e.category = b.intern(cat);
    e.correlation = correlation;
    return e;
  }

  // The standard scene (times in ns):
  //   main:    step [0,1000) > op [100,600) > cudaLaunchKernel [200,250) corr 1
  //                                         > cudaLaunchKernel [300,350) corr 2
  //            step > op2 [700,900)
  //   worker:  work [50,80)
  //   GPU 0 stream 7: kA [400,450) corr 1;  stream 9: kB [500,520) corr 2
  //   counter "mem" on the CPU process
  Trace build() {
    b.setProcessName(cpuPid, "python3");
    b.setProcessLabels(cpuPid, "CPU");
    b.setProcessSortIndex(cpuPid, 495);
    b.setThreadName(cpuPid, mainTid, "thread 495 (python3)");
    b.setProcessName(gpu0, "python3");
    b.setProcessLabels(gpu0, "GPU 0");
    b.setProcessSortIndex(gpu0, 5000000);
    b.setProcessName(gpu1, "python3");
    b.setProcessLabels(gpu1, "GPU 1");
    b.setProcessSortIndex(gpu1, 5000001);
    b.addComplete(ev("step", "user_annotation", 0, 1000, cpuPid, mainTid));
    b.addComplete(ev("op", "cpu_op", 100, 500, cpuPid, mainTid));
    b.addComplete(ev("cudaLaunchKernel", "cuda_runtime", 200, 50, cpuPid, mainTid, 1));
    b.addComplete(ev("cudaLaunchKernel", "cuda_runtime", 300, 50, cpuPid, mainTid, 2));
    b.addComplete(ev("op2", "cpu_op", 700, 200, cpuPid, mainTid));
    b.addComplete(ev("work", "cpu_op", 50, 30, cpuPid, workerTid));
    b.addComplete(ev("kA", "kernel", 400, 50, gpu0, stream7, 1));
    b.addComplete(ev("kB", "kernel", 500, 20, gpu0, stream9, 2));
    const ChromeId spans = b.stringId("Spans");
    b.addComplete(ev("PyTorch Profiler (0)", "Trace", 0, 1000, spans, b.stringId("PyTorch Profiler")));
    b.addCounter(cpuPid, b.intern("mem"), 0, 10, 0);
    b.addCounter(cpuPid, b.intern("mem"), 500, 30, 0);
    b.addCounter(cpuPid, b.intern("mem"), 800, 5, 0);
    return b.finish();
  }
};

// Index of the first slice named `name`; kNoIndex when absent.
inline std::uint32_t sliceNamed(const Trace& t, const std::string& name) {
  for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
    if (t.str(t.slices[i].name) == name) return i;
  }
  return kNoIndex;
}

}  // namespace gapscope::testing
