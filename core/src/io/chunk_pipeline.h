// The parallel reading pipeline.
//
//   producer thread : reads (or inflates) the text into ~1 MiB buffers and
//                     cuts each at a plausible event boundary, "}" "," "{"
//                     found by a backward byte search: no scan of the
//                     whole text for strings and nesting.
//   worker threads  : parse each chunk as "[" events "]" with simdjson
//                     on-demand into its own TraceBuilder.
//   calling thread  : takes chunks in file order, verifies and merges.
//
// A cut is a guess: "}, {" can also sit inside a string or nested args. A
// wrong cut always makes its chunk fail to parse (its last event is then
// incomplete), so a chunk that parses completely proves its cut. A chunk
// that fails is walked again exactly (strings, escapes, depth) by the
// merger: that either finds a real JSON error (reported with its offset), a
// truncated file, or a wrong cut, in which case the incomplete last event
// is carried into the next chunk, which is parsed again from there. The
// careful path costs one extra pass over the chunks involved; real traces
// rarely need it.
//
// Memory is bounded: a chunk is never grown to find a cut (a stretch with
// none is passed on uncut and walked exactly), an event that outgrows a few
// chunks is checked as a stream (json_stream.h) and held only up to
// maxEventBytes (bigger ones are dropped with an import issue), and the
// top level around the events is walked as a stream that keeps members up
// to 1 MiB. Every byte is looked at a bounded number of times, and an error
// is reported as soon as the merger reaches it, with its line and column
// counted from the text as it went past (the input is never read twice).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "byte_source.h"
#include "event_parser.h"
#include "line_counter.h"
#include "top_level.h"

namespace gapscope::io {

struct PipelineConfig {
  int threads = 2;
  // 1 MiB: measured faster than 4 or 16 MiB (fewer first-touch page
  // faults, chunks stay in cache) and it keeps the text in flight small.
  std::size_t chunkBytes = 1u << 20;
  // The largest event held whole for parsing; a bigger one is checked,
  // dropped and counted (event_too_large).
  std::size_t maxEventBytes = std::size_t{64} << 20;
  ArgsStorage storage = ArgsStorage::SourceOffsets;
  // The text's expected size (ByteSource::expectedTextBytes, read once: a
  // .json.gz reads it from its last bytes); 0: unknown.
  std::uint64_t textBytes = 0;
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct PipelineResult {
  enum class Outcome {
    Complete,
    Truncated,    // the text ended early; everything before is kept
    Malformed,    // a JSON error at errorOffset
    SourceError,  // I/O or gzip error (message), everything before is kept
    NotATrace,    // the top level is not a trace (errorOffset, message)
    Cancelled,
  };
  Outcome outcome = Outcome::Complete;
  bool eventsReached = false;  // the events array was found
  TraceBuilder builder;        // all chunks, merged in file order
  UnknownPhases unknownPhases;
  std::vector<std::string> arenas;     // raw args by arena id (ArgsStorage::Arena)
  std::vector<TopLevelEntry> entries;  // top-level members before and after the events
  std::uint64_t errorOffset = 0;
  LineColumn errorAt;            // line and column of errorOffset
  bool errorHasPosition = true;  // false for "the file is empty"
  std::string message;
  std::uint64_t truncatedAt = 0;       // Truncated: where the text ends
  std::uint64_t lastCompleteEnd = 0;   // Truncated: end of the last whole event (0: none)
  bool gzipEndedEarly = false;
  std::uint64_t decompressedBytes = 0;
  std::uint64_t chunks = 0;
  std::uint64_t rewalkedChunks = 0;
  double seconds = 0;  // set by the caller
};

PipelineResult runPipeline(ByteSource& source, const PipelineConfig& config);

}  // namespace gapscope::io
