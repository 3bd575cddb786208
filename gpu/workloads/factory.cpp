#include "cuda_check.h"
#include "workload.h"

namespace gapscope::gpu::cuda {

std::unique_ptr<Workload> makeWorkload(const std::string& name, const WorkloadSpec& spec) {
  if (name == "matmul_add") return makeMatmulAdd(spec);
  if (name == "linear") return makeLinear(spec);
  if (name == "mlp") return makeMlp(spec);
  if (name == "split_stack") return makeSplitStack(spec);
  if (name == "combined") return makeCombined(spec);
  if (name == "split_stack_graph") return makeSplitStackGraph(spec);
  if (name == "square") return makeSquare(spec);
  if (name == "sync_every_step") return makeSyncEveryStep(spec);
  throw CudaFailure("the CUDA module has no workload '" + name + "'");
}

}  // namespace gapscope::gpu::cuda
