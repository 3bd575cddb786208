// Locating libgapscope_gpu_cuda.so (and, through installedFileCandidates,
// the injection library): $GAPSCOPE_GPU_MODULE, then beside the executable
// and in ../lib/gapscope (a relocated install), then the configured install
// directory, then the build tree.
#include "backend_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace gapscope::gpu::detail {

namespace {

namespace fs = std::filesystem;

#ifndef GAPSCOPE_GPU_MODULE_NAME
#define GAPSCOPE_GPU_MODULE_NAME "libgapscope_gpu_cuda.so"
#endif

#if GAPSCOPE_GPU_HAVE_CUDA_MODULE
std::vector<fs::path> candidatePaths() {
  return installedFileCandidates("GAPSCOPE_GPU_MODULE", GAPSCOPE_GPU_MODULE_NAME,
#ifdef GAPSCOPE_GPU_MODULE_INSTALL_PATH
                                 GAPSCOPE_GPU_MODULE_INSTALL_PATH,
#else
                                 nullptr,
#endif
#ifdef GAPSCOPE_GPU_MODULE_BUILD_PATH
                                 GAPSCOPE_GPU_MODULE_BUILD_PATH
#else
                                 nullptr
#endif
  );
}
#endif

LoadedBackend load() {
  LoadedBackend b;
#if !GAPSCOPE_GPU_HAVE_CUDA_MODULE
  b.why = Unavailable::BuiltWithoutCuda;
  b.error = "this gapscope was built without the CUDA toolkit, so it cannot record "
            "(rebuild with CUDA 13 or newer installed to enable the recorder)";
  return b;
#else
  std::string looked;
  for (const fs::path& p : candidatePaths()) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      looked += (looked.empty() ? "" : ", ") + p.string();
      continue;
    }
    b.path = p.string();
    dlerror();
    void* handle = dlopen(b.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* err = dlerror();
      b.why = Unavailable::BackendMissing;
      b.error = std::string("the CUDA recorder module could not be loaded (") + (err ? err : "unknown error") +
                "); install the CUDA runtime libraries (CUPTI, cuBLAS) or add them to LD_LIBRARY_PATH";
      return b;
    }
    auto entry = reinterpret_cast<GapscopeGpuBackendEntry>(dlsym(handle, kBackendEntryPoint));
    const BackendApi* api = entry ? entry() : nullptr;
    if (!api || api->abi != kBackendAbi || api->resultSize != sizeof(BackendResult) ||
        api->optionsSize != sizeof(ResolvedOptions) || !api->probe || !api->run || !api->describeDevices) {
      b.why = Unavailable::BackendMissing;
      b.error = "the CUDA recorder module " + b.path +
                " does not match this gapscope build (rebuild or reinstall both together)";
      dlclose(handle);
      return b;
    }
    // Never dlclose a loaded module: CUPTI and cuBLAS keep threads and
    // callbacks pointing into it for the life of the process.
    b.api = api;
    return b;
  }
  b.why = Unavailable::BackendMissing;
  b.error = "the CUDA recorder module " GAPSCOPE_GPU_MODULE_NAME " was not found (looked in: " + looked +
            "); set GAPSCOPE_GPU_MODULE to its path";
  return b;
#endif
}

}  // namespace

std::vector<fs::path> installedFileCandidates(const char* envVar, const std::string& fileName,
                                              const char* installPath, const char* buildPath) {
  std::vector<fs::path> paths;
  if (const char* env = std::getenv(envVar); env && *env) paths.emplace_back(env);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    paths.push_back(exe.parent_path() / fileName);
    paths.push_back(exe.parent_path() / ".." / "lib" / "gapscope" / fileName);
  }
  if (installPath) paths.emplace_back(installPath);
  if (buildPath) paths.emplace_back(buildPath);
  return paths;
}

const LoadedBackend& loadBackend() {
  static const LoadedBackend backend = load();
  return backend;
}

}  // namespace gapscope::gpu::detail
