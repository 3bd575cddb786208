// CUPTI activity tracing inside the recorded process. Buffers come from a
// bounded pool; a completed buffer is parsed (activity_parse.h), encoded as
// frames and offered to the channel, then reused at once. When the pool is
// empty CUPTI drops records and counts them; when the channel is full it
// refuses them and counts them: both counts reach the recorder.
#include <cupti.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "activity_parse.h"
#include "gapscope/gpu/wire.h"
#include "session.h"

namespace gapscope::gpu::inject {

namespace {

using cuda::ActivityKind;
using cuda::appendActivity;
using cuda::recordedActivityKinds;

// CUPTI's buffers: small so records reach the recorder (and a live view)
// soon; GAPSCOPE_RECORD_BUFFER_BYTES (64 KiB .. 64 MiB) sets another size.
std::size_t bufferBytes() {
  static const std::size_t bytes = [] {
    const char* v = std::getenv("GAPSCOPE_RECORD_BUFFER_BYTES");
    const unsigned long long n = v ? std::strtoull(v, nullptr, 10) : 0;
    if (n < (std::size_t{64} << 10) || n > (std::size_t{64} << 20)) return std::size_t{1} << 20;
    return static_cast<std::size_t>(n) & ~std::size_t{7};
  }();
  return bytes;
}
constexpr std::size_t kAlign = 8;
constexpr auto kFlushPeriod = std::chrono::milliseconds(500);

struct Stream {
  Session* session = nullptr;
  std::mutex poolMutex;
  std::vector<std::uint8_t*> free;
  std::size_t allocated = 0;
  std::size_t maxBuffers = 0;
  std::atomic<std::uint64_t> cuptiDropped{0};
  std::uint64_t statsSent[2] = {0, 0};
  std::mutex flushMutex;
  std::thread flusher;
  std::mutex stopMutex;
  std::condition_variable stopWake;
  bool stopping = false;
  bool enabled = false;
  CUpti_SubscriberHandle subscriber = nullptr;
};

// Never destroyed: CUPTI may hand back buffers while the process exits,
// after static destructors ran (seen as SIGSEGV at exit on the device).
Stream& gStream = *new Stream;

void CUPTIAPI onBufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
  *maxNumRecords = 0;
  std::uint8_t* b = nullptr;
  {
    std::lock_guard lock(gStream.poolMutex);
    if (!gStream.free.empty()) {
      b = gStream.free.back();
      gStream.free.pop_back();
    } else if (gStream.allocated < gStream.maxBuffers) {
      b = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, bufferBytes()));
      if (b) ++gStream.allocated;
    }
  }
  *buffer = b;  // null: CUPTI drops records and counts them
  *size = b ? bufferBytes() : 0;
}

void giveBack(std::uint8_t* buffer) {
  std::lock_guard lock(gStream.poolMutex);
  gStream.free.push_back(buffer);
}

void CUPTIAPI onBufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t, size_t validSize) {
  if (!gStream.session || gStream.session->stopped()) return giveBack(buffer);  // recording is over
  RecordSet records;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) appendActivity(*record, 0, records);
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, streamId, &dropped) == CUPTI_SUCCESS) gStream.cuptiDropped += dropped;
  giveBack(buffer);
  std::string frames;
  std::uint64_t n = wire::encodeRecords(frames, records);
  if (n > 0) gStream.session->channel().tryPush(std::move(frames), n);
}

// Capture range cudaProfilerApi: cudaProfilerStart/Stop (and the driver's).
void CUPTIAPI onApiCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  bool start = (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000) ||
               (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
  if (start && info->callbackSite == CUPTI_API_ENTER) gStream.session->mark(true, Session::now());
  if (!start && info->callbackSite == CUPTI_API_EXIT) gStream.session->mark(false, Session::now());
}

