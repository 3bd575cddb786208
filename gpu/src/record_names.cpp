// Display names of GPU records, spelled as Kineto spells them so traces from
// both tools group the same way in every table.
#include "gapscope/gpu/records.h"

namespace gapscope::gpu {

namespace {

const char* copyKindName(CopyKind k) {
  switch (k) {
    case CopyKind::HtoD: return "HtoD";
    case CopyKind::DtoH: return "DtoH";
    case CopyKind::HtoA: return "HtoA";
    case CopyKind::AtoH: return "AtoH";
    case CopyKind::AtoA: return "AtoA";
    case CopyKind::AtoD: return "AtoD";
    case CopyKind::DtoA: return "DtoA";
    case CopyKind::DtoD: return "DtoD";
    case CopyKind::HtoH: return "HtoH";
    case CopyKind::PtoP: return "PtoP";
    case CopyKind::Unknown: break;
  }
  return "Unknown";
}

const char* memoryKindName(MemoryKind k) {
  switch (k) {
    case MemoryKind::Pageable: return "Pageable";
    case MemoryKind::Pinned: return "Pinned";
    case MemoryKind::Device: return "Device";
    case MemoryKind::Array: return "Array";
    case MemoryKind::Managed: return "Managed";
    case MemoryKind::DeviceStatic: return "Device Static";
    case MemoryKind::ManagedStatic: return "Managed Static";
    case MemoryKind::Unknown: break;
  }
  return "Unknown";
}

}  // namespace

std::string memcpyName(const MemcpyRecord& m) {
  return std::string("Memcpy ") + copyKindName(m.copyKind) + " (" + memoryKindName(m.srcKind) +
         " -> " + memoryKindName(m.dstKind) + ")";
}

std::string memsetName(const MemsetRecord& m) {
  return std::string("Memset (") + memoryKindName(m.memoryKind) + ")";
}

const char* syncKindName(SyncKind k) {
  switch (k) {
    case SyncKind::EventSynchronize: return "Event Sync";
    case SyncKind::StreamWaitEvent: return "Stream Wait Event";
    case SyncKind::StreamSynchronize: return "Stream Sync";
    case SyncKind::ContextSynchronize: return "Context Sync";
    case SyncKind::Unknown: break;
  }
  return "Unknown Sync";
}

}  // namespace gapscope::gpu
