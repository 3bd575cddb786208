// A test data file's text, gzip-compressed or not, for counts made in tests
// from the JSON itself.
#pragma once

#include <zlib.h>

#include <filesystem>
#include <string>

namespace gapscope::testing {

inline std::string readMaybeGzipped(const std::filesystem::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files as they are
  if (!f) return {};
  std::string text;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return text;
}

}  // namespace gapscope::testing
