// Finds and loads the CUDA module once per process.
#pragma once

#include <string>

#include "backend_api.h"

namespace gapscope::gpu::detail {

struct LoadedBackend {
  const BackendApi* api = nullptr;  // null when unavailable
  Unavailable why = Unavailable::None;
  std::string error;  // why api is null
  std::string path;   // the module that was loaded (or failed to load)
};

// Thread-safe; loads on the first call and caches the outcome.
const LoadedBackend& loadBackend();

}  // namespace gapscope::gpu::detail
