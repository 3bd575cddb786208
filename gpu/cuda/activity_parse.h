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

// Which API calls are recorded once the kinds above are enabled:
// WithoutQueries (the default) leaves out cheap queries made around every
// launch (recorded_apis.cpp); All keeps every call; RuntimeOnly also drops
// the driver API (launches made through the driver, as Triton's, lose
// their API record: for measuring what the driver records cost).
// GAPSCOPE_RECORD_API=all|runtime chooses another than the default.
enum class ApiRecording { WithoutQueries, All, RuntimeOnly };
ApiRecording apiRecordingFromEnvironment();
void applyApiRecording(ApiRecording how);

// Appends `a` to `out` when it is a kind we keep and started at or after
// `keepFrom` (CUPTI timestamp); ignores everything else.
void appendActivity(const CUpti_Activity& a, std::uint64_t keepFrom, RecordSet& out);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the runtime's version
// suffix (four or more digits) says nothing to a reader; "_v2" stays.
std::string apiNameWithoutVersion(const char* name);

// Demangled when `name` is a mangled C++ name, else unchanged.
std::string demangle(const char* name);

}  // namespace gapscope::gpu::cuda
