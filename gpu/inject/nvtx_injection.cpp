// NVTX ranges of the recorded program, taken by this library itself: NVTX
// loads the library named in NVTX_INJECTION64_PATH and calls
// InitializeInjectionNvtx2, which installs our push/pop/start/end handlers
// in NVTX's function tables (nvtx3/nvtxDetail/nvtxTypes.h describes the
// export table). Each range becomes a HostRange on CUPTI's clock with the
// thread's system id, so it lines up with the API calls of that thread.
// Going through CUPTI's own NVTX support instead gave no PyTorch ranges on
// the device machine (docs/recording.md).
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include <nvtx3/nvToolsExt.h>

#include "gapscope/gpu/wire.h"
#include "session.h"

namespace gapscope::gpu::inject {

namespace {

struct Open {
  std::string name;
  std::uint64_t start = 0;
  bool capture = false;  // the --capture-range nvtx:NAME range
  std::uint32_t tid = 0;
};

// Finished ranges are sent in batches per thread: one channel push per
// 8 KiB (~70 ranges) or 50 ms instead of one per range (PyTorch makes two
// NVTX calls per operator). The activity stream's flusher takes what waits
// in every thread's batch every half second and at exit
// (flushNvtxBatches), so an idle thread's last ranges are not held back.
constexpr std::size_t kBatchBytes = 8 << 10;
constexpr std::uint64_t kBatchNs = 50'000'000;

struct ThreadRanges;
std::mutex gThreadsMutex;
std::vector<ThreadRanges*>& gThreads = *new std::vector<ThreadRanges*>;  // never destroyed (used at exit)

struct ThreadRanges {
  std::uint32_t tid = static_cast<std::uint32_t>(syscall(SYS_gettid));
  std::vector<Open> stack;
  std::mutex batchMutex;  // this thread and the flusher
  std::string batch;
  std::uint64_t batched = 0;
  std::uint64_t batchStart = 0;

