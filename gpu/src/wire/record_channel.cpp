#include "gapscope/gpu/record_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace gapscope::gpu {

RecordChannel::RecordChannel(int fd, std::size_t capacityBytes)
    : fd_(fd), capacity_(capacityBytes), sender_([this] { sendLoop(); }) {}

RecordChannel::~RecordChannel() { close(std::chrono::milliseconds(0)); }

bool RecordChannel::tryPush(std::string frames, std::uint64_t records) {
  {
    std::lock_guard lock(mutex_);
    if (!closing_ && !peerGone_ && queuedBytes_ + frames.size() <= capacity_) {
      bool wasEmpty = queue_.empty();
      queuedBytes_ += frames.size();
      queue_.push_back(std::move(frames));
      // The sender waits only on an empty queue: waking it for every push
      // would cost the pushing thread a system call each time.
      if (wasEmpty) wake_.notify_one();
      return true;
    }
    if (peerGone_ || closing_) return false;  // recording over: not a loss
  }
  dropped_ += records;
  return false;
}

void RecordChannel::pushControl(std::string frames) {
  std::lock_guard lock(mutex_);
  if (closing_ || peerGone_) return;
  queuedBytes_ += frames.size();
  queue_.push_back(std::move(frames));
  wake_.notify_one();
}

void RecordChannel::close(std::chrono::milliseconds drainFor) {
  {
    std::lock_guard lock(mutex_);
    if (!sender_.joinable()) return;
    closing_ = true;
    drainDeadline_ = std::chrono::steady_clock::now() + drainFor;
    wake_.notify_one();
  }
  sender_.join();
  ::close(fd_);
}

// Writes everything, waiting for the socket at most until the drain
// deadline once closing. False when the peer is gone or time ran out.
bool RecordChannel::writeAll(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int timeoutMs = 100;
      {
        std::lock_guard lock(mutex_);
        if (closing_) {
          auto left = std::chrono::duration_cast<std::chrono::milliseconds>(drainDeadline_ -
                                                                            std::chrono::steady_clock::now());
          if (left.count() <= 0) return false;
          timeoutMs = static_cast<int>(std::min<long long>(left.count(), 100));
        }
      }
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, timeoutMs);
      continue;
    }
    return false;  // EPIPE, ECONNRESET, ...: the recorder is gone
  }
  sent_ += bytes.size();
  return true;
}

void RecordChannel::sendLoop() {
  while (true) {
    std::string next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closing and drained
      next = std::move(queue_.front());
      queue_.pop_front();
      queuedBytes_ -= next.size();
    }
    if (!writeAll(next)) {
      std::lock_guard lock(mutex_);
      peerGone_ = true;
      queue_.clear();
      queuedBytes_ = 0;
      if (closing_) return;
    }
  }
}

}  // namespace gapscope::gpu
