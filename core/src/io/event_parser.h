// Parses one chunk of the traceEvents array with simdjson's on-demand API
// into a TraceBuilder. A chunk is "[" + whole events + "]" in a padded
// buffer; the caller cut it (see chunk_pipeline.h). Events are read field by
// field in any key order; args are walked once for what analyses need
// (correlation, Input Dims, kernel launch config, metadata values, counter
// values) and otherwise kept only as an ArgsRef to the raw text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gapscope/model/trace_builder.h"

namespace gapscope::io {

enum class ArgsStorage {
  SourceOffsets,  // ArgsRef.offset is the offset in the (plain) file: re-read on demand
  Arena,          // raw args text copied into the chunk's arena (gzip, memory)
};

// ArgsRef.offset in arena mode: arena id in the high bits, position below.
inline constexpr int kArenaShift = 40;

// Counts of events whose phase the reader does not read, per phase byte.
struct UnknownPhases {
  std::array<std::uint64_t, 256> count{};
  std::array<std::uint64_t, 256> firstOffset{};
  void add(unsigned char phase, std::uint64_t offset) {
    if (count[phase]++ == 0) firstOffset[phase] = offset;
  }
  void merge(const UnknownPhases& later) {
    for (std::size_t i = 0; i < count.size(); ++i) {
      if (later.count[i] && !count[i]) firstOffset[i] = later.firstOffset[i];
      count[i] += later.count[i];
    }
  }
};

// What one chunk turned into.
struct ChunkOutput {
  TraceBuilder builder;
  std::uint64_t events = 0;  // array elements read (the caller passes it to countEvents)
  std::uint64_t slices = 0;      // X and B events added
  std::uint64_t flowEvents = 0;  // s/t/f events added
  UnknownPhases unknownPhases;
  ArgsStorage storage = ArgsStorage::SourceOffsets;
  std::uint32_t arenaId = 0;
  std::string arena;
};

struct FastParse {
  bool ok = false;
  // ok: index in the buffer of the ']' that closed the events array
  // (the caller's own ']' for a cut chunk, or the file's).
  std::size_t closeIndex = 0;
  std::string error;  // !ok: simdjson's reason
};

class EventParser {
 public:
  EventParser();
  ~EventParser();
  EventParser(const EventParser&) = delete;
  EventParser& operator=(const EventParser&) = delete;

  // buf[0] is '['; buf holds `len` bytes to parse and `capacity` >= len + 64
  // readable bytes. `base` is the stream offset of buf[0]. Appends to `out`;
  // on failure `out` holds the events before the failing one.
  FastParse parse(const char* buf, std::size_t len, std::size_t capacity, std::uint64_t base,
                  ChunkOutput& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gapscope::io