  ThreadRanges() {
    std::lock_guard lock(gThreadsMutex);
    gThreads.push_back(this);
  }
  ~ThreadRanges() {
    {
      std::lock_guard lock(gThreadsMutex);
      gThreads.erase(std::find(gThreads.begin(), gThreads.end(), this));
    }
    std::lock_guard lock(batchMutex);
    flushLocked();
  }
  void flushLocked() {
    if (batched == 0) return;
    if (Session* s = Session::get(); s && !s->stopped()) s->channel().tryPush(std::move(batch), batched);
    batch.clear();
    batched = 0;
  }
};

thread_local ThreadRanges tRanges;

// nvtxRangeStart/End ranges may end on another thread: kept by id.
std::mutex gStartEndMutex;
std::vector<std::pair<std::uint64_t, Open>> gStarted;  // (id, range), few at a time
std::uint64_t gNextId = 1;

// Registered strings (nvtxDomainRegisterStringA) live as long as the process.
std::mutex gStringsMutex;
std::deque<std::string> gStrings;

std::string messageOf(const nvtxEventAttributes_t* a) {
  if (!a) return {};
  switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return a->message.ascii ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return a->message.registered ? *reinterpret_cast<const std::string*>(a->message.registered) : "";
    default: return "<non-ASCII NVTX message>";
  }
}

void send(Session& s, const Open& o, std::uint64_t end) {
  HostRange r;
  r.kind = HostRangeKind::Annotation;  // the recorder classifies steps and operators
  r.name = o.name;
  r.start = o.start;
  r.end = end;
  r.threadId = o.tid;
  ThreadRanges& t = tRanges;
  {
    std::lock_guard lock(t.batchMutex);
    if (t.batched == 0) t.batchStart = end;
    wire::encode(t.batch, r);
    ++t.batched;
    if (t.batch.size() >= kBatchBytes || end - t.batchStart >= kBatchNs) t.flushLocked();
  }
  if (o.capture) s.mark(false, end);
}

int push(std::string name) {
  Session* s = Session::get();
  if (!s || s->stopped()) return -1;
  Open o{std::move(name), Session::now(), false, tRanges.tid};
  o.capture = !s->captureNvtxName().empty() && o.name == s->captureNvtxName();
  if (o.capture) s->mark(true, o.start);
  tRanges.stack.push_back(std::move(o));
  return static_cast<int>(tRanges.stack.size()) - 1;
}

int pop() {
  std::uint64_t end = Session::now();
  auto& stack = tRanges.stack;
  if (stack.empty()) return -1;
  Open o = std::move(stack.back());
  stack.pop_back();
  if (Session* s = Session::get(); s && !s->stopped()) send(*s, o, end);
  return static_cast<int>(stack.size());
}

nvtxRangeId_t start(std::string name) {
  Session* s = Session::get();
  if (!s || s->stopped()) return 0;
  std::lock_guard lock(gStartEndMutex);
  std::uint64_t id = gNextId++;
  gStarted.emplace_back(id, Open{std::move(name), Session::now(), false, tRanges.tid});
  return id;
}

void end(nvtxRangeId_t id) {
  std::uint64_t t = Session::now();
  Open o;
  {
    std::lock_guard lock(gStartEndMutex);
    auto it = std::find_if(gStarted.begin(), gStarted.end(), [id](const auto& p) { return p.first == id; });
    if (it == gStarted.end()) return;
    o = std::move(it->second);
    gStarted.erase(it);
  }
  if (Session* s = Session::get(); s && !s->stopped()) send(*s, o, t);
}

int NVTX_API rangePushA(const char* message) { return push(message ? message : ""); }
int NVTX_API rangePushEx(const nvtxEventAttributes_t* a) { return push(messageOf(a)); }
int NVTX_API rangePop() { return pop(); }
nvtxRangeId_t NVTX_API rangeStartA(const char* message) { return start(message ? message : ""); }
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* a) { return start(messageOf(a)); }
void NVTX_API rangeEnd(nvtxRangeId_t id) { end(id); }
int NVTX_API domainRangePushEx(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) { return push(messageOf(a)); }
int NVTX_API domainRangePop(nvtxDomainHandle_t) { return pop(); }
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) { return start(messageOf(a)); }
void NVTX_API domainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id) { end(id); }
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t, const char* s) {
  std::lock_guard lock(gStringsMutex);
  gStrings.emplace_back(s ? s : "");
  return reinterpret_cast<nvtxStringHandle_t>(&gStrings.back());
}
// Domains need a non-null handle; ranges ignore which domain they are in.
nvtxDomainHandle_t NVTX_API domainCreateA(const char*) {
  static int token = 0;
  return reinterpret_cast<nvtxDomainHandle_t>(&token);
}

}  // namespace

void flushNvtxBatches() {
  std::lock_guard lock(gThreadsMutex);
  for (ThreadRanges* t : gThreads) {
    std::lock_guard batch(t->batchMutex);
    t->flushLocked();
  }
}

namespace {

template <class F>
void install(NvtxFunctionTable table, unsigned size, unsigned id, F* fn) {
  if (table && id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

}  // namespace

}  // namespace gapscope::gpu::inject

// Called by NVTX (the first NVTX call in the process) when
// NVTX_INJECTION64_PATH names this library. Returns 1 when it took over.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
  using namespace gapscope::gpu::inject;
  if (!Session::get()) return 0;
  auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
  if (!callbacks || !callbacks->GetModuleFunctionTable) return 0;
  NvtxFunctionTable core = nullptr;
  unsigned coreSize = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &coreSize)) return 0;
  install(core, coreSize, NVTX_CBID_CORE_RangePushA, rangePushA);
  install(core, coreSize, NVTX_CBID_CORE_RangePushEx, rangePushEx);
  install(core, coreSize, NVTX_CBID_CORE_RangePop, rangePop);
  install(core, coreSize, NVTX_CBID_CORE_RangeStartA, rangeStartA);
  install(core, coreSize, NVTX_CBID_CORE_RangeStartEx, rangeStartEx);
  install(core, coreSize, NVTX_CBID_CORE_RangeEnd, rangeEnd);
  NvtxFunctionTable core2 = nullptr;
  unsigned core2Size = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2Size)) {
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePushEx, domainRangePushEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePop, domainRangePop);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeStartEx, domainRangeStartEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeEnd, domainRangeEnd);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringA, domainRegisterStringA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateA, domainCreateA);
  }
  return 1;
}
