// loadChromeTrace / parseChromeTrace: runs the pipeline, then turns its
// outcome into a Trace, import issues and a one-line error.
#include "gapscope/io/chrome_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "args_sources.h"
#include "gapscope/io/heap_setup.h"
#include "byte_source.h"
#include "chunk_pipeline.h"

namespace gapscope::io {

// The producer (reading) and the merger keep a core each busy on a big
// load, so parsers on every core crowd them: on 8 cores of the 16-core host
// 8 parsers loaded 4 GB in 2.7 s, 6 in 1.8 s; on 12 cores 12 in 2.4 s, 10
// in 1.4 to 1.6 s; on 4 cores 3 did best (docs/reader.md, "Parser threads").
// Past 12 to 14 parsers the merger alone is the bound.
int defaultParserThreads() {
  const int cores = usableCores();
  return std::clamp(cores - (cores > 4 ? 2 : 1), 2, 14);
}

// Below 64 MiB one parser on the calling thread does best: the text it
// reads is still in its cache when it parses it, and nothing is handed
// between threads. On the 2-core VM a 10 MB trace loaded in 0.034 s
// against 0.041 to 0.044 s with two parsers, at 0.61x of the file instead
// of 0.68 to 0.72x; 30 MB in the same 0.09 s at 0.40x instead of 0.45 to
// 0.48x; at 100 MB two parsers were faster (0.19 s against 0.22 to 0.24 s)
// (docs/reader.md, "One parser"). Above, one per 16 MiB, with chunks that
// shrink as the parsers grow in number: on 16 cores a 500 MB trace read by
// 14 parsers with 256 KiB chunks took 0.129 to 0.151 s at 0.30 to 0.31x of
// its size, by 7 with 1 MiB chunks 0.176 to 0.187 s at 0.31 to 0.32x; a
// 100 MB one by 5 with 128 KiB chunks 0.054 to 0.056 s, by 2 with 256 KiB
// 0.094 to 0.101 s, both at 0.32 to 0.35x (docs/reader.md).
int parserThreadsFor(std::uint64_t textBytes) {
  constexpr std::uint64_t kOneParserBelow = std::uint64_t{64} << 20;
  constexpr std::uint64_t kPerParser = std::uint64_t{16} << 20;
  const int cores = defaultParserThreads();
  if (textBytes == 0) return cores;
  if (textBytes < kOneParserBelow) return 1;
  const std::uint64_t bySize = textBytes / kPerParser;
  return static_cast<int>(std::clamp<std::uint64_t>(bySize, 2, static_cast<std::uint64_t>(cores)));
}

// The chunks in flight and each parser's index are sized by the chunk, a
// fixed cost that dominated small traces: a 30 MB trace peaked at 21 to 23
// MB with 1 MiB chunks and 14 to 15 MB with 128 KiB, at the same speed
// (docs/reader.md). A .json.gz's text is cut by the same rule: since the
// pipeline's waiters each have their own condition variable, smaller chunks
// cost its inflating load no time (docs/reader.md, "Chunks sized by the
// file").
std::size_t defaultChunkBytes(std::uint64_t textBytes, int parsers) {
  constexpr std::size_t kMost = 1u << 20;
  // Two parsers (two cores) keep one parser's chunk: on the 2-core VM half
  // of it made a 99 MB rank load 6 to 13 % slower (the hand-offs) for 2 to
  // 5 MB less.
  const int sharing = parsers <= 2 ? 1 : parsers;
  const std::uint64_t share = textBytes / 128 / static_cast<std::uint64_t>(sharing);
  std::size_t chunk = 64 << 10;
  while (chunk < kMost && std::uint64_t{chunk} * 2 <= share) chunk *= 2;
  return chunk;
}

namespace {

std::string describeUnknownPhases(const UnknownPhases& u, std::uint64_t* total, std::uint64_t* first) {
  std::string text = "events with a phase gapscope does not read, dropped:";
  *total = 0;
  *first = UINT64_MAX;
  for (std::size_t ph = 0; ph < u.count.size(); ++ph) {
    if (!u.count[ph]) continue;
    char buf[64];
    if (ph >= 0x20 && ph < 0x7f && ph != '?') std::snprintf(buf, sizeof buf, " '%c' x%llu", static_cast<char>(ph),
                                                          static_cast<unsigned long long>(u.count[ph]));
    else std::snprintf(buf, sizeof buf, " (not one character) x%llu", static_cast<unsigned long long>(u.count[ph]));
    text += buf;
    *total += u.count[ph];
    *first = std::min(*first, u.firstOffset[ph]);
  }
  return text;
}

void addTruncatedIssue(const PipelineResult& pr, ImportIssues& issues) {
  std::string what = "truncated at byte " + std::to_string(pr.truncatedAt) +
                     ": the file ends inside the trace (a profiler killed mid-write?); everything before the cut is loaded";
  if (pr.lastCompleteEnd) what += ", the last whole event ends at byte " + std::to_string(pr.lastCompleteEnd);
  if (pr.gzipEndedEarly) what += "; the gzip stream itself is cut short";
  issues.add("truncated", Severity::Error, pr.truncatedAt, what);
}

std::string positionedMessage(const std::string& name, LineColumn lc, std::uint64_t offset,
                              const std::string& message) {
  return name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) + " (byte " +
         std::to_string(offset) + "): " + message;
}

LoadResult finishLoad(ByteSource& source, PipelineResult pr, const std::string& name,
                      const std::shared_ptr<const ArgsSource>& fileArgs, int threads) {
  using O = PipelineResult::Outcome;
  LoadResult r;
  r.stats.chunks = pr.chunks;
  r.stats.rewalkedChunks = pr.rewalkedChunks;
  r.stats.parseSeconds = pr.seconds;
  if (pr.outcome == O::Cancelled) {
    r.cancelled = true;
    return r;
  }
  switch (pr.outcome) {
    case O::Malformed:
    case O::NotATrace:
      if (!pr.errorHasPosition) {
        r.error = name + ": " + pr.message;
      } else {
        r.error = positionedMessage(name, pr.errorAt, pr.errorOffset, pr.message);
      }
      break;
    case O::SourceError:
      r.error = name + ": " + pr.message;
      break;
    case O::Truncated:
      r.truncated = true;
      break;
    default:
      break;
  }
  if (!pr.eventsReached) return r;

  TraceBuilder& b = pr.builder;
  TraceMetadata& m = b.metadata();
  m.sourcePath = name;
  m.sourceBytes = source.storedSize();
  m.decompressedBytes = pr.decompressedBytes;
  for (const auto& entry : pr.entries) applyTopLevelEntry(entry, m, b.issues());
  std::uint64_t unknown = 0;
  std::uint64_t firstUnknown = 0;
  std::string phases = describeUnknownPhases(pr.unknownPhases, &unknown, &firstUnknown);
  if (unknown) b.issues().add("unknown_phase", Severity::Warning, firstUnknown, phases, unknown);
  if (r.truncated) addTruncatedIssue(pr, b.issues());
  std::shared_ptr<const ArgsSource> args = fileArgs ? fileArgs : makeArenaArgsSource(std::move(pr.arenas));
  const auto t0 = std::chrono::steady_clock::now();
  r.trace = b.finish(std::move(args), threads);
  r.stats.finishSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

int threadsFor(const LoadOptions& options, const ByteSource& source, std::uint64_t textBytes) {
  if (options.threads > 0) return options.threads;
  const int threads = parserThreadsFor(textBytes);
  // Inflating on the producer gives 550 to 700 MB/s of text, which three
  // parsers keep up with (one parses 350 MB/s on the 16-core host): more
  // would only hold more chunks.
  return source.compressed() ? std::min(threads, 4) : threads;
}

// The pipeline's settings for a source; its text's expected size is read
// once (a .json.gz reads it from its last bytes).
PipelineConfig configFor(const LoadOptions& options, const ByteSource& source, ArgsStorage storage) {
  PipelineConfig cfg;
  cfg.textBytes = source.expectedTextBytes();
  cfg.threads = threadsFor(options, source, cfg.textBytes);
  cfg.chunkBytes = options.chunkBytes ? options.chunkBytes : defaultChunkBytes(cfg.textBytes, cfg.threads);
  if (options.maxEventBytes) cfg.maxEventBytes = options.maxEventBytes;
  cfg.storage = storage;
  cfg.progress = options.progress;
  cfg.cancel = options.cancel;
  return cfg;
}

// Runs the pipeline, timed, once the load's size has decided on huge
// pages (heap_setup.h).
PipelineResult readEvents(ByteSource& source, const PipelineConfig& cfg) {
  allowHugePagesFor(cfg.textBytes);
  const auto t0 = std::chrono::steady_clock::now();
  PipelineResult pr = runPipeline(source, cfg);
  pr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return pr;
}

}  // namespace

LoadResult loadChromeTrace(const std::string& path, const LoadOptions& options) {
  std::string error;
  std::unique_ptr<ByteSource> source = openFileSource(path, &error);
  if (!source) {
    LoadResult r;
    r.error = path + ": " + error;
    return r;
  }
  const bool rereadable = source->rereadable();
  const PipelineConfig cfg = configFor(options, *source, rereadable ? ArgsStorage::SourceOffsets : ArgsStorage::Arena);
  PipelineResult pr = readEvents(*source, cfg);
  LoadResult r = finishLoad(*source, std::move(pr), path, source->argsByOffset(), cfg.threads);
  if (options.progress && !r.cancelled) options.progress(source->storedSize(), source->storedSize());
  return r;
}

LoadResult parseChromeTrace(std::string_view json, const LoadOptions& options, const std::string& name) {
  std::unique_ptr<ByteSource> source = openMemorySource(json);
  const PipelineConfig cfg = configFor(options, *source, ArgsStorage::Arena);
  PipelineResult pr = readEvents(*source, cfg);
  LoadResult r = finishLoad(*source, std::move(pr), name, nullptr, cfg.threads);
  if (options.progress && !r.cancelled) options.progress(source->storedSize(), source->storedSize());
  return r;
}

}  // namespace gapscope::io
