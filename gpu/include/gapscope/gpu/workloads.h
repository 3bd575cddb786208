// The bundled GPU workloads: CUDA C++ programs that reproduce the classic
// lessons of GPU profiling (launch overhead, fusion, CUDA graphs, host
// synchronisation). This registry is plain data, available in every build
// (also without CUDA), so front-ends can list and validate workloads before
// asking whether recording is possible at all.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gapscope::gpu {

struct WorkloadInfo {
  std::string name;         // e.g. "matmul_add"
  std::string description;  // one line, no trailing period
  // Allowed --variant values; the first is the default. Never empty.
  std::vector<std::string> variants;
  std::string sizeMeaning;  // what --size means, e.g. "matrix side N (N x N)"
  int defaultSize = 0;
  int minSize = 0;
  int maxSize = 0;
  int defaultSteps = 0;   // recorded steps
  int warmupSteps = 0;    // run before recording starts
};

// All workloads, in a stable display order.
const std::vector<WorkloadInfo>& workloads();

// nullptr when no workload has that name.
const WorkloadInfo* findWorkload(std::string_view name);

}  // namespace gapscope::gpu
