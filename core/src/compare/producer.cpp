// Which tool wrote a trace, from its top-level members: gapscope's recorder
// writes gapscope_* keys, PyTorch's profiler (Kineto) writes schemaVersion
// with trace_id or the CUPTI version.
#include "compare/compare_detail.h"

namespace gapscope::compare::detail {

std::string producerOf(const Trace& trace) {
  bool kineto = false;
  for (const auto& [key, value] : trace.metadata.otherKeys) {
    if (key.rfind("gapscope_", 0) == 0) return "gapscope recorder";
    kineto = kineto || key == "trace_id" || key == "cupti_version" || key == "schemaVersion";
  }
  return kineto ? "PyTorch profiler (Kineto)" : "Chrome trace";
}

}  // namespace gapscope::compare::detail
