// Which CUDA API calls are queries: calls that ask the runtime or driver
// something (a device, an attribute, the last error, whether a stream is
// capturing) and neither give the GPU work nor wait for it. Frameworks make
// several around every launch (PyTorch 2.11: six cudaGetDevice, two
// cuDevicePrimaryCtxGetState, a cudaGetLastError and a cuKernelGetName per
// kernel), and each would cost a CUPTI record on the program's thread, so
// the recorder leaves them out at the source (docs/recording.md).
#pragma once

#include <string_view>

namespace gapscope::gpu {

// `name` as CUPTI spells it, with or without its version suffix
// ("cudaGetDevice_v3020", "cuCtxGetCurrent"). A query when, after the
// "cuda"/"cu" prefix, one of its words is Get or Is (cudaGetLastError,
// cuStreamIsCapturing, cuKernelGetName), it peeks at the last error, or it
// switches the current context (cuCtxSetCurrent, cuCtxPushCurrent,
// cuCtxPopCurrent: bookkeeping the runtime does around its calls).
// Polls that report on GPU work (cudaEventQuery, cudaStreamQuery) are not
// queries in this sense: a program spinning on them is waiting.
bool isApiQuery(std::string_view name);

}  // namespace gapscope::gpu
