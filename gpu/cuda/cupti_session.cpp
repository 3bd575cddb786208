#include "cupti_session.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "activity_parse.h"
#include "cuda_check.h"

namespace gapscope::gpu::cuda {

namespace {

// CUPTI calls the buffer callbacks from its own threads, with no user data
// pointer, so the active session is global, guarded by this mutex.
std::mutex gMutex;
CuptiSession* gActive = nullptr;

constexpr std::size_t kAlign = 8;  // CUPTI requires 8-byte aligned buffers

void CUPTIAPI onBufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
  CuptiSession::requestBuffer(buffer, size, maxNumRecords);
}

void CUPTIAPI onBufferCompleted(CUcontext ctx, uint32_t streamId, uint8_t* buffer, size_t size,
                                size_t validSize) {
  CuptiSession::completeBuffer(ctx, streamId, buffer, size, validSize);
}

}  // namespace

CuptiSession::CuptiSession(std::size_t poolBytes)
    : maxBuffers_(std::max<std::size_t>(2, poolBytes / kBufferBytes)) {}

CuptiSession::~CuptiSession() {
  if (started_) {
    try {
      stop();
    } catch (const CudaFailure&) {
      // Already failing; the first error is the one reported.
    }
  }
  std::lock_guard lock(gMutex);
  if (gActive == this) gActive = nullptr;
  // Buffers still held by CUPTI (none after a forced flush) are freed by
  // completeBuffer when they come back; only ours are freed here.
  for (std::uint8_t* b : free_) std::free(b);
}

std::uint64_t CuptiSession::timestamp() {
  std::uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

void CuptiSession::start() {
  {
    std::lock_guard lock(gMutex);
    if (gActive) throw CudaFailure("a CUPTI session is already active in this process");
    gActive = this;
  }
  // System thread ids (gettid), so API records land on the same lane as the
  // host ranges of the thread that made the calls.
  GS_CHECK(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
  GS_CHECK(cuptiActivityRegisterCallbacks(onBufferRequested, onBufferCompleted));
  started_ = true;
  for (const ActivityKind& k : recordedActivityKinds()) {
    CUptiResult r = cuptiActivityEnable(k.kind);
    if (r != CUPTI_SUCCESS) {
      throw CudaFailure(std::string("cuptiActivityEnable(") + k.name + ") failed: " + cuptiResultText(r),
                        r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    }
    enabledKinds_.push_back(k.kind);
  }
  applyApiRecording(apiRecordingFromEnvironment());
}

void CuptiSession::keepFromNow() {
  GS_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  // After a flush CUPTI asks for a fresh buffer at the next API call and
  // spends hundreds of microseconds preparing it ("Activity Buffer Request"
  // overhead, seen on an H200). One harmless call here takes that cost
  // before the recorded steps; its record falls before keepFrom_.
  int version = 0;
  cudaRuntimeGetVersion(&version);
  std::uint64_t now = timestamp();
  std::lock_guard lock(gMutex);
  keep_ = true;
  keepFrom_ = now;
}

void CuptiSession::stop() {
  if (!started_) return;
  started_ = false;
  CUptiResult flush = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (int k : enabledKinds_) cuptiActivityDisable(static_cast<CUpti_ActivityKind>(k));
  enabledKinds_.clear();
  // Again after disabling: whatever was still being written is delivered too.
  if (flush == CUPTI_SUCCESS) flush = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  throwIfFailed(flush, "cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)");
}

std::uint8_t* CuptiSession::takeBuffer() {
  std::uint8_t* b = nullptr;
  if (!free_.empty()) {
    b = free_.back();
    free_.pop_back();
  } else if (all_.size() < maxBuffers_) {
    b = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, kBufferBytes));
    if (b) all_.push_back(b);
  }
  if (!b) {
    ++refused_;
    return nullptr;
  }
  ++inUse_;
  peakBuffers_ = std::max(peakBuffers_, inUse_);
  return b;
}

void CuptiSession::giveBack(std::uint8_t* buffer) {
  --inUse_;
  free_.push_back(buffer);
}

void CuptiSession::requestBuffer(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords) {
  std::lock_guard lock(gMutex);
  *maxRecords = 0;  // as many as fit
  *buffer = gActive ? gActive->takeBuffer() : nullptr;
  // A null buffer makes CUPTI drop records (counted per context and stream).
  *size = *buffer ? kBufferBytes : 0;
}

void CuptiSession::completeBuffer(void* context, std::uint32_t streamId, std::uint8_t* buffer,
                                  std::size_t, std::size_t validSize) {
  std::lock_guard lock(gMutex);
  if (!gActive || std::find(gActive->all_.begin(), gActive->all_.end(), buffer) == gActive->all_.end()) {
    std::free(buffer);  // outlived its session
    return;
  }
  gActive->parseBuffer(buffer, validSize);
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(static_cast<CUcontext>(context), streamId, &dropped) == CUPTI_SUCCESS)
    gActive->dropped_ += dropped;
  gActive->giveBack(buffer);
}

void CuptiSession::parseBuffer(std::uint8_t* buffer, std::size_t validSize) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    if (keep_) appendActivity(*record, keepFrom_, records_);
  }
}

}  // namespace gapscope::gpu::cuda
