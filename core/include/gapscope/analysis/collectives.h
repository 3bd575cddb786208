// What a collective communication is, for every analysis that asks: a
// name with "nccl" or "gloo" in it, in any case. That covers the GPU
// kernels (ncclDevKernel_AllReduce_Sum_f32_RING_LL), NCCL's own API ranges
// (ncclAllReduce, which `record` keeps as user annotations) and c10d's
// operators (nccl:all_reduce, gloo:broadcast).
#pragma once

#include <string_view>

namespace gapscope::analysis {

bool isCollectiveName(std::string_view name);

}  // namespace gapscope::analysis
