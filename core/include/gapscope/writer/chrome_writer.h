// Writing the trace model as Chrome trace JSON in the layout torch.profiler
// (Kineto) writes: an object with the top-level keys (schemaVersion,
// deviceProperties, baseTimeNanoseconds, ...) and traceEvents holding
// process/thread metadata, complete (X) events with their args, ac2g flow
// events and instants. Timestamps are "us.nnn" decimals printed from integer
// nanoseconds (relative to baseTimeNanoseconds), never through a double.
// docs/recording.md lists the format rules followed so Perfetto and
// chrome://tracing open the files too.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "gapscope/model/trace.h"

namespace gapscope::writer {

enum class Compression : std::uint8_t {
  Auto,  // gzip when the path ends in ".gz"
  None,
  Gzip,
};

struct WriteOptions {
  Compression compression = Compression::Auto;
  int gzipLevel = 6;  // zlib level 1..9
};

struct WriteResult {
  std::string error;        // empty on success; one line naming the file and the cause
  std::uint64_t bytes = 0;  // bytes of the file as stored
  std::uint64_t jsonBytes = 0;
  bool ok() const { return error.empty(); }
};

// Writes `trace` to `path` atomically: into a temporary file beside it, then
// renamed over `path`, so a reader never sees half a file and a failure
// leaves any previous file untouched.
WriteResult writeChromeTrace(const Trace& trace, const std::string& path, const WriteOptions& options = {});

// The JSON text, for tests and tools.
std::string chromeTraceJson(const Trace& trace);

// 1234567 ns -> "1234.567", -500 -> "-0.500": Chrome trace microseconds
// with exactly three decimals.
std::string formatMicros(TimeNs ns);

}  // namespace gapscope::writer
