// The bounded channel from a recorded process to the recorder: encoded
// frames wait in memory (at most `capacityBytes`) until a sender thread
// writes them to the recorder's socket. Pushing never waits for the socket:
// when the recorder falls behind and the channel is full, the records are
// refused and counted, and the count travels to the recorder in a Stats
// frame, so nothing is lost silently.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace gapscope::gpu {

class RecordChannel {
 public:
  // `fd`: a connected stream socket (or pipe) the channel owns and closes.
  RecordChannel(int fd, std::size_t capacityBytes);
  ~RecordChannel();
  RecordChannel(const RecordChannel&) = delete;
  RecordChannel& operator=(const RecordChannel&) = delete;

  // Queues `frames` holding `records` records; false (the records counted as
  // dropped) when that would exceed the capacity or the channel is closed.
  bool tryPush(std::string frames, std::uint64_t records);
  // Control frames (hello, stats, notes, bye) are small and few: they are
  // queued past the capacity so drop counts and the goodbye always get out.
  void pushControl(std::string frames);

  // Stops taking frames, lets the sender write what is queued for at most
  // `drainFor`, then closes the socket. Idempotent.
  void close(std::chrono::milliseconds drainFor);

  std::uint64_t droppedRecords() const { return dropped_.load(); }
  std::uint64_t sentBytes() const { return sent_.load(); }
  // The recorder closed its end (recording stopped): stop producing.
  bool peerGone() const { return peerGone_.load(); }

 private:
  void sendLoop();
  bool writeAll(const std::string& bytes);

  int fd_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> queue_;
  std::size_t queuedBytes_ = 0;
  bool closing_ = false;
  std::chrono::steady_clock::time_point drainDeadline_{};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> sent_{0};
  std::atomic<bool> peerGone_{false};
  std::thread sender_;
};

}  // namespace gapscope::gpu
