// The baseline for the load benchmark: the same reading and cutting as the
// reader (1 MiB chunks cut at event boundaries, parsed on N threads with
// simdjson on-demand), but nothing is built: every member of every event
// and of its args is visited and its key looked at, and that is all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gapscope::bench {

struct ScanCounts {
  std::uint64_t events = 0;
  std::uint64_t members = 0;
  std::string error;
};

ScanCounts bareChunkedScan(const std::string& path, int threads, std::size_t chunkBytes);

}  // namespace gapscope::bench
