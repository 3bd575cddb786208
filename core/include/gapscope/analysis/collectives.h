// What a collective communication is, for every analysis that asks.
//   collective name  "nccl" or "gloo" in it, in any case: the GPU kernels
//                    (ncclDevKernel_AllReduce_Sum_f32_RING_LL), NCCL's API
//                    ranges, c10d's operators. What the ranks count.
//   collective call  a CPU range that is one: NCCL's API ranges ("nccl"
//                    then a capital: ncclAllReduce, which `record` keeps as
//                    user annotations) and c10d's per-backend names
//                    (nccl:all_reduce, gloo:broadcast, ucc:..., mpi:...).
//                    Never an iteration marker (steps.h); narrower than a
//                    name, so a user's "bench_nccl_iter" range still is one.
#pragma once

#include <string_view>

namespace gapscope::analysis {

bool isCollectiveName(std::string_view name);
bool isCollectiveCall(std::string_view name);

}  // namespace gapscope::analysis
