// Text gzip-compressed in memory (one gzip member, level 1 unless asked),
// for tests and fuzz targets that feed the reader's .gz path.
#pragma once

#include <zlib.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace gapscope::testing {

inline std::string gzipText(std::string_view text, int level = 1) {
  std::string out(compressBound(static_cast<uLong>(text.size())) + 64, '\0');
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace gapscope::testing
