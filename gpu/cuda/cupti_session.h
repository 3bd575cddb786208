// The thin layer over CUPTI's Activity API. One session records kernels,
// memcpys, memsets, runtime and driver calls, synchronisations and CUPTI's
// own overhead into plain records (records.h).
//
// Buffers come from a bounded pool: when every buffer is in CUPTI's hands
// the request is refused, CUPTI drops records and counts them, and the
// session reports that instead of growing without limit. Completed buffers
// are parsed right away and go back to the pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/gpu/records.h"

namespace gapscope::gpu::cuda {

class CuptiSession {
 public:
  explicit CuptiSession(std::size_t poolBytes);
  ~CuptiSession();
  CuptiSession(const CuptiSession&) = delete;
  CuptiSession& operator=(const CuptiSession&) = delete;

  // Registers the buffer callbacks and enables the activity kinds. Records
  // are discarded until keepFromNow().
  void start();
  // Flushes what was recorded so far (warm-up) away; keeps records from now.
  void keepFromNow();
  // Flushes everything and disables the activity kinds.
  void stop();

  // The parsed records (valid after stop()).
  RecordSet& records() { return records_; }
  std::uint64_t droppedRecords() const { return dropped_; }
  std::uint64_t refusedBuffers() const { return refused_; }
  std::size_t peakBufferBytes() const { return peakBuffers_ * kBufferBytes; }
  std::size_t poolBytes() const { return maxBuffers_ * kBufferBytes; }

  static std::uint64_t timestamp();

  // CUPTI's C callbacks; forward to the active session.
  static void requestBuffer(std::uint8_t** buffer, std::size_t* size, std::size_t* maxRecords);
  static void completeBuffer(void* context, std::uint32_t streamId, std::uint8_t* buffer,
                             std::size_t size, std::size_t validSize);

  // CUPTI's documentation suggests 1 to 10 MB per buffer.
  static constexpr std::size_t kBufferBytes = std::size_t{4} << 20;

 private:
  std::uint8_t* takeBuffer();
  void parseBuffer(std::uint8_t* buffer, std::size_t validSize);
  void giveBack(std::uint8_t* buffer);

  std::size_t maxBuffers_;
  std::vector<std::uint8_t*> free_;
  std::vector<std::uint8_t*> all_;
  std::size_t inUse_ = 0;
  std::size_t peakBuffers_ = 0;
  std::uint64_t refused_ = 0;
  std::uint64_t dropped_ = 0;
  bool keep_ = false;
  std::uint64_t keepFrom_ = 0;
  bool started_ = false;
  std::vector<int> enabledKinds_;
  RecordSet records_;
};

}  // namespace gapscope::gpu::cuda
