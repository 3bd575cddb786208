#pragma once

#include <string>

#include "gapscope/gpu/recorder.h"

namespace gapscope::gpu::cuda {

Availability probeDevice(int device);
// The reason shown when CUPTI refuses for lack of privileges.
std::string privilegesHint();

}  // namespace gapscope::gpu::cuda
