#include "byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "args_sources.h"
#include "gzip_index.h"

namespace gapscope::io {

namespace {

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// read() until n bytes or the end; -1 on an error.
ssize_t readFully(int fd, char* dst, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    ssize_t r = ::read(fd, dst + done, n - done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (r == 0) break;
    done += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(done);
}

// read() of up to n bytes, serving first the bytes already taken from a
// stream to look at its magic bytes (`head`); -1 on an error.
ssize_t readAfterHead(int fd, std::string& head, char* dst, std::size_t n) {
  const std::size_t k = std::min(n, head.size());
  std::memcpy(dst, head.data(), k);
  head.erase(0, k);
  if (k == n) return static_cast<ssize_t>(k);
  ssize_t r = readFully(fd, dst + k, n - k);
  return r < 0 ? r : r + static_cast<ssize_t>(k);
}

}  // namespace

std::string readErrorAt(std::uint64_t offset, int err) {
  return "read error at byte " + std::to_string(offset) + ": " + std::strerror(err);
}

std::string fileGotShorterAt(std::uint64_t offset) {
  return "read error at byte " + std::to_string(offset) + ": the file got shorter while loading";
}

namespace {

class PlainFileSource final : public ByteSource {
 public:
  PlainFileSource(int fd, std::uint64_t size, std::string head) : fd_(fd), head_(std::move(head)) {
    storedSize_ = size;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  std::size_t read(char* dst, std::size_t n) override {
    if (!error_.empty()) return 0;
    ssize_t r = readAfterHead(fd_.get(), head_, dst, n);
    if (r < 0) {
      error_ = readErrorAt(consumed_, errno);
      return 0;
    }
    // A file of known size that ends early is cut while it is read.
    if (r == 0 && n > 0 && consumed_ < storedSize_) error_ = fileGotShorterAt(consumed_);
    consumed_ += static_cast<std::uint64_t>(r);
    return static_cast<std::size_t>(r);
  }
  std::uint64_t storedConsumed() const override { return consumed_; }
  // Pipes and devices (size 0) cannot be read again at an offset.
  bool rereadable() const override { return storedSize_ > 0; }
  int fileDescriptor() const override { return storedSize_ > 0 ? fd_.get() : -1; }
  std::shared_ptr<const ArgsSource> argsByOffset() override {
    return rereadable() ? makeFileArgsSource(fd_.get()) : nullptr;
  }

 private:
  Fd fd_;
  std::string head_;
  std::uint64_t consumed_ = 0;
};

class GzipFileSource final : public ByteSource {
  // 2 to 4 MiB of text per read at 8 to 16:1; 1 MiB of input was 0.01x of
  // a 100 MB file's text at its peak.
  static constexpr std::size_t kCompressedReadBytes = 256 << 10;

 public:
  GzipFileSource(int fd, std::uint64_t size, std::string head, std::uint64_t span)
      : fd_(fd), head_(std::move(head)), in_(kCompressedReadBytes) {
    storedSize_ = size;
    // A pipe (size 0) cannot be read again: no index.
    if (size > 0) {
      index_ = std::make_unique<GzipIndexBuilder>(span);
      index_->memberStarts(0, 0);
    }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    std::memset(&z_, 0, sizeof z_);
    // 16 + 15: gzip wrapper, largest window.
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) error_ = "gzip error: cannot initialise zlib";
    else initialised_ = true;
  }
  ~GzipFileSource() override {
    if (initialised_) inflateEnd(&z_);
  }
  bool compressed() const override { return true; }
  bool rereadable() const override { return index_ != nullptr; }
  std::shared_ptr<const ArgsSource> argsByOffset() override {
    return index_ ? makeGzipArgsSource(fd_.get(), index_->take()) : nullptr;
  }
  std::uint64_t storedConsumed() const override { return fileRead_ - z_.avail_in; }
  std::uint64_t expectedTextBytes() const override {
    // ISIZE, the last 4 bytes of a gzip member, is the text size modulo
    // 2^32: trust it unless the file could hold more than 4 GiB of text,
    // or it is under half the file (the last of several members, as
    // concatenated or bgzip files have): then guess 10x, as Kineto's JSON
    // compresses.
    unsigned char tail[4];
    if (storedSize_ < 18 || ::pread(fd_.get(), tail, 4, static_cast<off_t>(storedSize_ - 4)) != 4) return 0;
    const std::uint64_t isize = tail[0] | tail[1] << 8 | tail[2] << 16 | static_cast<std::uint64_t>(tail[3]) << 24;
    const bool trusted = storedSize_ * 20 < (std::uint64_t{1} << 32) && isize >= storedSize_ / 2;
    return trusted ? isize : storedSize_ * 10;
  }

