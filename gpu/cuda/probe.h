#pragma once

#include <string>

#include "gapscope/gpu/recorder.h"

namespace gapscope::gpu::cuda {

// `cupti` false: driver and device only.
Availability probeDevice(int device, bool cupti);
// The reason shown when CUPTI refuses for lack of privileges.
std::string privilegesHint();

}  // namespace gapscope::gpu::cuda
