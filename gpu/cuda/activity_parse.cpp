#include "activity_parse.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace gapscope::gpu::cuda {

namespace {

CopyKind copyKindOf(std::uint8_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return CopyKind::HtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return CopyKind::DtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return CopyKind::HtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return CopyKind::AtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return CopyKind::AtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return CopyKind::AtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return CopyKind::DtoA;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return CopyKind::DtoD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return CopyKind::HtoH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CopyKind::PtoP;
    default: return CopyKind::Unknown;
  }
}

MemoryKind memoryKindOf(unsigned k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return MemoryKind::Pageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return MemoryKind::Pinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return MemoryKind::Device;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return MemoryKind::Array;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return MemoryKind::Managed;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return MemoryKind::DeviceStatic;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return MemoryKind::ManagedStatic;
    default: return MemoryKind::Unknown;
  }
}

SyncKind syncKindOf(CUpti_ActivitySynchronizationType t) {
  switch (t) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE: return SyncKind::EventSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT: return SyncKind::StreamWaitEvent;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE: return SyncKind::StreamSynchronize;
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE: return SyncKind::ContextSynchronize;
    default: return SyncKind::Unknown;
  }
}

// Spelled as Kineto spells them ("Activity Buffer Request").
const char* overheadName(CUpti_ActivityOverheadKind k) {
  switch (k) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "Driver Compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "Buffer Flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "Instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "Resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "Runtime Triggered Module Loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "Lazy Function Loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "Command Buffer Full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "Activity Buffer Request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "UVM Activity Init";
    default: return "Unknown Overhead";
  }
}

// The fields every CUPTI GPU activity record has under the same names.
template <class CuptiActivity>
void copyActivityPlace(const CuptiActivity& a, GpuActivityRecord& r) {
  r.start = a.start;
  r.end = a.end;
  r.deviceId = a.deviceId;
  r.contextId = a.contextId;
  r.streamId = a.streamId;
  r.correlationId = a.correlationId;
}

void appendKernel(const CUpti_ActivityKernel10& k, RecordSet& out) {
  KernelRecord r;
  r.name = demangle(k.name);
  copyActivityPlace(k, r);
  r.grid[0] = k.gridX;
  r.grid[1] = k.gridY;
  r.grid[2] = k.gridZ;
  r.block[0] = k.blockX;
  r.block[1] = k.blockY;
  r.block[2] = k.blockZ;
  r.registersPerThread = k.registersPerThread;
  r.staticSharedMemory = k.staticSharedMemory;
  r.dynamicSharedMemory = k.dynamicSharedMemory;
  r.graphId = k.graphId;
  r.graphNodeId = k.graphNodeId;
  out.kernels.push_back(std::move(r));
}

void appendMemcpy(const CUpti_ActivityMemcpy6& m, RecordSet& out) {
  MemcpyRecord r;
  copyActivityPlace(m, r);
  r.bytes = m.bytes;
  r.copyKind = copyKindOf(m.copyKind);
  r.srcKind = memoryKindOf(m.srcKind);
  r.dstKind = memoryKindOf(m.dstKind);
  r.graphId = m.graphId;
  out.memcpys.push_back(r);
}

void appendMemset(const CUpti_ActivityMemset4& m, RecordSet& out) {
  MemsetRecord r;
  copyActivityPlace(m, r);
  r.bytes = m.bytes;
  r.value = m.value;
  r.memoryKind = memoryKindOf(m.memoryKind);
  r.graphId = m.graphId;
  out.memsets.push_back(r);
}

void appendApi(const CUpti_ActivityAPI& a, bool runtime, RecordSet& out) {
  ApiCallRecord r;
  r.domain = runtime ? ApiDomain::Runtime : ApiDomain::Driver;
  const char* name = nullptr;
  cuptiGetCallbackName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a.cbid, &name);
  r.name = name ? apiNameWithoutVersion(name) : (runtime ? "cudaRuntime#" : "cuDriver#") + std::to_string(a.cbid);
  r.cbid = a.cbid;
  r.start = a.start;
  r.end = a.end;
  r.processId = a.processId;
  r.threadId = a.threadId;
  r.correlationId = a.correlationId;
  r.returnValue = static_cast<std::int32_t>(a.returnValue);
  out.apiCalls.push_back(std::move(r));
}