bool subscribeProfilerApi(std::string* error) {
  CUptiResult r = cuptiSubscribe(&gStream.subscriber, reinterpret_cast<CUpti_CallbackFunc>(onApiCallback), nullptr);
  if (r != CUPTI_SUCCESS) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    *error = std::string("--capture-range cudaProfilerApi needs a CUPTI callback subscriber: cuptiSubscribe failed: ") +
             (text ? text : "?");
    return false;
  }
  cuptiEnableCallback(1, gStream.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
  cuptiEnableCallback(1, gStream.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
  cuptiEnableCallback(1, gStream.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
  cuptiEnableCallback(1, gStream.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
  return true;
}

// The drop counts, when they changed. Devices are described by the
// recorder (localDevices()), so the recorded program never calls the CUDA
// runtime for us: doing so at exit was a suspect of the crashes at exit
// seen on the device.
void sendStats(Session& s) {
  wire::ChannelStats stats{gStream.cuptiDropped.load(), s.channel().droppedRecords()};
  if (stats.cuptiDropped == gStream.statsSent[0] && stats.channelDropped == gStream.statsSent[1]) return;
  std::string frame;
  wire::encode(frame, stats);
  gStream.statsSent[0] = stats.cuptiDropped;
  gStream.statsSent[1] = stats.channelDropped;
  s.channel().pushControl(std::move(frame));
}

void disableActivities() {
  for (const ActivityKind& k : recordedActivityKinds()) cuptiActivityDisable(k.kind);
}

void flushLoop(Session* s) {
  std::unique_lock lock(gStream.stopMutex);
  while (!gStream.stopWake.wait_for(lock, kFlushPeriod, [] { return gStream.stopping; })) {
    lock.unlock();
    if (s->stopped()) {  // the recorder stopped: trace no more
      std::lock_guard flush(gStream.flushMutex);
      if (gStream.enabled) disableActivities();
      gStream.enabled = false;
      lock.lock();
      return;
    }
    flushActivityStream(*s, false);
    lock.lock();
  }
}

}  // namespace

bool startActivityStream(Session& s, std::string* error) {
  gStream.session = &s;
  gStream.maxBuffers = std::max<std::size_t>(2, s.poolBytes() / bufferBytes());
  auto fail = [error](const char* call, CUptiResult r) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    *error = std::string(call) + " failed: " + (text ? text : "?");
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
      *error += " (GPU profiling is restricted to administrators on this machine)";
    return false;
  };
  if (CUptiResult r = cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); r != CUPTI_SUCCESS)
    return fail("cuptiSetThreadIdType", r);
  if (CUptiResult r = cuptiActivityRegisterCallbacks(onBufferRequested, onBufferCompleted); r != CUPTI_SUCCESS)
    return fail("cuptiActivityRegisterCallbacks", r);
  for (const ActivityKind& k : recordedActivityKinds()) {
    if (CUptiResult r = cuptiActivityEnable(k.kind); r != CUPTI_SUCCESS) return fail(k.name, r);
  }
  cuda::applyApiRecording(cuda::apiRecordingFromEnvironment());
  gStream.enabled = true;
  if (s.captureProfilerApi()) {
    std::string subscribeError;
    if (!subscribeProfilerApi(&subscribeError)) s.note(subscribeError);
  }
  gStream.flusher = std::thread(flushLoop, &s);
  return true;
}

void flushActivityStream(Session& s, bool final) {
  std::lock_guard lock(gStream.flushMutex);
  if (gStream.enabled) cuptiActivityFlushAll(final ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
  flushNvtxBatches();
  sendStats(s);
}

void stopActivityStream() {
  {
    std::lock_guard lock(gStream.stopMutex);
    gStream.stopping = true;
  }
  gStream.stopWake.notify_all();
  if (gStream.flusher.joinable()) gStream.flusher.join();
  std::lock_guard lock(gStream.flushMutex);
  if (gStream.enabled) disableActivities();
  gStream.enabled = false;
}

}  // namespace gapscope::gpu::inject
