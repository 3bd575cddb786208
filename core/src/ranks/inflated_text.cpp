#include "inflated_text.h"

#include <zlib.h>

#include <array>
#include <stdexcept>

namespace gapscope::ranks {

std::string inflatedText(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) throw std::runtime_error(path + ": cannot open");
  std::string text;
  std::array<char, 1 << 16> buf;
  int got = 0;
  while ((got = gzread(gz, buf.data(), static_cast<unsigned>(buf.size()))) > 0) text.append(buf.data(), got);
  const bool failed = got < 0;
  gzclose(gz);
  if (failed) throw std::runtime_error(path + ": not a readable gzip file");
  return text;
}

std::string inflatedStart(const std::string& path, unsigned bytes) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) return {};
  std::string text(bytes, '\0');
  const int got = gzread(gz, text.data(), bytes);
  gzclose(gz);
  text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return text;
}

}  // namespace gapscope::ranks
