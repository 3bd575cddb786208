// Where the JSON text comes from: a plain file, a gzip file inflated on the
// fly (detected by its magic bytes, not its name), or memory. Sequential
// reads only; the reader's producer thread owns the source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "gapscope/model/trace.h"

namespace gapscope::io {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes of JSON text into dst; 0 at the end or on an error.
  virtual std::size_t read(char* dst, std::size_t n) = 0;
  // Bytes of the stored file consumed so far (compressed bytes for gzip).
  virtual std::uint64_t storedConsumed() const = 0;
  std::uint64_t storedSize() const { return storedSize_; }
  virtual bool compressed() const { return false; }
  // One line when reading failed (I/O or gzip error), else empty.
  const std::string& error() const { return error_; }
  // The compressed stream was cut short: a truncated .gz file.
  bool endedEarly() const { return endedEarly_; }
  // Whether the text can be read again later by offset (for args on demand).
  virtual bool rereadable() const { return false; }
  // Once the text has been read: what fetches args by their offset in the
  // text, or null when it cannot be read again.
  virtual std::shared_ptr<const ArgsSource> argsByOffset() { return nullptr; }
  // Plain files: the descriptor, for mapping or reading at an offset; else -1.
  virtual int fileDescriptor() const { return -1; }
  // About how many bytes of JSON text the source holds (exact for plain
  // files; from the gzip trailer for .gz); 0 when unknown. A sizing hint.
  virtual std::uint64_t expectedTextBytes() const { return storedSize_; }

 protected:
  std::uint64_t storedSize_ = 0;
  std::string error_;
  bool endedEarly_ = false;
};

// The error of a read that failed with `err` (errno) at `offset`.
std::string readErrorAt(std::uint64_t offset, int err);
// The error of a plain file that ends before the size it had when opened.
std::string fileGotShorterAt(std::uint64_t offset);

// A .json.gz's index keeps 32 KiB per span of text: 4 MiB makes it 0.8 %
// of the text (at 1 MiB, 3 % put a 100 MB file's peak over 0.35x), and a
// fetch of args inflates 2 MiB on average (docs/reader.md, "Args on demand").
inline constexpr std::uint64_t kDefaultGzipSpan = std::uint64_t{4} << 20;

// Opens a file; gzip when it starts with the gzip magic bytes 1f 8b. A
// regular .gz file is indexed about every `gzipSpan` bytes of text as it is
// read (gzip_index.h).
std::unique_ptr<ByteSource> openFileSource(const std::string& path, std::string* error,
                                           std::uint64_t gzipSpan = kDefaultGzipSpan);
// Text in memory; it must outlive the source.
std::unique_ptr<ByteSource> openMemorySource(std::string_view text);

}  // namespace gapscope::io