  std::size_t read(char* dst, std::size_t n) override {
    if (!error_.empty() || done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    // zlib counts in uInt; a chunk never reaches 4 GiB, but stay safe.
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
    const uInt want = z_.avail_out;
    auto textNow = [&] { return text_ + (want - z_.avail_out); };
    while (z_.avail_out > 0 && !done_) {
      if (z_.avail_in == 0 && !refill()) break;
      // Z_BLOCK stops at each deflate block boundary, where the index may
      // note a point (a few dozen per MiB of text: no measurable cost).
      int ret = inflate(&z_, index_ ? Z_BLOCK : Z_NO_FLUSH);
      if (ret == Z_OK && index_) {
        index_->afterBlockInflate(z_, textNow(), storedConsumed());
      } else if (ret == Z_STREAM_END) {
        if (nextMember() && index_) index_->memberStarts(textNow(), storedConsumed());
      } else if (ret == Z_BUF_ERROR) {
        if (z_.avail_in != 0) {  // no progress with input left: cannot happen with room to write
          fail("stalled");
        }
      } else if (ret != Z_OK) {
        fail(z_.msg ? z_.msg : "corrupt data");
      }
    }
    text_ += want - z_.avail_out;
    return want - z_.avail_out;
  }

 private:
  bool refill() {
    ssize_t r = readAfterHead(fd_.get(), head_, reinterpret_cast<char*>(in_.data()), in_.size());
    if (r < 0) {
      error_ = std::string("read error at compressed byte ") + std::to_string(fileRead_) + ": " +
               std::strerror(errno);
      done_ = true;
      return false;
    }
    if (r == 0) {
      // The file ended inside a gzip member: a cut-short .gz.
      endedEarly_ = true;
      done_ = true;
      return false;
    }
    fileRead_ += static_cast<std::uint64_t>(r);
    z_.next_in = in_.data();
    z_.avail_in = static_cast<uInt>(r);
    return true;
  }

  // After a member ends: concatenated members continue the text (true);
  // zero padding or nothing ends it.
  bool nextMember() {
    if (z_.avail_in == 0 && !refillAtMemberEnd()) {
      done_ = true;
      return false;
    }
    if (z_.avail_in >= 2 && z_.next_in[0] == 0x1f && z_.next_in[1] == 0x8b) {
      inflateReset(&z_);
      return true;
    }
    done_ = true;  // trailing bytes that are not another member are ignored
    return false;
  }
  bool refillAtMemberEnd() {
    bool ok = refill();
    if (!ok && endedEarly_) endedEarly_ = false;  // the file simply ended after a member
    return ok;
  }

  void fail(const char* what) {
    error_ = "gzip error at compressed byte " + std::to_string(storedConsumed()) + ": " + what;
    done_ = true;
  }

  Fd fd_;
  std::string head_;
  std::vector<Bytef> in_;
  z_stream z_;
  bool initialised_ = false;
  bool done_ = false;
  std::uint64_t fileRead_ = 0;
  std::uint64_t text_ = 0;  // bytes of text inflated so far
  std::unique_ptr<GzipIndexBuilder> index_;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view text) : text_(text) { storedSize_ = text.size(); }
  std::size_t read(char* dst, std::size_t n) override {
    std::size_t k = std::min(n, text_.size() - pos_);
    std::memcpy(dst, text_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  std::uint64_t storedConsumed() const override { return pos_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> openFileSource(const std::string& path, std::string* error, std::uint64_t gzipSpan) {
  int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::string("cannot open: ") + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    *error = S_ISDIR(st.st_mode) ? "is a directory" : std::string("cannot stat: ") + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t size = regular ? static_cast<std::uint64_t>(st.st_size) : 0;
  // A pipe cannot be read at an offset: its first bytes are read once and
  // handed to the source, which serves them first.
  std::string head(2, '\0');
  ssize_t got = regular ? ::pread(fd, head.data(), 2, 0) : readFully(fd, head.data(), 2);
  if (got < 0) {
    *error = std::string("cannot read: ") + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  head.resize(static_cast<std::size_t>(got));
  const bool gzip = head.size() == 2 && head[0] == '\x1f' && head[1] == '\x8b';
  if (regular) head.clear();
  if (gzip) return std::make_unique<GzipFileSource>(fd, size, std::move(head), gzipSpan);
  return std::make_unique<PlainFileSource>(fd, size, std::move(head));
}

std::unique_ptr<ByteSource> openMemorySource(std::string_view text) {
  return std::make_unique<MemorySource>(text);
}

}  // namespace gapscope::io