void appendSync(const CUpti_ActivitySynchronization2& s, RecordSet& out) {
  SyncRecord r;
  r.kind = syncKindOf(s.type);
  r.start = s.start;
  r.end = s.end;
  r.correlationId = s.correlationId;
  r.contextId = s.contextId;
  r.streamId = s.streamId;
  r.eventId = s.cudaEventId;
  out.syncs.push_back(r);
}

void appendOverhead(const CUpti_ActivityOverhead3& o, RecordSet& out) {
  OverheadRecord r;
  r.name = overheadName(o.overheadKind);
  r.start = o.start;
  r.end = o.end;
  if (o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS)
    r.threadId = o.objectId.pt.threadId;
  out.overheads.push_back(std::move(r));
}

template <class T>
std::uint64_t startOf(const CUpti_Activity& a) {
  return reinterpret_cast<const T&>(a).start;
}

}  // namespace

const std::vector<ActivityKind>& recordedActivityKinds() {
  static const std::vector<ActivityKind> kinds = {
      {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"},
      {CUPTI_ACTIVITY_KIND_MEMCPY, "CUPTI_ACTIVITY_KIND_MEMCPY"},
      {CUPTI_ACTIVITY_KIND_MEMSET, "CUPTI_ACTIVITY_KIND_MEMSET"},
      {CUPTI_ACTIVITY_KIND_RUNTIME, "CUPTI_ACTIVITY_KIND_RUNTIME"},
      {CUPTI_ACTIVITY_KIND_DRIVER, "CUPTI_ACTIVITY_KIND_DRIVER"},
      {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"},
      {CUPTI_ACTIVITY_KIND_OVERHEAD, "CUPTI_ACTIVITY_KIND_OVERHEAD"},
  };
  return kinds;
}

std::string apiNameWithoutVersion(const char* name) {
  std::string s(name);
  auto pos = s.rfind("_v");
  if (pos == std::string::npos || s.size() - pos - 2 < 4) return s;
  for (std::size_t i = pos + 2; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return s;
  return s.substr(0, pos);
}

std::string demangle(const char* name) {
  if (!name) return "<unnamed kernel>";
  if (std::strncmp(name, "_Z", 2) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

void appendActivity(const CUpti_Activity& a, std::uint64_t keepFrom, RecordSet& out) {
  // CUPTI hands out the newest version of each record struct.
  switch (a.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      if (startOf<CUpti_ActivityKernel10>(a) >= keepFrom)
        appendKernel(reinterpret_cast<const CUpti_ActivityKernel10&>(a), out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      if (startOf<CUpti_ActivityMemcpy6>(a) >= keepFrom)
        appendMemcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(a), out);
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      if (startOf<CUpti_ActivityMemset4>(a) >= keepFrom)
        appendMemset(reinterpret_cast<const CUpti_ActivityMemset4&>(a), out);
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      if (startOf<CUpti_ActivityAPI>(a) >= keepFrom)
        appendApi(reinterpret_cast<const CUpti_ActivityAPI&>(a), a.kind == CUPTI_ACTIVITY_KIND_RUNTIME, out);
      break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      if (startOf<CUpti_ActivitySynchronization2>(a) >= keepFrom)
        appendSync(reinterpret_cast<const CUpti_ActivitySynchronization2&>(a), out);
      break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      if (startOf<CUpti_ActivityOverhead3>(a) >= keepFrom)
        appendOverhead(reinterpret_cast<const CUpti_ActivityOverhead3&>(a), out);
      break;
    default:
      break;
  }
}

}  // namespace gapscope::gpu::cuda
