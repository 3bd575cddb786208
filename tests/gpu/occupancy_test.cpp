// The occupancy estimate against what Kineto wrote for the same launches on
// an H200 (tests/data/h200/split_stack_eager.json).
#include <gtest/gtest.h>

#include "gapscope/gpu/records.h"
#include "records_fixture.h"

using namespace gapscope::gpu;

namespace {

KernelRecord launch(int gx, int gy, int bx, int regs, int smem) {
  KernelRecord k;
  k.grid[0] = gx;
  k.grid[1] = gy;
  k.grid[2] = 1;
  k.block[0] = bx;
  k.block[1] = k.block[2] = 1;
  k.registersPerThread = regs;
  k.staticSharedMemory = smem;
  return k;
}

}  // namespace

TEST(Occupancy, LayerNormLaunchMatchesKineto) {
  // vectorized_layer_norm_kernel: grid [64,1,1], block [32,4,1], 39 registers.
  KernelRecord k = launch(64, 1, 32, 39, 24);
  k.block[1] = 4;
  OccupancyEstimate e = estimateOccupancy(fixture::h200(), k);
  EXPECT_NEAR(e.blocksPerSm, 0.484848, 1e-6);
  EXPECT_NEAR(e.warpsPerSm, 1.939394, 1e-6);
  EXPECT_EQ(e.occupancyPct, 3.f);
}

TEST(Occupancy, BatchedCopyMatchesKineto) {
  // CatArrayBatchedCopy: grid [64,16,1], block [128,1,1], 16 registers: 48%.
  OccupancyEstimate e = estimateOccupancy(fixture::h200(), launch(64, 16, 128, 16, 0));
  EXPECT_NEAR(e.warpsPerSm, 31.030304, 1e-5);
  EXPECT_EQ(e.occupancyPct, 48.f);
}

TEST(Occupancy, CappedByWhatOneSmHolds) {
  // 1024 threads x 64 registers: 64K registers per block, one block per SM
  // (32 warps of 64): a huge grid still reaches only 50%.
  OccupancyEstimate e = estimateOccupancy(fixture::h200(), launch(100000, 1, 1024, 64, 0));
  EXPECT_EQ(e.theoreticalBlocksPerSm, 1);
  EXPECT_EQ(e.occupancyPct, 50.f);
  // 100 KB of shared memory per block: two blocks per SM.
  e = estimateOccupancy(fixture::h200(), launch(100000, 1, 128, 32, 100 * 1024));
  EXPECT_EQ(e.theoreticalBlocksPerSm, 2);
  EXPECT_EQ(e.occupancyPct, 12.f);
}

TEST(Occupancy, ImpossibleLaunchesAndUnknownsAreZeroOrUnknown) {
  // More shared memory than a block may have: nothing fits.
  OccupancyEstimate e = estimateOccupancy(fixture::h200(), launch(10, 1, 128, 32, 300 * 1024));
  EXPECT_EQ(e.theoreticalBlocksPerSm, 0);
  EXPECT_EQ(e.occupancyPct, 0.f);
  // No launch configuration (records without one): unknown, never a crash.
  e = estimateOccupancy(fixture::h200(), KernelRecord{});
  EXPECT_EQ(e.occupancyPct, -1.f);
  e = estimateOccupancy(DeviceInfo{}, launch(1, 1, 32, 8, 0));
  EXPECT_EQ(e.occupancyPct, -1.f);
}
