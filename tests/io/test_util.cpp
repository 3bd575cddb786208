#include "test_util.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gapscope::testing {

io::LoadOptions chunked(std::size_t chunkBytes, int threads) {
  io::LoadOptions o;
  o.chunkBytes = chunkBytes;
  o.threads = threads;
  return o;
}

io::DumpOptions withOffsets() {
  io::DumpOptions d;
  d.offsets = true;
  return d;
}

io::DumpOptions withoutArgs() {
  io::DumpOptions d;
  d.args = false;
  return d;
}

namespace {

std::string describe(const io::LoadResult& r, const io::DumpOptions& dump) {
  std::string out;
  if (!r.error.empty()) out += "ERROR: " + r.error + "\n";
  if (r.truncated) out += "TRUNCATED\n";
  if (!r.trace) return out + "NO TRACE\n";
  return out + io::dumpTrace(*r.trace, dump);
}

}  // namespace

std::string dumpOf(std::string_view json, io::LoadOptions options, io::DumpOptions dump) {
  return describe(io::parseChromeTrace(json, options, "t.json"), dump);
}

std::string fileDumpOf(std::string_view json, io::LoadOptions options, io::DumpOptions dump,
                       const std::string& readMode) {
  TempFile file(".json");
  file.write(json);
  if (!readMode.empty()) setenv("GAPSCOPE_READ_MODE", readMode.c_str(), 1);
  io::LoadResult r = io::loadChromeTrace(file.path(), options);
  if (!readMode.empty()) unsetenv("GAPSCOPE_READ_MODE");
  std::string out = describe(r, dump);
  for (std::size_t at = out.find(file.path()); at != std::string::npos; at = out.find(file.path(), at)) {
    out.replace(at, file.path().size(), "t.json");
  }
  return out;
}

TempFile::TempFile(const std::string& suffix) {
  char tmpl[] = "/tmp/gapscope-io-test-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  ::close(fd);
  std::remove(tmpl);
  path_ = std::string(tmpl) + suffix;
}

TempFile::~TempFile() { std::remove(path_.c_str()); }

void TempFile::write(std::string_view bytes) const {
  std::ofstream f(path_, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void TempFile::writeGzip(std::string_view bytes) const {
  gzFile f = gzopen(path_.c_str(), "wb6");
  if (!f) throw std::runtime_error("gzopen failed");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string gunzip(const std::string& bytes) {
  z_stream z{};
  inflateInit2(&z, 16 + MAX_WBITS);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[1 << 16];
  int ret = Z_OK;
  while (ret == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    ret = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return out;
}

std::string dataPath(const std::string& relative) { return std::string(GAPSCOPE_TEST_DATA_DIR) + "/" + relative; }

}  // namespace gapscope::testing
