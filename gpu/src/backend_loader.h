// Finds and loads the CUDA module once per process.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "backend_api.h"

namespace gapscope::gpu::detail {

struct LoadedBackend {
  const BackendApi* api = nullptr;  // null when unavailable
  Unavailable why = Unavailable::None;
  std::string error;  // why api is null
  std::string path;   // the module that was loaded (or failed to load)
};

// Where an installed file of gapscope's may be, in order: $envVar, beside
// the executable, ../lib/gapscope relative to it, installPath, buildPath
// (either may be null).
std::vector<std::filesystem::path> installedFileCandidates(const char* envVar, const std::string& fileName,
                                                           const char* installPath, const char* buildPath);

// Thread-safe; loads on the first call and caches the outcome.
const LoadedBackend& loadBackend();

}  // namespace gapscope::gpu::detail
