// Helpers shared by the reader tests.
#pragma once

#include <string>
#include <string_view>

#include "gapscope/io/chrome_reader.h"
#include "gapscope/io/trace_dump.h"

namespace gapscope::testing {

// Load options with small chunks, to exercise the cutting.
io::LoadOptions chunked(std::size_t chunkBytes, int threads = 2);
// Dump options with issue offsets (and args) shown.
io::DumpOptions withOffsets();
io::DumpOptions withoutArgs();

// Parses inline JSON and returns the dump of the trace (or "ERROR: ..." / "NO TRACE").
std::string dumpOf(std::string_view json, io::LoadOptions options = {}, io::DumpOptions dump = {});

// The same, written to a file and loaded from there (the file's name shown
// as "t.json"). `readMode` is GAPSCOPE_READ_MODE for the load ("": unset).
std::string fileDumpOf(std::string_view json, io::LoadOptions options, io::DumpOptions dump,
                       const std::string& readMode = "");

// A temporary file that is removed when the object dies.
class TempFile {
 public:
  explicit TempFile(const std::string& suffix);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  void write(std::string_view bytes) const;
  void writeGzip(std::string_view bytes) const;

 private:
  std::string path_;
};

std::string readFile(const std::string& path);
std::string gunzip(const std::string& bytes);
std::string dataPath(const std::string& relative);

}  // namespace gapscope::testing
