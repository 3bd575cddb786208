#include "gapscope/model/trace.h"

#include <algorithm>
#include <array>

namespace gapscope {

std::string Trace::argsJson(const ArgsRef& ref) const {
  if (ref.length == 0 || !argsSource) return {};
  return argsSource->fetch(ref);
}

std::string Trace::argsJson(const Slice& s) const { return argsJson(s.args); }

void Trace::forEachArgsInSourceOrder(const std::vector<ArgsRef>& refs,
                                     const std::function<void(std::size_t, const std::string&)>& fn) const {
  if (!argsSource) return;
  std::vector<std::size_t> order;
  order.reserve(refs.size());
  for (std::size_t i = 0; i < refs.size(); ++i)
    if (refs[i].length) order.push_back(i);
  // A .json.gz's offsets are positions in its text, so this order is one
  // forward pass; for the other sources any order is cheap.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return refs[a].offset < refs[b].offset; });
  for (std::size_t i : order) fn(i, argsSource->fetch(refs[i]));
}

std::uint32_t Trace::gpuOpForCorrelation(std::int64_t correlation) const {
  return gpuByCorrelation_.find(correlation);
}

std::uint32_t Trace::launchForCorrelation(std::int64_t correlation) const {
  return launchByCorrelation_.find(correlation);
}

std::size_t Trace::memoryBytes() const {
  std::size_t bytes = strings.memoryBytes();
  bytes += slices.capacity() * sizeof(Slice);
  bytes += tracks.capacity() * sizeof(Track);
  bytes += flows.capacity() * sizeof(Flow);
  bytes += instants.capacity() * sizeof(Instant);
  bytes += kernelInfos.capacity() * sizeof(KernelInfo);
  for (const auto& c : counters) bytes += c.ts.capacity() * (sizeof(TimeNs) + sizeof(double));
  bytes += gpuByCorrelation_.memoryBytes() + launchByCorrelation_.memoryBytes();
  return bytes;
}

SliceKind sliceKindForCategory(std::string_view c) {
  struct Entry {
    std::string_view category;
    SliceKind kind;
  };
  static constexpr std::array<Entry, 16> kTable{{
      {"cpu_op", SliceKind::CpuOp},
      {"Operator", SliceKind::CpuOp},
      {"user_annotation", SliceKind::UserAnnotation},
      {"python_function", SliceKind::PythonFunction},
      {"cuda_runtime", SliceKind::CudaRuntime},
      {"Runtime", SliceKind::CudaRuntime},
      {"cuda_driver", SliceKind::CudaDriver},
      {"kernel", SliceKind::Kernel},
      {"Kernel", SliceKind::Kernel},
      {"gpu_memcpy", SliceKind::Memcpy},
      {"Memcpy", SliceKind::Memcpy},
      {"gpu_memset", SliceKind::Memset},
      {"Memset", SliceKind::Memset},
      {"gpu_user_annotation", SliceKind::GpuUserAnnotation},
      {"cuda_sync", SliceKind::Other},
      {"Trace", SliceKind::Other},
  }};
  for (const auto& e : kTable) {
    if (e.category == c) return e.kind;
  }
  return SliceKind::Other;
}

const char* sliceKindName(SliceKind k) {
  switch (k) {
    case SliceKind::Other: return "other";
    case SliceKind::CpuOp: return "cpu_op";
    case SliceKind::UserAnnotation: return "user_annotation";
    case SliceKind::PythonFunction: return "python_function";
    case SliceKind::CudaRuntime: return "cuda_runtime";
    case SliceKind::CudaDriver: return "cuda_driver";
    case SliceKind::Kernel: return "kernel";
    case SliceKind::Memcpy: return "gpu_memcpy";
    case SliceKind::Memset: return "gpu_memset";
    case SliceKind::GpuUserAnnotation: return "gpu_user_annotation";
    case SliceKind::Async: return "async";
  }
  return "other";
}

bool isLaunchCallName(std::string_view name) {
  // Runtime and driver entry points that enqueue GPU work; "_v2"/"_ptsz"
  // suffixed variants are the same calls.
  static constexpr std::array<std::string_view, 10> kLaunches{
      "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
      "cudaGraphLaunch",  "cudaMemcpyAsync",     "cudaMemsetAsync", "cudaLaunchCooperativeKernel",
      "cuGraphLaunch",    "cudaMemcpy2DAsync"};
  for (auto base : kLaunches) {
    if (name.size() >= base.size() && name.substr(0, base.size()) == base) {
      auto rest = name.substr(base.size());
      if (rest.empty() || rest[0] == '_') return true;
    }
  }
  return false;
}

std::string chromeIdText(const Trace& trace, const ChromeId& id) {
  return id.label != kEmptyString ? std::string(trace.str(id.label)) : std::to_string(id.num);
}

}  // namespace gapscope
