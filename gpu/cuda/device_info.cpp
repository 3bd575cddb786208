#include "device_info.h"

namespace gapscope::gpu::cuda {

DeviceInfo deviceInfoOf(int id, const cudaDeviceProp& p) {
  DeviceInfo d;
  d.id = id;
  d.name = p.name;
  d.computeMajor = p.major;
  d.computeMinor = p.minor;
  d.numSms = p.multiProcessorCount;
  d.warpSize = p.warpSize;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  d.maxThreadsPerMultiprocessor = p.maxThreadsPerMultiProcessor;
  d.maxBlocksPerMultiprocessor = p.maxBlocksPerMultiProcessor;
  d.regsPerBlock = p.regsPerBlock;
  d.regsPerMultiprocessor = p.regsPerMultiprocessor;
  d.sharedMemPerBlock = static_cast<std::int64_t>(p.sharedMemPerBlock);
  d.sharedMemPerBlockOptin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
  d.sharedMemPerMultiprocessor = static_cast<std::int64_t>(p.sharedMemPerMultiprocessor);
  d.reservedSharedMemPerBlock = static_cast<std::int64_t>(p.reservedSharedMemPerBlock);
  d.totalGlobalMem = static_cast<std::int64_t>(p.totalGlobalMem);
  d.l2CacheSize = p.l2CacheSize;
  return d;
}

}  // namespace gapscope::gpu::cuda
