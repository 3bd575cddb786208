// CUPTI activity records -> plain records (records.h).
#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::cuda {

struct ActivityKind {
  CUpti_ActivityKind kind;
  const char* name;  // for error messages
};

// What gapscope records: kernels, memcpys, memsets, runtime and driver
// calls, synchronisations and CUPTI's overhead.
const std::vector<ActivityKind>& recordedActivityKinds();

// Appends `a` to `out` when it is a kind we keep and started at or after
// `keepFrom` (CUPTI timestamp); ignores everything else.
void appendActivity(const CUpti_Activity& a, std::uint64_t keepFrom, RecordSet& out);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the runtime's version
// suffix (four or more digits) says nothing to a reader; "_v2" stays.
std::string apiNameWithoutVersion(const char* name);

// Demangled when `name` is a mangled C++ name, else unchanged.
std::string demangle(const char* name);

}  // namespace gapscope::gpu::cuda
