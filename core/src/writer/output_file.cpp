#include "output_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

namespace gapscope::writer::detail {

namespace {

std::string temporaryPathFor(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

constexpr int kGzipWindowBits = 15 + 16;  // zlib: +16 writes a gzip header and trailer

}  // namespace

AtomicFile::AtomicFile(std::string path, bool gzip, int level)
    : path_(std::move(path)), tmpPath_(temporaryPathFor(path_)), gzip_(gzip) {
  file_ = std::fopen(tmpPath_.c_str(), "wb");
  if (!file_) {
    fail("cannot create " + tmpPath_, errno);
    return;
  }
  if (gzip_) {
    if (deflateInit2(&z_, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      fail("zlib deflateInit2 failed", 0);
      return;
    }
    zInit_ = true;
  }
}

AtomicFile::~AtomicFile() {
  if (zInit_) deflateEnd(&z_);
  if (file_) std::fclose(file_);
  if (!committed_ && !tmpPath_.empty()) std::remove(tmpPath_.c_str());
}

bool AtomicFile::fail(const std::string& what, int errnum) {
  if (error_.empty()) error_ = errnum ? what + ": " + std::strerror(errnum) : what;
  return false;
}

bool AtomicFile::writeRaw(const void* data, std::size_t n) {
  if (n == 0) return true;
  if (std::fwrite(data, 1, n, file_) != n) return fail("cannot write " + tmpPath_, errno);
  stored_ += n;
  return true;
}

bool AtomicFile::deflateChunk(std::string_view bytes, int flush) {
  unsigned char out[1 << 16];
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z_.avail_in = static_cast<uInt>(bytes.size());
  do {
    z_.next_out = out;
    z_.avail_out = sizeof out;
    int rc = deflate(&z_, flush);
    if (rc == Z_STREAM_ERROR) return fail("zlib deflate failed", 0);
    if (!writeRaw(out, sizeof out - z_.avail_out)) return false;
  } while (z_.avail_out == 0);
  return true;
}

bool AtomicFile::write(std::string_view bytes) {
  if (!error_.empty()) return false;
  if (!gzip_) return writeRaw(bytes.data(), bytes.size());
  // Feed zlib in pieces a uInt can count.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  while (!bytes.empty()) {
    std::string_view piece = bytes.substr(0, kPiece);
    if (!deflateChunk(piece, Z_NO_FLUSH)) return false;
    bytes.remove_prefix(piece.size());
  }
  return true;
}

bool AtomicFile::commit() {
  if (!error_.empty()) return false;
  if (gzip_ && !deflateChunk({}, Z_FINISH)) return false;
  if (std::fflush(file_) != 0) return fail("cannot write " + tmpPath_, errno);
  // The data must be on disk before the rename makes it visible.
  if (::fsync(::fileno(file_)) != 0 && errno != EINVAL) return fail("cannot sync " + tmpPath_, errno);
  if (std::fclose(file_) != 0) {
    file_ = nullptr;
    return fail("cannot close " + tmpPath_, errno);
  }
  file_ = nullptr;
  if (std::rename(tmpPath_.c_str(), path_.c_str()) != 0) return fail("cannot rename " + tmpPath_ + " to " + path_, errno);
  committed_ = true;
  return true;
}

}  // namespace gapscope::writer::detail
