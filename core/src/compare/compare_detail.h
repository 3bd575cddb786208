// Internal parts of compareTraces(), each in its own file: who produced a
// trace, where kernels came from, kernel and operator matching, the
// verdict and the warnings.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gapscope/analysis/kernel_table.h"
#include "gapscope/analysis/ops_table.h"
#include "gapscope/compare/compare.h"
#include "gapscope/model/trace.h"

namespace gapscope::compare::detail {

// A whole-trace time per step of its run (0 for a run without steps).
inline double perStep(TimeNs t, std::uint64_t steps) {
  return steps ? static_cast<double>(t) / static_cast<double>(steps) : 0.0;
}

// "gapscope recorder", "PyTorch profiler (Kineto)" or "Chrome trace".
std::string producerOf(const Trace& trace);

// Where a kernel name's launches came from: the distinct innermost cpu ops
// around its launch calls, and the distinct innermost user annotations
// (not the steps' own annotations), each in order of first appearance.
struct KernelOrigin {
  std::vector<std::string> ops;
  std::vector<std::string> annotations;
};
using KernelOrigins = std::unordered_map<std::string, KernelOrigin>;

// Origins of the GPU activities named in `names` (the others are skipped).
// `stepName` is the repeated step annotation (kEmptyString for none), left
// out of the annotations like ProfilerStep#N.
KernelOrigins kernelOrigins(const Trace& trace, const std::unordered_set<std::string>& names,
                            StringId stepName);

// The operators an Inductor kernel name lists: "triton_poi_fused_add_cat_0"
// -> "add_cat"; "" for any other name.
std::string_view fusedOpList(std::string_view kernelName);
// True when the fused op list names operator `op` ("aten::cat" -> "cat",
// an in-place "aten::add_" -> "add"), as a whole token.
bool fusedListNames(std::string_view opList, std::string_view op);

// One run's side of the kernel matching.
struct KernelSide {
  const analysis::KernelTable* table = nullptr;
  const Trace* trace = nullptr;
  StringId stepName = kEmptyString;
};
// Needs out.runs (rows are sorted by their change per step).
void matchKernels(const KernelSide& a, const KernelSide& b, Comparison& out);

// Operator rows of the CPU side, matched by (name, annotation, shapes).
// Needs out.runs.
void matchOps(const analysis::OpTable& a, const analysis::OpTable& b, Comparison& out);

std::string makeVerdict(const Comparison& c);
std::vector<std::string> makeWarnings(const Comparison& c);

}  // namespace gapscope::compare::detail
