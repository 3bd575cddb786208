// The injection library's state inside a recorded process: the connection
// to the recorder (a RecordChannel), the CUPTI activity stream and the NVTX
// ranges. Both entry points (InitializeInjection from the CUDA driver,
// InitializeInjectionNvtx2 from NVTX) start it; whichever comes first
// connects.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "gapscope/gpu/record_channel.h"

namespace gapscope::gpu::inject {

class Session {
 public:
  // The process's session, connected on the first call; null when this
  // process was not started by a recorder (no GAPSCOPE_RECORD_SOCKET) or the
  // recorder cannot be reached.
  static Session* get();

  RecordChannel& channel() { return *channel_; }
  // CUPTI's clock, the one activity records carry.
  static std::uint64_t now();

  bool captureProfilerApi() const { return captureProfilerApi_; }
  const std::string& captureNvtxName() const { return captureNvtxName_; }
  std::size_t poolBytes() const { return poolBytes_; }
  // A capture range opened (true) or closed at `at`.
  void mark(bool open, std::uint64_t at);
  void note(const std::string& text);
  // Recording is over (the recorder closed its end) or the process ends.
  bool stopped() const { return stopped_.load() || channel_->peerGone(); }

  // At exit (or on a terminating signal): the last records, the drop
  // counts, goodbye. Runs once; a second caller waits until it is done.
  void finish();

 private:
  Session() = default;
  bool connect();

  std::unique_ptr<RecordChannel> channel_;
  bool captureProfilerApi_ = false;
  std::string captureNvtxName_;
  std::size_t poolBytes_ = std::size_t{64} << 20;
  std::atomic<bool> stopped_{false};
  std::once_flag finished_;
};

// The CUPTI side (activity_stream.cpp).
bool startActivityStream(Session& s, std::string* error);
// Flushes CUPTI and the NVTX batches, sends the drop counts; `final` forces
// partly filled buffers out too.
void flushActivityStream(Session& s, bool final);
void stopActivityStream();
// Sends the NVTX ranges waiting in every thread's batch (nvtx_injection.cpp).
void flushNvtxBatches();
// SIGINT/SIGTERM left at their default: finish, then die of it (signals.cpp).
void flushOnTerminatingSignals(Session& s);

}  // namespace gapscope::gpu::inject
