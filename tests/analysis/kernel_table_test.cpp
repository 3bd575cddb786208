// Kernel table statistics and launch configuration on small built traces.
#include <gtest/gtest.h>

#include <cmath>

#include "gapscope/analysis/kernel_table.h"
#include "trace_maker.h"

namespace gapscope::analysis {
namespace {

using testing::TraceMaker;

KernelInfo config(std::int32_t gridX, std::int32_t blockX, std::int32_t regs, float occupancy) {
  KernelInfo k;
  k.grid[0] = gridX;
  k.grid[1] = k.grid[2] = 1;
  k.block[0] = blockX;
  k.block[1] = k.block[2] = 1;
  k.registersPerThread = regs;
  k.sharedMemory = 1024;
  k.occupancyPct = occupancy;
  return k;
}

const KernelRow& row(const KernelTable& t, const std::string& name) {
  for (const auto& r : t.rows) {
    if (r.name == name) return r;
  }
  throw std::runtime_error("no row " + name);
}

TEST(KernelTable, StatisticsPerName) {
  TraceMaker m;
  m.gpu("gemm", "kernel", 0, 10, 1, 7, 0, config(4, 128, 32, 50));
  m.gpu("gemm", "kernel", 100, 30, 2, 7, 0, config(4, 128, 32, 70));
  m.gpu("gemm", "kernel", 200, 20, 3, 7, 0, config(4, 128, 32, -1));
  m.gpu("relu", "kernel", 300, 40, 4, 7, 0, config(8, 256, 16, 100));
  KernelTable t = buildKernelTable(m.finish());
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.gpuTotal, 100);
  EXPECT_EQ(t.kernelTotal, 100);
  const KernelRow& g = t.rows[0];  // sorted by total
  EXPECT_EQ(g.name, "gemm");
  EXPECT_EQ(g.calls, 3);
  EXPECT_EQ(g.total, 60);
  EXPECT_EQ(g.min, 10);
  EXPECT_EQ(g.max, 30);
  EXPECT_EQ(g.avg(), 20);
  EXPECT_NEAR(g.stdDevNs, std::sqrt(200.0 / 3.0), 1e-9);  // population std dev
  EXPECT_DOUBLE_EQ(g.pctGpu, 60.0);
  EXPECT_EQ(g.grid[0], 4);
  EXPECT_EQ(g.block[0], 128);
  EXPECT_EQ(g.registersPerThread, 32);
  EXPECT_EQ(g.sharedMemory, 1024);
  EXPECT_DOUBLE_EQ(g.occupancyPct, 60.0);  // the call without a value is left out
  EXPECT_FALSE(g.configVaries);
  EXPECT_EQ(row(t, "relu").stdDevNs, 0.0);
}

TEST(KernelTable, VaryingConfigIsFlagged) {
  TraceMaker m;
  m.gpu("k", "kernel", 0, 10, 1, 7, 0, config(4, 128, 32, 50));
  m.gpu("k", "kernel", 100, 10, 2, 7, 0, config(8, 128, 32, 50));
  KernelTable t = buildKernelTable(m.finish());
  EXPECT_TRUE(t.rows[0].configVaries);
  EXPECT_EQ(t.rows[0].grid[0], 4);  // the first call's
}

TEST(KernelTable, MemcpyAndMemsetByKindWithoutConfig) {
  TraceMaker m;
  m.gpu("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 0, 30, 1);
  m.gpu("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 50, 10, 2);
  m.gpu("Memset (Device)", "gpu_memset", 100, 5, 3);
  m.kernel("k", 200, 55, 4);
  m.gpu("annotation", "gpu_user_annotation", 0, 1000);
  KernelTable t = buildKernelTable(m.finish());
  ASSERT_EQ(t.rows.size(), 3u);  // the annotation is no GPU activity
  EXPECT_EQ(t.gpuTotal, 100);
  EXPECT_EQ(t.kernelTotal, 55);
  const KernelRow& copy = row(t, "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(copy.kind, SliceKind::Memcpy);
  EXPECT_EQ(copy.calls, 2);
  EXPECT_EQ(copy.registersPerThread, -1);
  EXPECT_EQ(copy.occupancyPct, -1);
  EXPECT_EQ(row(t, "Memset (Device)").kind, SliceKind::Memset);
}

TEST(KernelTable, SortKeys) {
  EXPECT_EQ(parseKernelSortKey("avg_us"), KernelSortKey::Avg);
  EXPECT_EQ(parseKernelSortKey("std"), KernelSortKey::StdDev);
  EXPECT_FALSE(parseKernelSortKey("self_cpu").has_value());
  TraceMaker m;
  m.kernel("many_short", 0, 1, 1).kernel("many_short", 10, 1, 2).kernel("many_short", 20, 1, 3);
  m.kernel("one_long", 30, 50, 4);
  KernelTable t = buildKernelTable(m.finish());
  sortKernelRows(t.rows, KernelSortKey::Calls);
  EXPECT_EQ(t.rows[0].name, "many_short");
  sortKernelRows(t.rows, KernelSortKey::Max);
  EXPECT_EQ(t.rows[0].name, "one_long");
  sortKernelRows(t.rows, KernelSortKey::Name);
  EXPECT_EQ(t.rows[0].name, "many_short");
}

}  // namespace
}  // namespace gapscope::analysis
