// Small queries over the trace model that the report's sections and rules
// share: GPU work per stream in time order, and the CPU op behind a launch.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::report {

struct StreamOps {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<std::uint32_t> ops;  // kernel/memcpy/memset slice indices by start
};

// Every GPU stream track with activity, sorted by (device, stream).
std::vector<StreamOps> gpuOpsByStream(const Trace& trace);

// The innermost cpu_op slice (kind CpuOp) enclosing `slice` on its own
// track (up its Slice::parent chain), or kNoIndex.
std::uint32_t enclosingCpuOp(const Trace& trace, std::uint32_t slice);

// The name of the CPU op whose launch call started GPU op `gpuOp` (through
// the correlation id), "" when unknown.
std::string_view launchingOpName(const Trace& trace, std::uint32_t gpuOp);

// The ProfilerStep annotations' CPU ranges are used to decide what is
// "inside a step"; this tells whether [start, end) lies in one of them.
struct StepRanges {
  std::vector<std::pair<TimeNs, TimeNs>> ranges;  // sorted by start
  bool contains(TimeNs start, TimeNs end) const;
};

}  // namespace gapscope::report
