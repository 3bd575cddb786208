// The workload registry: what each bundled workload is, for listing and for
// validating options before the CUDA module is asked to run anything.
#include "gapscope/gpu/workloads.h"

namespace gapscope::gpu {

namespace {

std::vector<WorkloadInfo> makeWorkloads() {
  const std::string side = "matrix side N (N x N operands)";
  return {
      {"matmul_add",
       "cuBLAS GEMM then a separate bias-add kernel: two launches per step, overhead bound at "
       "--size 64, compute bound at 8192",
       {"bf16", "fp32"}, side, 64, 64, 8192, 10, 3},
      {"linear",
       "the same GEMM with the bias fused into the cuBLASLt epilogue (BIAS): one kernel where "
       "matmul_add needs two",
       {"bf16", "fp32"}, side, 64, 64, 8192, 10, 3},
      {"mlp",
       "three linear layers (N -> 4N -> 4N -> N, 256 rows, bf16) with GELU between them, "
       "unfused (GEMM, bias, GELU kernels) or fused (cuBLASLt GELU_BIAS epilogue)",
       {"unfused", "fused"}, "model width N", 1024, 64, 4096, 10, 3},
      {"split_stack",
       "16 small LayerNorm + tanh slices launched one by one: many tiny kernels, launch "
       "overhead bound",
       {"fp32"}, "row width N of each 64-row slice", 512, 32, 8192, 10, 3},
      {"combined",
       "the split_stack work as one batched LayerNorm + tanh launch over all 16 slices",
       {"fp32"}, "row width N of each 64-row slice", 512, 32, 8192, 10, 3},
      {"split_stack_graph",
       "the split_stack launches captured once in a CUDA graph and replayed: one launch per step",
       {"fp32"}, "row width N of each 64-row slice", 512, 32, 8192, 10, 3},
      {"square",
       "squaring an N x N fp32 matrix elementwise three ways (naive 2-D kernel, vectorised "
       "kernel, thrust::transform library call) to compare kernel times",
       {"all", "naive", "vectorized", "library"}, side, 4096, 256, 16384, 5, 2},
      {"sync_every_step",
       "small kernels with a host synchronisation after each (a 4-byte device-to-host copy as "
       "tensor.item() does, or a stream sync)",
       {"item", "stream_sync"}, "elements per kernel", 65536, 1024, 1 << 24, 10, 3},
  };
}

}  // namespace

const std::vector<WorkloadInfo>& workloads() {
  static const std::vector<WorkloadInfo> all = makeWorkloads();
  return all;
}

const WorkloadInfo* findWorkload(std::string_view name) {
  for (const auto& w : workloads())
    if (w.name == name) return &w;
  return nullptr;
}

}  // namespace gapscope::gpu
