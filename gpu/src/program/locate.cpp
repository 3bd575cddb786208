// Where the injection library and the torch-ops sitecustomize are: the same
// search as the CUDA module's (backend_loader.h).
#include <filesystem>

#include "backend_loader.h"
#include "gapscope/gpu/program_recorder.h"

namespace gapscope::gpu {

namespace {

namespace fs = std::filesystem;

#ifndef GAPSCOPE_INJECT_NAME
#define GAPSCOPE_INJECT_NAME "libgapscope_inject.so"
#endif

std::string firstExisting(const std::vector<fs::path>& paths, const std::string& what, const char* envVar,
                          std::string* error) {
  std::string looked;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::exists(p, ec)) return fs::absolute(p, ec).lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + p.string();
  }
  *error = what + " was not found (looked in: " + looked + "); set " + envVar + " to its path";
  return {};
}

const char* orNull(const char* s) { return s && *s ? s : nullptr; }

}  // namespace

std::string findInjectionLibrary(std::string* error) {
#if !GAPSCOPE_GPU_HAVE_CUDA_MODULE
  *error = "this gapscope was built without the CUDA toolkit, so it has no injection library to record a program with";
  return {};
#else
  auto paths = detail::installedFileCandidates("GAPSCOPE_INJECT_LIBRARY", GAPSCOPE_INJECT_NAME,
                                               orNull(GAPSCOPE_INJECT_INSTALL_PATH), orNull(GAPSCOPE_INJECT_BUILD_PATH));
  return firstExisting(paths, "the injection library " GAPSCOPE_INJECT_NAME, "GAPSCOPE_INJECT_LIBRARY", error);
#endif
}

std::string findTorchOpsDir(std::string* error) {
  auto paths = detail::installedFileCandidates("GAPSCOPE_SITECUSTOMIZE", "python/sitecustomize.py",
                                               orNull(GAPSCOPE_TORCH_OPS_INSTALL_FILE), orNull(GAPSCOPE_TORCH_OPS_SOURCE_FILE));
  std::string file = firstExisting(paths, "the torch-ops sitecustomize.py", "GAPSCOPE_SITECUSTOMIZE", error);
  return file.empty() ? file : fs::path(file).parent_path().string();
}

}  // namespace gapscope::gpu
