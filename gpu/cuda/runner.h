#pragma once

#include <atomic>

#include "backend_api.h"

namespace gapscope::gpu::cuda {

using detail::ResolvedOptions;

// Never throws: failures land in out.error, naming the call that failed.
void runWorkload(const ResolvedOptions& options, const ProgressCallback& progress,
                 const std::atomic<bool>* cancel, detail::BackendResult& out);

}  // namespace gapscope::gpu::cuda
