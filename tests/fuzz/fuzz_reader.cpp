// Fuzzes the Chrome JSON reader through each of its paths: text in memory,
// a plain file (read, or mapped a chunk at a time), a .json.gz (inflated while parsing) and raw
// bytes read as a .gz, with the path, chunk size, threads and event window
// taken from the input's length (so the seeds are plain traces). Differential: the same text read in memory
// with the default chunking must give the same outcome (chunking never
// changes a result).
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_input.h"
#include "json_text.h"
#include "../support/gzip_text.h"

using namespace gapscope;

namespace {

// A file in memory, reachable by path (regular, so it is read or mapped like one on disk).
class MemFile {
 public:
  explicit MemFile(std::string_view bytes) : fd_(::memfd_create("fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t w = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (w <= 0) std::abort();
      done += static_cast<std::size_t>(w);
    }
  }
  ~MemFile() { ::close(fd_); }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

std::string gzipOf(std::string_view text) { return gapscope::testing::gzipText(text); }

// The error without the file name in front.
std::string errorBody(const io::LoadResult& r, const std::string& name) {
  if (r.error.rfind(name, 0) == 0) return r.error.substr(name.size());
  return r.error;
}

bool strictlyValid(std::string_view text) {
  const io::JsonCheck c = io::checkJsonValue(text, io::skipSpaces(text, 0));
  return c.status == io::JsonCheck::Status::Ok && io::skipSpaces(text, c.pos) == text.size();
}

void compareOutcomes(std::string_view text, const io::LoadResult& a, const io::LoadResult& b,
                     const std::string& nameB) {
  if (!strictlyValid(text)) return;
  const std::string ea = errorBody(a, "fuzz.json");
  const std::string eb = errorBody(b, nameB);
  const std::size_t na = a.trace ? a.trace->slices.size() : 0;
  const std::size_t nb = b.trace ? b.trace->slices.size() : 0;
  if (ea != eb || a.truncated != b.truncated || na != nb || a.trace.has_value() != b.trace.has_value()) {
    std::fprintf(stderr, "outcomes differ:\n  default: [%s] truncated=%d slices=%zu\n  fuzzed:  [%s] truncated=%d slices=%zu\n",
                 ea.c_str(), a.truncated, na, eb.c_str(), b.truncated, nb);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int mode = static_cast<int>(size % 4);
  io::LoadOptions options;
  options.chunkBytes = std::size_t{64} << (size / 4 % 8);
  options.threads = 1 + static_cast<int>(size / 32 % 2);
  const std::string_view text = fuzz::asText(data, size);

  io::LoadResult reference = io::parseChromeTrace(text, io::LoadOptions{}, "fuzz.json");
  switch (mode) {
    case 0: {
      io::LoadResult r = io::parseChromeTrace(text, options, "fuzz.json");
      compareOutcomes(text, reference, r, "fuzz.json");
      break;
    }
    case 1: {
      MemFile file(text);
      const bool mapped = size / 256 % 2 == 1;
      if (mapped) setenv("GAPSCOPE_READ_MODE", "map", 1);
      io::LoadResult r = io::loadChromeTrace(file.path(), options);
      if (mapped) unsetenv("GAPSCOPE_READ_MODE");
      compareOutcomes(text, reference, r, file.path());
      if (r.trace) {
        for (const Slice& s : r.trace->slices) (void)r.trace->argsJson(s.args);
      }
      break;
    }
    case 2: {
      MemFile file(gzipOf(text));
      io::LoadResult r = io::loadChromeTrace(file.path(), options);
      compareOutcomes(text, reference, r, file.path());
      break;
    }
    default: {
      // The bytes as a gzip file: corrupt and cut streams, concatenated members.
      std::string gz = std::string("\x1f\x8b", 2) + std::string(text);
      MemFile file(gz);
      io::LoadResult r = io::loadChromeTrace(file.path(), options);
      (void)r;
      break;
    }
  }
  return 0;
}
