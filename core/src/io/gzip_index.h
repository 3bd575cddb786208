// Reading a .json.gz again at an offset, for args on demand (the idea of
// zlib's examples/zran.c). While the reader inflates the file once it notes,
// about every `span` bytes of text, a point where inflating can resume: the
// start of a deflate block (compressed byte and bit, with the 32 KiB of text
// before it that the block may refer back to) or of a gzip member (nothing
// before it needed). Fetching an event's args inflates from the last point
// before them: at most about a span of text, never the whole file. The index
// costs about 32 KiB per span (0.8 % of the text at 4 MiB) where the copied
// args it replaces cost about 40 %.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::io {

struct GzipPoint {
  std::uint64_t text = 0;    // offset in the text where this point resumes
  std::uint64_t stored = 0;  // compressed byte to read first
  int bits = 0;              // 1-7: the block starts that many bits before `stored`
  bool memberStart = false;  // a gzip header starts at `stored`
  std::vector<unsigned char> window;  // the text just before `text` (raw deflate points)
};

// Fed by the inflating source; knows nothing of files.
class GzipIndexBuilder {
 public:
  explicit GzipIndexBuilder(std::uint64_t span) : span_(span) {}
  // After inflate(z, Z_BLOCK) returned: notes a point where a block of a
  // member's deflate stream starts, if a span of text has passed.
  void afterBlockInflate(z_stream& z, std::uint64_t text, std::uint64_t stored);
  // A gzip member's header starts at `stored`, its text at `text`.
  void memberStarts(std::uint64_t text, std::uint64_t stored);
  std::vector<GzipPoint> take() { return std::move(points_); }

 private:
  bool due(std::uint64_t text) const { return points_.empty() || text - points_.back().text >= span_; }
  std::uint64_t span_;
  std::vector<GzipPoint> points_;
};

// Fetches args text from a .json.gz by its offset in the text, through a
// duplicate of `fd`. Thread-safe; reading forward from the last fetch goes
// on from where it stopped, so fetching in text order inflates the file
// about once.
std::shared_ptr<const ArgsSource> makeGzipArgsSource(int fd, std::vector<GzipPoint> points);

}  // namespace gapscope::io
