// Small Kineto-like traces for analysis unit tests, built through
// TraceBuilder: CPU events on pid 1 (tid chosen per event), GPU events on
// pid 0 (the device) and tid = stream. Times in nanoseconds.
#pragma once

#include <optional>
#include <string>

#include "../support/slice_events.h"
#include "gapscope/model/trace_builder.h"

namespace gapscope::testing {

class TraceMaker {
 public:
  // A CPU slice ("cpu_op", "user_annotation", "cuda_runtime", ...).
  TraceMaker& cpu(const std::string& name, const std::string& category, TimeNs start, TimeNs dur,
                  std::int64_t correlation = kNoCorrelation, std::int64_t tid = 1,
                  const std::string& shapes = "") {
    SliceEvent e = sliceEvent(b_, 1, tid, name, category, start, dur, correlation);
    if (!shapes.empty()) e.shapes = b_.intern(shapes);
    b_.addComplete(e);
    return *this;
  }
  // A launch call (cudaLaunchKernel, category cuda_runtime) with a correlation id.
  TraceMaker& launch(TimeNs start, TimeNs dur, std::int64_t correlation, std::int64_t tid = 1) {
    return cpu("cudaLaunchKernel", "cuda_runtime", start, dur, correlation, tid);
  }
  // A GPU slice ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation").
  TraceMaker& gpu(const std::string& name, const std::string& category, TimeNs start, TimeNs dur,
                  std::int64_t correlation = kNoCorrelation, std::int64_t stream = 7,
                  std::int32_t device = 0, std::optional<KernelInfo> info = std::nullopt) {
    SliceEvent e = sliceEvent(b_, device, stream, name, category, start, dur, correlation);
    if (info) {
      info->device = device;
      info->stream = stream;
    }
    e.kernel = info;
    b_.addComplete(e);
    return *this;
  }
  TraceMaker& kernel(const std::string& name, TimeNs start, TimeNs dur, std::int64_t correlation,
                     std::int64_t stream = 7, std::int32_t device = 0) {
    return gpu(name, "kernel", start, dur, correlation, stream, device);
  }
  TraceBuilder& builder() { return b_; }
  Trace finish() { return b_.finish(); }

 private:
  TraceBuilder b_;
};

}  // namespace gapscope::testing
