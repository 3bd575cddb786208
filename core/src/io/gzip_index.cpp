#include "gzip_index.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "args_sources.h"

namespace gapscope::io {

void GzipIndexBuilder::afterBlockInflate(z_stream& z, std::uint64_t text, std::uint64_t stored) {
  // data_type: +128 when inflate stopped at a block boundary, +64 when the
  // block just begun is the stream's last (no point there: the member ends),
  // and in its low 3 bits how many bits of the last byte read are unused.
  if (!(z.data_type & 128) || (z.data_type & 64) || !due(text)) return;
  GzipPoint p;
  p.text = text;
  p.stored = stored;
  p.bits = z.data_type & 7;
  p.window.resize(32768);
  uInt length = 0;
  if (inflateGetDictionary(&z, p.window.data(), &length) != Z_OK) return;
  p.window.resize(length);
  p.window.shrink_to_fit();
  points_.push_back(std::move(p));
}

void GzipIndexBuilder::memberStarts(std::uint64_t text, std::uint64_t stored) {
  if (!due(text) && !points_.empty()) return;
  GzipPoint p;
  p.text = text;
  p.stored = stored;
  p.memberStart = true;
  points_.push_back(std::move(p));
}

namespace {

class GzipArgsSource final : public ArgsSource {
 public:
  GzipArgsSource(int fd, std::vector<GzipPoint> points)
      : fd_(::fcntl(fd, F_DUPFD_CLOEXEC, 0)), points_(std::move(points)) {}
  ~GzipArgsSource() override {
    if (initialised_) inflateEnd(&z_);
    if (fd_ >= 0) ::close(fd_);
  }
  GzipArgsSource(const GzipArgsSource&) = delete;
  GzipArgsSource& operator=(const GzipArgsSource&) = delete;

  std::string fetch(const ArgsRef& ref) const override { return argsFromSourceText(*this, ref); }
  bool keepsSource() const override { return fd_ >= 0; }
  std::string sourceText(std::uint64_t offset, std::uint32_t length) const override {
    if (fd_ < 0) return {};
    std::lock_guard lock(mu_);
    std::string out(length, '\0');
    if (!moveTo(offset)) {
      positioned_ = false;
      return {};
    }
    const std::size_t made = inflateInto(out.data(), out.size());
    // Short only at the end of the text (or on damage): the next fetch resumes from a point.
    if (made != out.size()) positioned_ = false;
    out.resize(made);
    return out;
  }
  bool slowOutOfOrder() const override { return true; }

 private:
  // Goes on from the last fetch when that is past the nearest point before
  // `target` and not past `target`; else resumes at that point.
  bool moveTo(std::uint64_t target) const {
    auto after = std::upper_bound(points_.begin(), points_.end(), target,
                                  [](std::uint64_t t, const GzipPoint& p) { return t < p.text; });
    if (after == points_.begin()) return false;
    const GzipPoint& point = *(after - 1);
    if (!(positioned_ && text_ >= point.text && text_ <= target) && !resumeAt(point)) return false;
    return skip(target - text_);
  }

  bool resumeAt(const GzipPoint& p) const {
    if (!initialised_) {
      if (inflateInit2(&z_, -MAX_WBITS) != Z_OK) return false;
      initialised_ = true;
      in_.resize(1 << 16);
      scratch_.resize(1 << 16);
    }
    raw_ = !p.memberStart;
    // Raw deflate resumes inside a member; 16 + 15 reads a gzip header first.
    if (inflateReset2(&z_, raw_ ? -MAX_WBITS : 16 + MAX_WBITS) != Z_OK) return false;
    z_.avail_in = 0;
    nextStored_ = p.stored;
    if (raw_ && p.bits) {
      unsigned char c;
      if (::pread(fd_, &c, 1, static_cast<off_t>(p.stored - 1)) != 1) return false;
      if (inflatePrime(&z_, p.bits, c >> (8 - p.bits)) != Z_OK) return false;
    }
    if (raw_ && !p.window.empty() &&
        inflateSetDictionary(&z_, p.window.data(), static_cast<uInt>(p.window.size())) != Z_OK)
      return false;
    text_ = p.text;
    positioned_ = true;
    return true;
  }

  bool skip(std::uint64_t n) const {
    while (n > 0) {
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(n, scratch_.size()));
      if (inflateInto(scratch_.data(), k) != k) return false;
      n -= k;
    }
    return true;
  }

  // Inflates up to n bytes of text into dst, across gzip members.
  std::size_t inflateInto(char* dst, std::size_t n) const {
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(n);
    while (z_.avail_out > 0) {
      if (z_.avail_in == 0 && !refill()) break;
      const int ret = inflate(&z_, Z_NO_FLUSH);
      if (ret == Z_STREAM_END) {
        if (!nextMember()) break;
      } else if (ret != Z_OK) {
        break;
      }
    }
    const std::size_t made = n - z_.avail_out;
    text_ += made;
    return made;
  }

  bool refill() const {
    const ssize_t r = ::pread(fd_, in_.data(), in_.size(), static_cast<off_t>(nextStored_));
    if (r <= 0) return false;
    nextStored_ += static_cast<std::uint64_t>(r);
    z_.next_in = in_.data();
    z_.avail_in = static_cast<uInt>(r);
    return true;
  }

  // A member ended: the text goes on in the next one, if one follows (raw
  // inflate stops before the member's 8-byte trailer, gzip mode after it).
  bool nextMember() const {
    const std::uint64_t at = nextStored_ - z_.avail_in + (raw_ ? 8 : 0);
    unsigned char magic[2];
    if (::pread(fd_, magic, 2, static_cast<off_t>(at)) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) return false;
    raw_ = false;
    if (inflateReset2(&z_, 16 + MAX_WBITS) != Z_OK) return false;
    z_.avail_in = 0;
    nextStored_ = at;
    return true;
  }

  int fd_;
  std::vector<GzipPoint> points_;
  // The inflate cursor, shared by fetches under mu_.
  mutable std::mutex mu_;
  mutable z_stream z_{};
  mutable bool initialised_ = false;
  mutable bool positioned_ = false;
  mutable bool raw_ = true;
  mutable std::uint64_t text_ = 0;        // text offset of the next byte inflated
  mutable std::uint64_t nextStored_ = 0;  // compressed byte the next refill reads
  mutable std::vector<Bytef> in_;
  mutable std::vector<char> scratch_;
};

}  // namespace

std::shared_ptr<const ArgsSource> makeGzipArgsSource(int fd, std::vector<GzipPoint> points) {
  return std::make_shared<GzipArgsSource>(fd, std::move(points));
}

}  // namespace gapscope::io
