// Reading Chrome trace JSON (torch.profiler / Kineto and any other valid
// Chrome trace) into the trace model: .json and .json.gz, the
// {"traceEvents": [...]} object form and the bare-array form.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "gapscope/model/trace.h"

namespace gapscope::io {

// Parser threads for one trace: the usable cores less two (the producer
// reading the file and the merger need one each), less one on 4 cores or
// fewer, at least 2 and at most 14 (docs/reader.md, "Parser threads").
int defaultParserThreads();

// Parser threads for a text of this many bytes (0: unknown): those above,
// but no more than one per 16 MiB, and at least 2; one below 64 MiB. Each
// parser holds about a chunk and its builder, so the chunks shrink as the
// parsers grow in number (defaultChunkBytes).
int parserThreadsFor(std::uint64_t textBytes);

// The text (a .json.gz's inflated text too) is cut into chunks of this size
// when LoadOptions::chunkBytes is 0: the biggest power of two from 64 KiB to
// 1 MiB such that the chunks of all `parsers` together are at most 1/128 of
// the text, or each at most 1/128 with one or two parsers.
std::size_t defaultChunkBytes(std::uint64_t textBytes, int parsers);

struct LoadOptions {
  // Parser threads (finish() uses as many); 0: parserThreadsFor the text,
  // at most 4 for a .json.gz (inflating on one thread bounds its load).
  // With one, the calling thread reads, parses and merges, with no other.
  int threads = 0;
  // Called from a reader thread now and then with bytes consumed of the file
  // as stored (compressed bytes for .gz) and its total size.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  // Set to true from any thread to stop loading; the result is then `cancelled`
  // (and holds no trace). Checked between chunks.
  const std::atomic<bool>* cancel = nullptr;
  // Size of the pieces the text is cut into for parsing; 0 means
  // defaultChunkBytes for the text and the parsers (64 KiB to 1 MiB). Tests
  // set it small to exercise the cutting.
  std::size_t chunkBytes = 0;
  // The largest single event held whole for parsing; 0 means 64 MiB, and
  // it is never less than chunkBytes. A bigger event is checked, dropped and
  // counted (event_too_large), so the reader never holds more than the model
  // plus a bounded window of text.
  std::size_t maxEventBytes = 0;
};

// How the text was read, for tests and benchmarks.
struct LoadStats {
  std::uint64_t chunks = 0;
  // Chunks walked again byte by byte because the fast parse failed: a
  // guessed cut inside an event (see chunk_pipeline.h) or a JSON error.
  // Zero for a well-formed Kineto trace.
  std::uint64_t rewalkedChunks = 0;
  double parseSeconds = 0;   // reading, parsing and merging the chunks (wall)
  double finishSeconds = 0;  // TraceBuilder::finish(): sorting, depths, flows, indices (wall)
};

struct LoadResult {
  // Present whenever anything was read, even when `error` is set: a bad
  // file loses nothing that came before the fault.
  std::optional<Trace> trace;
  // Empty on success. Otherwise one line naming the file, where
  // (line:column and byte offset) and what was expected, e.g.
  // "trace.json:12:7 (byte 301): expected ',' or '}' after an object member".
  std::string error;
  bool cancelled = false;
  bool truncated = false;  // the file ended mid-event; `trace` holds all before the cut
  LoadStats stats;

  bool ok() const { return error.empty() && !cancelled; }
};

// Loads a file; ".gz" (or gzip magic bytes) is inflated while parsing.
// "-" reads standard input. Pipes and FIFOs work: the input is read once,
// front to back, and never opened again (regular files keep their
// descriptor for fetching args on demand).
LoadResult loadChromeTrace(const std::string& path, const LoadOptions& options = {});

// Parses JSON text already in memory (tests, tools). `name` is used in messages.
LoadResult parseChromeTrace(std::string_view json, const LoadOptions& options = {},
                            const std::string& name = "<memory>");

}  // namespace gapscope::io
