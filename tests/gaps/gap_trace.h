// Hand-built Kineto-like traces for the gap analysis tests: CPU events on
// pid 1 (thread 1 unless told), GPU events on pid = device, tid = stream.
// Times are given in microseconds (as integers or exact decimals through
// us()) and stored in nanoseconds.
#pragma once

#include <string>

#include "../support/slice_events.h"
#include "gapscope/model/trace_builder.h"

namespace gapscope::gaps_test {

constexpr TimeNs us(double v) { return static_cast<TimeNs>(v * 1000.0 + (v >= 0 ? 0.5 : -0.5)); }

class GapTrace {
 public:
  GapTrace& cpu(const std::string& name, TimeNs start, TimeNs dur,
                const std::string& category = "cpu_op", std::int64_t correlation = kNoCorrelation,
                std::int64_t tid = 1) {
    b_.addComplete(testing::sliceEvent(b_, 1, tid, name, category, start, dur, correlation));
    return *this;
  }
  // A CPU slice of another process than 1.
  GapTrace& cpuIn(std::int64_t pid, std::int64_t tid, const std::string& name, TimeNs start, TimeNs dur,
                  const std::string& category) {
    b_.addComplete(testing::sliceEvent(b_, pid, tid, name, category, start, dur, kNoCorrelation));
    return *this;
  }
  // A runtime call; `category` "cuda_driver" for cuLaunchKernel and friends.
  GapTrace& call(const std::string& name, TimeNs start, TimeNs dur, std::int64_t correlation,
                 std::int64_t tid = 1, const std::string& category = "cuda_runtime") {
    return cpu(name, start, dur, category, correlation, tid);
  }
  GapTrace& launch(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t tid = 1) {
    return call("cudaLaunchKernel", start, dur, correlation, tid);
  }
  GapTrace& gpu(const std::string& name, const std::string& category, TimeNs start, TimeNs dur,
                std::int64_t correlation, std::int64_t stream = 7, std::int32_t device = 0) {
    SliceEvent e = testing::sliceEvent(b_, device, stream, name, category, start, dur, correlation);
    if (category == "kernel") {
      KernelInfo k;
      k.device = device;
      k.stream = stream;
      e.kernel = k;
    }
    b_.addComplete(e);
    return *this;
  }
  GapTrace& kernel(const std::string& name, TimeNs start, TimeNs dur, std::int64_t correlation,
                   std::int64_t stream = 7, std::int32_t device = 0) {
    return gpu(name, "kernel", start, dur, correlation, stream, device);
  }
  Trace finish() { return b_.finish(); }

 private:
  TraceBuilder b_;
};

}  // namespace gapscope::gaps_test
