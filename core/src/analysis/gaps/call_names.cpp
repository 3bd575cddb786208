// Names of CUDA runtime/driver calls and of the analysis' enums.
#include <string_view>

#include "gapscope/analysis/gaps.h"

namespace gapscope::analysis {
namespace {

// "cudaMemcpyAsync_v3020" and "cudaLaunchKernel_ptsz" are the same entry
// points as their bare names: CUDA API names have no other underscore.
std::string_view baseName(std::string_view name) {
  auto cut = name.find('_');
  return cut == std::string_view::npos ? name : name.substr(0, cut);
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isAnyOf(std::string_view s, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (s == n) return true;
  return false;
}

bool isMemcpyName(std::string_view base) {
  return startsWith(base, "cudaMemcpy") || startsWith(base, "cuMemcpy");
}

bool isMemsetName(std::string_view base) {
  return startsWith(base, "cudaMemset") || startsWith(base, "cuMemset");
}

}  // namespace

LaunchKind launchKindForName(std::string_view callName) {
  std::string_view base = baseName(callName);
  if (isAnyOf(base, {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchKernelEx",
                     "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernelMultiDevice"}))
    return LaunchKind::Kernel;
  if (isAnyOf(base, {"cuLaunchKernel", "cuLaunchKernelEx", "cuLaunchCooperativeKernel",
                     "cuLaunchCooperativeKernelMultiDevice", "cuLaunchGrid", "cuLaunchGridAsync"}))
    return LaunchKind::DriverKernel;
  if (isAnyOf(base, {"cudaGraphLaunch", "cuGraphLaunch"})) return LaunchKind::Graph;
  if (isMemcpyName(base)) return LaunchKind::Memcpy;
  if (isMemsetName(base)) return LaunchKind::Memset;
  return LaunchKind::None;
}

bool isMemoryManagementCall(std::string_view callName) {
  const std::string_view base = baseName(callName);
  if (endsWith(base, "Async")) return false;
  for (std::string_view prefix : {"cudaMalloc", "cudaFree", "cudaHostAlloc", "cuMemAlloc", "cuMemFree", "cuMemHostAlloc"}) {
    if (startsWith(base, prefix)) return true;
  }
  return false;
}

SyncKind syncKindForName(std::string_view callName) {
  std::string_view base = baseName(callName);
  if (isAnyOf(base, {"cudaDeviceSynchronize", "cudaThreadSynchronize", "cuCtxSynchronize"}))
    return SyncKind::Device;
  if (isAnyOf(base, {"cudaStreamSynchronize", "cuStreamSynchronize"})) return SyncKind::Stream;
  if (isAnyOf(base, {"cudaEventSynchronize", "cuEventSynchronize"})) return SyncKind::Event;
  if (isAnyOf(base, {"cudaStreamWaitEvent", "cuStreamWaitEvent"})) return SyncKind::StreamWaitEvent;
  // cudaMemcpy without "Async" returns only when the copy is done (pageable
  // host memory makes even some Async copies synchronous, but the trace
  // cannot tell, so only the named synchronous forms count).
  if (isMemcpyName(base) && !endsWith(base, "Async")) return SyncKind::Memcpy;
  return SyncKind::None;
}

const char* gapCauseName(GapCause cause) {
  switch (cause) {
    case GapCause::LaunchOverhead: return "launch_overhead";
    case GapCause::Synchronization: return "synchronization";
    case GapCause::Queued: return "queued";
    case GapCause::Other: return "other";
  }
  return "other";
}

const char* gapCauseLabel(GapCause cause) {
  switch (cause) {
    case GapCause::LaunchOverhead: return "launch overhead";
    case GapCause::Synchronization: return "synchronisation";
    case GapCause::Queued: return "queued";
    case GapCause::Other: return "other";
  }
  return "other";
}

const char* htaIdleKindName(HtaIdleKind kind) {
  switch (kind) {
    case HtaIdleKind::HostWait: return "host_wait";
    case HtaIdleKind::KernelWait: return "kernel_wait";
    case HtaIdleKind::Other: return "other";
  }
  return "other";
}

const char* launchKindName(LaunchKind kind) {
  switch (kind) {
    case LaunchKind::None: return "other";
    case LaunchKind::Kernel: return "kernel";
    case LaunchKind::DriverKernel: return "driver_kernel";
    case LaunchKind::Graph: return "graph";
    case LaunchKind::Memcpy: return "memcpy";
    case LaunchKind::Memset: return "memset";
  }
  return "other";
}

const char* verdictKindName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::NoGpuActivity: return "no_gpu_activity";
    case VerdictKind::GpuBound: return "gpu_bound";
    case VerdictKind::LaunchOverheadBound: return "launch_overhead_bound";
    case VerdictKind::SynchronizationBound: return "synchronization_bound";
    case VerdictKind::QueueBound: return "queue_bound";
    case VerdictKind::UnexplainedIdle: return "unexplained_idle";
  }
  return "no_gpu_activity";
}

}  // namespace gapscope::analysis
