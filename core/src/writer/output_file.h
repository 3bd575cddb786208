// Where the writer's bytes go: a temporary file beside the target, plain or
// gzip-compressed, renamed over the target only once everything is written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <zlib.h>

namespace gapscope::writer::detail {

class Sink {
 public:
  virtual ~Sink() = default;
  // Returns false after the first failure; error() says what failed.
  virtual bool write(std::string_view bytes) = 0;
  virtual const std::string& error() const = 0;
};

class StringSink final : public Sink {
 public:
  bool write(std::string_view bytes) override {
    out.append(bytes);
    return true;
  }
  const std::string& error() const override { return err_; }
  std::string out;

 private:
  std::string err_;
};

// A temporary file that becomes `path` on commit() and is removed otherwise.
class AtomicFile final : public Sink {
 public:
  AtomicFile(std::string path, bool gzip, int level);
  ~AtomicFile() override;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  bool write(std::string_view bytes) override;
  const std::string& error() const override { return error_; }
  // Finishes compression, flushes to disk and renames into place.
  bool commit();
  std::uint64_t bytesStored() const { return stored_; }

 private:
  bool fail(const std::string& what, int errnum);
  bool writeRaw(const void* data, std::size_t n);
  bool deflateChunk(std::string_view bytes, int flush);

  std::string path_;
  std::string tmpPath_;
  std::FILE* file_ = nullptr;
  bool gzip_ = false;
  bool zInit_ = false;
  z_stream z_{};
  std::string error_;
  std::uint64_t stored_ = 0;
  bool committed_ = false;
};

}  // namespace gapscope::writer::detail
