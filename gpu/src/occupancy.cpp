// Estimated achieved occupancy of a kernel launch, as Kineto reports it
// ("est. achieved occupancy %"): the warps the grid puts on each SM, capped
// by how many blocks one SM can hold at once, over the SM's warp capacity.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu {

namespace {

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int32_t>::max();
// Registers are allocated per warp in units of 256 on every architecture
// since Maxwell (CUDA occupancy calculator, "register allocation unit size").
constexpr std::int64_t kRegisterAllocationUnit = 256;

std::int64_t roundUp(std::int64_t v, std::int64_t unit) { return (v + unit - 1) / unit * unit; }

std::int64_t blocksLimitedByRegisters(const DeviceInfo& d, const KernelRecord& k,
                                      std::int64_t threads, std::int64_t warpsPerBlock) {
  if (k.registersPerThread <= 0 || d.regsPerMultiprocessor <= 0) return kNoLimit;
  if (d.regsPerBlock > 0 && std::int64_t{k.registersPerThread} * threads > d.regsPerBlock) return 0;
  std::int64_t regsPerWarp = roundUp(std::int64_t{k.registersPerThread} * d.warpSize, kRegisterAllocationUnit);
  std::int64_t warps = d.regsPerMultiprocessor / regsPerWarp;
  return warps / warpsPerBlock;
}

std::int64_t blocksLimitedBySharedMemory(const DeviceInfo& d, const KernelRecord& k) {
  std::int64_t perBlock = std::int64_t{k.staticSharedMemory} + k.dynamicSharedMemory;
  if (perBlock <= 0 || d.sharedMemPerMultiprocessor <= 0) return kNoLimit;
  std::int64_t blockLimit = d.sharedMemPerBlockOptin > 0 ? d.sharedMemPerBlockOptin : d.sharedMemPerBlock;
  if (blockLimit > 0 && perBlock > blockLimit) return 0;
  return d.sharedMemPerMultiprocessor / (perBlock + d.reservedSharedMemPerBlock);
}

}  // namespace

OccupancyEstimate estimateOccupancy(const DeviceInfo& d, const KernelRecord& k) {
  OccupancyEstimate est;
  std::int64_t threads = std::int64_t{k.block[0]} * k.block[1] * k.block[2];
  std::int64_t blocks = std::int64_t{k.grid[0]} * k.grid[1] * k.grid[2];
  if (threads <= 0 || blocks <= 0 || d.numSms <= 0 || d.warpSize <= 0) return est;
  std::int64_t warpsPerBlock = (threads + d.warpSize - 1) / d.warpSize;
  est.blocksPerSm = static_cast<float>(static_cast<double>(blocks) / d.numSms);
  est.warpsPerSm = static_cast<float>(static_cast<double>(blocks * warpsPerBlock) / d.numSms);
  std::int64_t maxWarps = d.maxThreadsPerMultiprocessor / d.warpSize;
  if (maxWarps <= 0) return est;

  std::int64_t resident = maxWarps / warpsPerBlock;
  if (d.maxBlocksPerMultiprocessor > 0) resident = std::min<std::int64_t>(resident, d.maxBlocksPerMultiprocessor);
  resident = std::min(resident, blocksLimitedByRegisters(d, k, threads, warpsPerBlock));
  resident = std::min(resident, blocksLimitedBySharedMemory(d, k));
  est.theoreticalBlocksPerSm = static_cast<std::int32_t>(resident);

  double activeWarps = std::min<double>(est.warpsPerSm, static_cast<double>(resident * warpsPerBlock));
  // Kineto reports a whole percentage, truncated.
  est.occupancyPct = static_cast<float>(static_cast<std::int64_t>(activeWarps * 100.0 / maxWarps));
  return est;
}

}  // namespace gapscope::gpu
