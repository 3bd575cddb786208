#include "chunk_pipeline.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "json_stream.h"
#include "json_text.h"
#include "segment_reader.h"
#include "text_buffer.h"

namespace gapscope::io {

namespace {

constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;
constexpr std::size_t npos = std::string_view::npos;

struct Chunk {
  std::uint64_t begin = 0;  // stream offset of the first text byte
  TextBuffer buf;
  std::size_t textLen = 0;
  std::size_t commaAt = npos;  // cut chunks: text index of the separating ','
  bool uncut = false;          // no cut found: the merger walks it exactly
  bool last = false;
  bool firstInArray = false;
  bool readByParser = false;  // its text is read by the thread that parses it
  bool unread = false;        // ... and reading it failed
  std::uint64_t storedConsumed = 0;
  // Set by a worker.
  bool parsed = false;
  FastParse fast;
  std::unique_ptr<ChunkOutput> out;
  ChunkLines lines;  // the text's newlines, counted beside the parse

  std::string_view text() const { return {buf.data() + 1, textLen}; }
};

class Pipeline {
 public:
  Pipeline(ByteSource& source, const PipelineConfig& config) : src_(source), cfg_(config) {
    if (cfg_.threads < 1) cfg_.threads = 1;
    if (cfg_.chunkBytes < 64) cfg_.chunkBytes = 64;
    // An event that fits a chunk is always read whole, so the window is at
    // least a chunk: whether an event is too large never depends on cuts.
    cfg_.maxEventBytes = std::max(cfg_.maxEventBytes, cfg_.chunkBytes);
    // Chunks are merged in file order, so one whose parse runs late holds
    // back every later one: room for one more chunk per parser beyond those
    // being parsed keeps the producer reading meanwhile. Not with two
    // parsers (two cores: no gain for its memory), nor below 128 MiB of
    // text (at 100 MB a few per cent for 1 % of the text in memory, where
    // the peak is at 0.35x); docs/reader.md, "Chunks in flight".
    const auto parsers = static_cast<std::size_t>(cfg_.threads);
    const bool deepWindow = parsers > 2 && cfg_.textBytes >= (std::uint64_t{128} << 20);
    maxInFlight_ = (deepWindow ? 2 * parsers : parsers) + 2;
  }

  PipelineResult run() {
    if (cfg_.threads == 1) runOnThisThread();
    else runOnThreads();
    using O = PipelineResult::Outcome;
    // Corrupt deflate data can inflate to garbage for a while before zlib
    // notices; a JSON error in compressed input is then only a symptom.
    if (result_.outcome == O::Malformed && src_.compressed() && producerError_.empty()) drainSource();
    result_.gzipEndedEarly = gzipEndedEarly_;
    // A read or gzip error ends the text early; say so rather than "truncated".
    if (!producerError_.empty() && result_.outcome != O::Cancelled) {
      result_.outcome = PipelineResult::Outcome::SourceError;
      result_.message = producerError_;
    }
    result_.decompressedBytes = streamEnd_;
    result_.rewalkedChunks = reader_.walks();
    return std::move(result_);
  }

 private:
  void runOnThreads() {
    std::thread producer([this] { produce(); });
    std::vector<std::thread> workers;
    for (int i = 0; i < cfg_.threads; ++i) workers.emplace_back([this] { work(); });
    try {
      merge();
    } catch (const std::bad_alloc&) {
      outOfMemory();
    }
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    roomCv_.notify_all();
    workCv_.notify_all();
    producer.join();
    for (auto& w : workers) w.join();
  }

  // One parser: the calling thread reads, parses and merges each chunk as
  // soon as it is cut, while it is still in cache, with no hand-offs. A set
  // of ranks reads each rank so, one per core (docs/ranks.md).
  void runOnThisThread() {
    EventParser parser;
    inlineParser_ = &parser;
    try {
      std::string carry;
      std::uint64_t begin = 0;
      readPrologue(&carry, &begin);
      if (!startEvents()) return;
      produceEvents(carry, begin);
      endEvents();
    } catch (const std::bad_alloc&) {
      outOfMemory();
    }
  }

  void outOfMemory() {
    result_.outcome = PipelineResult::Outcome::SourceError;
    result_.message = "out of memory";
  }

  // Hands a chunk just cut to the parsers, or with one parser parses and
  // merges it here; false once no more are wanted.
  bool queue(std::unique_ptr<Chunk> chunk) {
    {
      std::lock_guard lock(mu_);
      work_.push_back(chunk.get());
      produced_.push_back(std::move(chunk));
      ++inFlight_;
    }
    if (!inlineParser_) {
      workCv_.notify_one();
      return true;
    }
    // As the merger of the threaded pipeline does before each chunk.
    if (cancelled()) return false;
    Chunk* c = work_.front();
    work_.pop_front();
    parseChunk(*c, *inlineParser_);
    c->parsed = true;
    std::unique_ptr<Chunk> owned = std::move(produced_.front());
    produced_.pop_front();
    return mergeChunk(*owned);
  }

  // Reads on a little (1 MiB of compressed input or 16 MiB of text) so that
  // a gzip error that garbled the text is named rather than the JSON error
  // it caused; never the whole file, so an early error is reported early.
  void drainSource() {
    std::vector<char> scratch(64 << 10);
    const std::uint64_t until = src_.storedConsumed() + (1 << 20);
    std::uint64_t text = 0;
    while (!cancelled() && src_.storedConsumed() < until && text < (16 << 20)) {
      const std::size_t n = src_.read(scratch.data(), scratch.size());
      if (n == 0) break;
      text += n;
    }
    producerError_ = src_.error();
  }

  bool cancelled() const { return cfg_.cancel && cfg_.cancel->load(std::memory_order_relaxed); }

  std::unique_ptr<ChunkOutput> newOutput() {
    auto out = std::make_unique<ChunkOutput>();
    out->storage = cfg_.storage;
    out->arenaId = nextArenaId_.fetch_add(1);
    // Kineto events average ~350 bytes, slices ~70% of them, flow events
    // ~25%: size a chunk's arrays once rather than regrow them.
    out->builder.reserve(cfg_.chunkBytes / 400, cfg_.chunkBytes / 1200);
    return out;
  }

  // ---- producer ---------------------------------------------------------

  void produce() {
    try {
      std::string carry;
      std::uint64_t begin = 0;
      if (readPrologue(&carry, &begin)) produceEvents(carry, begin);
    } catch (const std::bad_alloc&) {
      std::lock_guard lock(mu_);
      if (producerError_.empty()) producerError_ = "out of memory while reading";
      // The merger waits for the prologue first: it is over, with no events.
      prologueReady_ = true;
    }
    std::lock_guard lock(mu_);
    producerDone_ = true;
    workCv_.notify_all();
    mergerCv_.notify_all();
  }

  // The events array, from `begin` (`carry`: its text already read).
  void produceEvents(const std::string& carry, std::uint64_t begin) {
    switch (eventsRead()) {
      case EventsRead::Mapped:
        return produceMapped(begin);
      case EventsRead::ByParsers:
        return produceRanges(begin);
      case EventsRead::ByProducer:
        return produceChunks(carry, begin);
    }
  }

  // Walks the top level as a stream until the events array starts; returns
  // false when it never does. `rest` gets the text read past the '['.
  bool readPrologue(std::string* rest, std::uint64_t* restBegin) {
    TopLevelStream walker(TopLevelMode::Start, 0);
    LineCounter lines;
    std::string piece(std::min<std::size_t>(64 << 10, cfg_.chunkBytes), '\0');
    std::uint64_t begin = 0;
    TopLevelStep s;
    LineColumn errorAt;
    bool eof = false;
    while (true) {
      const std::size_t n = src_.read(piece.data(), piece.size());
      eof = n == 0;
      const std::string_view text(piece.data(), n);
      s = walker.feed(text, eof);
      if (s.status == TopLevelStep::Status::NeedMore) {
        lines.advance(text, begin, begin + n);
        begin += n;
        continue;
      }
      if (s.status == TopLevelStep::Status::EventsStart) {
        lines.advance(text, begin, s.pos);
        rest->assign(text.substr(static_cast<std::size_t>(s.pos - begin)));
        *restBegin = s.pos;
      } else {
        errorAt = lines.at(text, begin, s.pos);
      }
      break;
    }
    std::lock_guard lock(mu_);
    prologue_ = std::move(s);
    prologueAt_ = errorAt;
    eventsLines_ = lines;
    prologueReady_ = true;
    if (!src_.error().empty()) producerError_ = src_.error();
    if (eof) streamEnd_ = begin;
    mergerCv_.notify_all();
    return prologue_.status == TopLevelStep::Status::EventsStart;
  }

  // Waits until fewer than maxInFlight_ chunks are in flight; false when the
  // load was stopped or cancelled meanwhile.
  bool waitForRoom() {
    {
      std::unique_lock lock(mu_);
      roomCv_.wait(lock, [&] { return stop_ || inFlight_ < maxInFlight_; });
      if (stop_) return false;
    }
    return !cancelled();
  }

  void produceChunks(const std::string& first, std::uint64_t begin) {
    TextBuffer buf = takeBuffer(std::max(cfg_.chunkBytes, first.size()));
    std::memcpy(buf.text(), first.data(), first.size());
    std::size_t filled = first.size();
    bool eof = false;
    bool firstChunk = true;
    while (true) {
      if (!waitForRoom()) return;
      const std::size_t target = std::max(cfg_.chunkBytes, filled);
      while (!eof && filled < target) {
        std::size_t n = src_.read(buf.text() + filled, target - filled);
        if (n == 0) eof = true;
        filled += n;
      }
      // No cut in a whole chunk (one big event, or no events at all): it
      // goes on uncut rather than growing the window.
      const std::size_t cut = eof ? npos : findEventSeparatorBackward(std::string_view(buf.text(), filled), filled);
      auto chunk = std::make_unique<Chunk>();
      chunk->begin = begin;
      chunk->firstInArray = firstChunk;
      chunk->storedConsumed = src_.storedConsumed();
      TextBuffer next;
      std::size_t carried = 0;
      if (eof || cut == npos) {
        chunk->textLen = filled;
        chunk->last = eof;
        chunk->uncut = !eof;
      } else {
        chunk->textLen = cut + 1;
        chunk->commaAt = cut;
        carried = filled - chunk->textLen;
        next = takeBuffer(std::max(cfg_.chunkBytes, carried));
        std::memcpy(next.text(), buf.text() + chunk->textLen, carried);
      }
      if (chunk->uncut) next = takeBuffer(cfg_.chunkBytes);
      chunk->buf = std::move(buf);
      begin += chunk->textLen;
      if (eof) {
        std::lock_guard lock(mu_);
        streamEnd_ = begin;
        if (!src_.error().empty()) producerError_ = src_.error();
        gzipEndedEarly_ = src_.endedEarly();
      }
      if (!queue(std::move(chunk)) || eof) return;
      buf = std::move(next);
      filled = carried;
      firstChunk = false;
    }
  }

  // Chunk buffers are recycled: fresh allocations would cost a page
  // fault and a zeroed page for every 4 KiB of text.
  TextBuffer takeBuffer(std::size_t capacity) {
    {
      std::lock_guard lock(mu_);
      for (auto it = pool_.begin(); it != pool_.end(); ++it) {
        if (it->textCapacity() >= capacity) {
          TextBuffer b = std::move(*it);
          pool_.erase(it);
          b.data()[0] = '[';
          return b;
        }
      }
    }
    return TextBuffer(capacity);
  }

  void giveBack(TextBuffer b) {
    if (!b || b.mapped()) return;
    std::lock_guard lock(mu_);
    // As many as can be in flight: with parsers taking buffers on many
    // threads, a smaller pool had them allocate (and fault in) fresh ones.
    if (pool_.size() < maxInFlight_) pool_.push_back(std::move(b));
  }

  enum class EventsRead { ByProducer, ByParsers, Mapped };

  // How the events' text is read. A plain file with more than one parser:
  // each parser reads its own chunk's text, which is then still in its
  // core's cache when it parses it; read by the producer, it came from
  // another core's (docs/reader.md, "Each parser reads its own text").
  // Otherwise (gzip, a pipe, text in memory, one parser) the producer reads
  // it. GAPSCOPE_READ_MODE, to compare: "producer" reads a plain file on the
  // producer, "map" maps each chunk (docs/reader.md, "Reading or mapping":
  // mapping and unmapping a chunk at a time cost more than the copy on both
  // machines measured).
  EventsRead eventsRead() const {
    if (src_.fileDescriptor() < 0 || src_.storedSize() == 0) return EventsRead::ByProducer;
    const char* set = std::getenv("GAPSCOPE_READ_MODE");
    const std::string_view mode = set ? set : "";
    if (mode == "map") return EventsRead::Mapped;
    if (inlineParser_ || mode == "producer") return EventsRead::ByProducer;
    return EventsRead::ByParsers;
  }

  // Plain files: each chunk maps its own copy-on-write view of the file (see
  // text_buffer.h), so the text is never copied; the last chunk, whose
  // padding may lie past the end of the file, is read.
  void produceMapped(std::uint64_t begin) {
    const int fd = src_.fileDescriptor();
    const std::uint64_t fileSize = src_.storedSize();
    produceFileChunks(begin, [&](Chunk& c, std::size_t length, bool last) {
      if (!last) c.buf = TextBuffer::mapFile(fd, fileSize, c.begin, length);
      if (!c.buf) c.buf = readAt(fd, c.begin, length);
      if (!c.buf) return kReadFailed;
      return last ? npos : findEventSeparatorBackward(std::string_view(c.buf.text(), length), length);
    });
  }

  // Plain files in chunks of cfg_.chunkBytes cut at their last separator.
  // `prepare(chunk, length, last)` readies the chunk's first `length` bytes
  // and returns the separator's index in them (npos: none, or the last
  // chunk; kReadFailed: stop, the error recorded).
  template <typename Prepare>
  void produceFileChunks(std::uint64_t begin, Prepare prepare) {
    const std::uint64_t fileSize = src_.storedSize();
    bool firstChunk = true;
    while (true) {
      if (!waitForRoom()) return;
      auto chunk = std::make_unique<Chunk>();
      chunk->begin = begin;
      chunk->firstInArray = firstChunk;
      chunk->last = begin + cfg_.chunkBytes >= fileSize;
      const std::size_t length = chunk->last ? static_cast<std::size_t>(fileSize - begin) : cfg_.chunkBytes;
      const std::size_t cut = prepare(*chunk, length, chunk->last);
      if (cut == kReadFailed) return;
      // No cut in a whole chunk: passed on uncut, never grown.
      chunk->uncut = !chunk->last && cut == npos;
      chunk->commaAt = cut;
      chunk->textLen = cut == npos ? length : cut + 1;
      begin += chunk->textLen;
      chunk->storedConsumed = begin;
      const bool last = chunk->last;
      if (last) {
        std::lock_guard lock(mu_);
        streamEnd_ = begin;
      }
      if (!queue(std::move(chunk)) || last) return;
      firstChunk = false;
    }
  }

  static constexpr std::size_t kReadFailed = npos - 1;

  // Reads file bytes [offset, offset + length) into a heap buffer; on a
  // read error records it and returns an empty buffer.
  TextBuffer readAt(int fd, std::uint64_t offset, std::size_t length) {
    TextBuffer b(length);
    if (!readInto(fd, offset, b.text(), length)) return TextBuffer();
    return b;
  }

  // False (the error recorded) when the bytes could not all be read.
  bool readInto(int fd, std::uint64_t offset, char* into, std::size_t length) {
    std::size_t done = 0;
    while (done < length) {
      ssize_t r = ::pread(fd, into + done, length - done, static_cast<off_t>(offset + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        std::lock_guard lock(mu_);
        if (producerError_.empty()) {
          producerError_ = r == 0 ? fileGotShorterAt(offset + done) : readErrorAt(offset + done, errno);
        }
        return false;
      }
      done += static_cast<std::size_t>(r);
    }
    return true;
  }

  // The producer only finds where each chunk ends, reading the last bytes
  // before its nominal end (more, up to the whole chunk, until a cut is
  // found); the parser reads the rest.
  void produceRanges(std::uint64_t begin) {
    const int fd = src_.fileDescriptor();
    // Room for a whole chunk, touched only as far as it is read.
    const std::unique_ptr<char[]> window(new char[cfg_.chunkBytes]);
    produceFileChunks(begin, [&](Chunk& c, std::size_t length, bool last) {
      c.readByParser = true;
      return last ? npos : cutByReadingTail(fd, c.begin, length, window.get());
    });
  }

  // The last event separator in file bytes [begin, begin + want), as an
  // index from begin; npos when there is none, kReadFailed on a read error.
  // The bytes are read into window[0, want) from the end backwards, each
  // only once, as the look widens.
  std::size_t cutByReadingTail(int fd, std::uint64_t begin, std::size_t want, char* window) {
    std::size_t have = 0;  // bytes already read at the window's end
    std::size_t size = std::min<std::size_t>(want, 16 << 10);
    while (true) {
      const std::size_t from = want - size;
      if (!readInto(fd, begin + from, window + from, size - have)) return kReadFailed;
      const std::size_t at = findEventSeparatorBackward(std::string_view(window + from, size), size);
      if (at != npos) return from + at;
      if (size == want) return npos;
      have = size;
      size = std::min(want, size * 8);
    }
  }

  // A parser's read of its chunk; false (the chunk marked unread, the error
  // recorded as the producer's) when it could not be read.
  bool readChunkText(Chunk& c) {
    try {
      c.buf = takeBuffer(std::max(cfg_.chunkBytes, c.textLen));
      if (readInto(src_.fileDescriptor(), c.begin, c.buf.text(), c.textLen)) return true;
    } catch (const std::bad_alloc&) {
      std::lock_guard lock(mu_);
      if (producerError_.empty()) producerError_ = "out of memory while reading";
    }
    c.unread = true;
    return false;
  }

  // ---- workers ------------------------------------------------------------

  void work() {
    EventParser parser;
    while (true) {
      Chunk* c = nullptr;
      {
        std::unique_lock lock(mu_);
        workCv_.wait(lock, [&] { return stop_ || !work_.empty() || producerDone_; });
        if (work_.empty()) return;
        c = work_.front();
        work_.pop_front();
        if (stop_) {
          c->parsed = true;
          continue;
        }
      }
      parseChunk(*c, parser);
      {
        std::lock_guard lock(mu_);
        c->parsed = true;
      }
      mergerCv_.notify_one();
    }
  }

  void parseChunk(Chunk& c, EventParser& parser) {
    try {
      if (c.readByParser && !readChunkText(c)) return;
      if (!cancelled() && !c.uncut && !afterEvents_.load(std::memory_order_relaxed)) parseFast(c, parser);
    } catch (const std::bad_alloc&) {
      c.fast = FastParse{};
      c.fast.error = "out of memory";
    }
  }

  void parseFast(Chunk& c, EventParser& parser) {
    c.out = newOutput();
    char* d = c.buf.data();
    const std::size_t len = lengthToParse(d, c.textLen, c.commaAt);
    if (c.commaAt != npos) d[1 + c.commaAt] = ']';
    c.fast = parser.parse(d, len, c.buf.allocated(), c.begin - 1, *c.out);
    if (c.commaAt != npos) d[1 + c.commaAt] = ',';
    // Here rather than on the merger, which bounds a big load on many
    // cores (docs/reader.md, "Parser threads").
    c.lines = ChunkLines::count(c.text());
  }

  // ---- merger (calling thread) ----------------------------------------------

  void merge() {
    {
      std::unique_lock lock(mu_);
      mergerCv_.wait(lock, [&] { return prologueReady_; });
    }
    if (!startEvents()) return;
    while (true) {
      std::unique_ptr<Chunk> c = nextParsedChunk();
      if (!c || !mergeChunk(*c)) break;
    }
    endEvents();
  }

  // After the prologue: false when the top level holds no events array.
  bool startEvents() {
    for (auto& e : prologue_.entries) result_.entries.push_back(std::move(e));
    if (prologue_.status != TopLevelStep::Status::EventsStart) {
      finishWithoutEvents();
      return false;
    }
    result_.eventsReached = true;
    bareArray_ = prologue_.bareArray;
    eventsStart_ = prologue_.pos;
    lines_ = eventsLines_;
    return true;
  }

  // False once the merge is done (an error, or the text after the events read).
  bool mergeChunk(Chunk& c) {
    handleChunk(c);
    {
      std::lock_guard lock(mu_);
      --inFlight_;
    }
    roomCv_.notify_one();
    if (cfg_.progress) cfg_.progress(c.storedConsumed, src_.storedSize());
    return !done_;
  }

  void endEvents() {
    result_.builder.issues().merge(mergerIssues_);
    if (done_) return;
    if (cancelled()) {
      result_.outcome = PipelineResult::Outcome::Cancelled;
      return;
    }
    // The last chunk decides the outcome; without one the text ended early.
    truncated(streamEnd_);
  }

  void finishWithoutEvents() {
    using S = TopLevelStep::Status;
    if (prologue_.status == S::Truncated) {
      result_.outcome = PipelineResult::Outcome::Truncated;
      result_.truncatedAt = prologue_.pos;
      result_.eventsReached = true;  // an empty trace with whatever metadata came first
    } else {
      result_.outcome = PipelineResult::Outcome::NotATrace;
      result_.errorOffset = prologue_.pos;
      result_.errorAt = prologueAt_;
      result_.errorHasPosition = prologue_.positioned;
      result_.message = prologue_.message;
    }
  }

  std::unique_ptr<Chunk> nextParsedChunk() {
    std::unique_lock lock(mu_);
    while (true) {
      if (cancelled()) return nullptr;
      if (!produced_.empty() && produced_.front()->parsed) {
        auto c = std::move(produced_.front());
        produced_.pop_front();
        return c;
      }
      if (produced_.empty() && producerDone_) return nullptr;
      // Wake now and then to notice cancellation.
      mergerCv_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  void handleChunk(Chunk& c) {
    ++result_.chunks;
    if (c.unread) {
      // The read error is the producer's error: everything before is kept.
      done_ = true;
      return;
    }
    if (tailMode_) {
      feedTail(c.text(), c.begin, c.last);
      lines_.advance(c.text(), c.begin, c.begin + c.textLen);
    } else {
      readEvents(c);
    }
    c.out.reset();
    giveBack(std::move(c.buf));
  }

  void readEvents(Chunk& c) {
    std::string_view text = c.text();
    std::uint64_t begin = c.begin;
    std::size_t commaAt = c.commaAt;
    StretchStart start = c.firstInArray ? StretchStart::FirstInArray : StretchStart::AfterComma;
    if (carryActive_ && !bigEvent_ && !carry_.empty() && carry_.size() + text.size() > bigEventThreshold()) {
      startBigEvent();
    }
    if (done_) return;
    if (bigEvent_) {
      std::size_t end = 0;
      if (!feedBigEvent(text, begin, c.last, &end)) return;
      if (bigEventDropped_) {
        // Read on after the dropped event.
        carryActive_ = false;
        text = text.substr(end);
        begin += end;
        commaAt = commaAt != npos && commaAt >= end ? commaAt - end : npos;
        start = StretchStart::AfterEvent;
      }
    }
    Segment seg;
    std::string joined;
    if (carryActive_) {
      // The previous stretch ended inside an event (a wrong cut, or none):
      // parse again from its start.
      joined = carry_ + std::string(text);
      text = joined;
      begin = carryBegin_;
      commaAt = commaAt == npos ? npos : carry_.size() + commaAt;
      start = carryStart_;
      carryActive_ = false;
      std::string().swap(carry_);
      seg = reader_.parseText(text, begin, commaAt, c.last, start);
    } else if (text.data() == c.text().data() && c.fast.ok) {
      seg = interpretFast(c.fast, commaAt);
      seg.outputs.push_back(std::move(c.out));
    } else {
      seg = reader_.walkExactly(text, begin, c.last, start);
    }
    apply(seg, text, begin, c.last);
    // Lines are counted up to what may be read again (a carried event).
    if (done_) return;
    const std::uint64_t upTo = carryActive_ ? carryBegin_ : begin + text.size();
    if (c.lines.counted && text.data() == c.text().data() && upTo == begin + text.size()) {
      lines_.skipCounted(text, begin, c.lines);
    } else {
      lines_.advance(text, begin, upTo);
    }
  }

  // A carried event longer than this is checked as a stream rather than
  // parsed again with every chunk (which would be quadratic in its size).
  std::size_t bigEventThreshold() const { return std::min(4 * cfg_.chunkBytes, cfg_.maxEventBytes); }

  void startBigEvent() {
    bigScan_.reset();
    JsonValueStream::Result r = bigScan_.feed(carry_);
    if (r.status == JsonValueStream::Result::Status::Error) {
      malformed(carry_, carryBegin_, r.pos, r.message);
      return;
    }
    // A carried event is incomplete by construction; if the stream says
    // otherwise, the ordinary path reads it.
    if (r.status == JsonValueStream::Result::Status::Done) return;
    bigEvent_ = true;
    bigEventDropped_ = false;
    lines_.advance(carry_, carryBegin_, carryBegin_ + carry_.size());
  }

  // Feeds a chunk to the big event. True when the event ends in it, at
  // text index `*end`; false while it goes on (or on an error).
  bool feedBigEvent(std::string_view text, std::uint64_t begin, bool last, std::size_t* end) {
    using R = JsonValueStream::Result::Status;
    JsonValueStream::Result r = bigScan_.feed(text);
    if (r.status == R::Error) {
      malformed(text, begin, r.pos, r.message);
      return false;
    }
    const std::size_t used = r.status == R::Done ? r.pos : text.size();
    lines_.advance(text, begin, begin + used);
    if (!bigEventDropped_ && carry_.size() + used > cfg_.maxEventBytes) dropBigEvent();
    if (r.status == R::NeedMore) {
      if (!bigEventDropped_) carry_.append(text);
      if (last) truncated(begin + text.size());
      return false;
    }
    bigEvent_ = false;
    *end = r.pos;
    return true;
  }

  void dropBigEvent() {
    bigEventDropped_ = true;
    std::string().swap(carry_);
    mergerIssues_.add("event_too_large", Severity::Warning, carryBegin_,
                      "an event larger than " + std::to_string(cfg_.maxEventBytes >> 20) +
                          " MiB (the most the reader holds at once): checked and dropped");
  }

  void feedTail(std::string_view text, std::uint64_t begin, bool eof) {
    TopLevelStep s = tail_->feed(text, eof);
    using S = TopLevelStep::Status;
    if (s.status == S::NeedMore) return;
    for (auto& e : s.entries) result_.entries.push_back(std::move(e));
    if (s.status == S::Truncated) {
      truncated(s.pos);
    } else if (s.status == S::Error) {
      malformed(text, begin, static_cast<std::size_t>(s.pos - begin), s.message);
    }
    done_ = true;
  }

  void malformed(std::string_view text, std::uint64_t begin, std::size_t pos, std::string message) {
    result_.outcome = PipelineResult::Outcome::Malformed;
    result_.errorOffset = begin + pos;
    result_.errorAt = lines_.at(text, begin, begin + pos);
    result_.message = std::move(message);
    done_ = true;
  }

  void truncated(std::uint64_t at, std::uint64_t lastCompleteEnd = 0) {
    result_.outcome = PipelineResult::Outcome::Truncated;
    result_.truncatedAt = at;
    if (lastCompleteEnd) result_.lastCompleteEnd = lastCompleteEnd;
    done_ = true;
  }

  void apply(Segment& seg, std::string_view text, std::uint64_t begin, bool last) {
    for (auto& out : seg.outputs) absorb(*out, begin + text.size());
    switch (seg.kind) {
      case Segment::Kind::CutOk:
        break;
      case Segment::Kind::ArrayEnd: {
        afterEvents_.store(true, std::memory_order_relaxed);
        tailMode_ = true;
        const std::uint64_t tailBegin = begin + seg.pos + 1;
        lines_.advance(text, begin, tailBegin);
        tail_ = std::make_unique<TopLevelStream>(
            bareArray_ ? TopLevelMode::AfterBareArray : TopLevelMode::AfterEventsInObject, tailBegin);
        feedTail(text.substr(seg.pos + 1), tailBegin, last);
        break;
      }
      case Segment::Kind::BadCut:
        carryActive_ = true;
        carry_.assign(text.substr(seg.pos));
        carryBegin_ = begin + seg.pos;
        carryStart_ = seg.carryStart;
        break;
      case Segment::Kind::Truncated:
        truncated(begin + text.size(), seg.lastCompleteEnd ? begin + seg.lastCompleteEnd : 0);
        break;
      case Segment::Kind::Malformed:
        malformed(text, begin, seg.pos, std::move(seg.message));
        break;
    }
  }

  void absorb(ChunkOutput& out, std::uint64_t textEnd) {
    out.builder.countEvents(out.events);
    if (!merged_) {
      result_.builder = std::move(out.builder);
      merged_ = true;
      reserveFromFirstChunk(out, textEnd);
    } else {
      result_.builder.merge(std::move(out.builder));
    }
    result_.unknownPhases.merge(out.unknownPhases);
    if (cfg_.storage == ArgsStorage::Arena) {
      if (result_.arenas.size() <= out.arenaId) result_.arenas.resize(out.arenaId + 1);
      result_.arenas[out.arenaId] = std::move(out.arena);
    }
  }

  // Sizes the merged arrays once, from the first chunk's density and the
  // expected text size, so they are not regrown (and briefly held twice)
  // while hundreds of chunks are merged. Reserved but untouched capacity
  // costs no memory, so the estimate leans high.
  void reserveFromFirstChunk(const ChunkOutput& first, std::uint64_t textEnd) {
    const std::uint64_t total = cfg_.textBytes;
    const std::uint64_t sample = textEnd > eventsStart_ ? textEnd - eventsStart_ : 0;
    if (total <= textEnd || sample < 4096) return;
    auto estimate = [&](std::uint64_t n) {
      const double scaled = static_cast<double>(n) * static_cast<double>(total) / static_cast<double>(sample) * 1.25;
      // No event is shorter than ~32 bytes of JSON.
      return static_cast<std::size_t>(std::min(scaled, static_cast<double>(total / 32)));
    };
    result_.builder.reserve(estimate(first.slices), estimate(first.flowEvents));
  }

  ByteSource& src_;
  PipelineConfig cfg_;
  std::size_t maxInFlight_;

  std::mutex mu_;
  // One for each kind of waiter, each woken for what it waits for: with one
  // for all, every chunk woke every thread (sixteen on 16 cores) three
  // times over.
  std::condition_variable roomCv_;    // the producer: a chunk's room
  std::condition_variable workCv_;    // the parsers: a chunk to parse
  std::condition_variable mergerCv_;  // the merger: the prologue, a chunk parsed
  std::deque<std::unique_ptr<Chunk>> produced_;  // in file order, not yet merged
  std::deque<Chunk*> work_;                      // not yet parsed
  std::vector<TextBuffer> pool_;                 // merged chunks' buffers, for reuse
  std::size_t inFlight_ = 0;
  bool stop_ = false;
  bool producerDone_ = false;
  bool prologueReady_ = false;
  TopLevelStep prologue_;
  LineColumn prologueAt_;    // where a prologue error is
  LineCounter eventsLines_;  // lines counted up to the events
  std::atomic<bool> afterEvents_{false};  // the events array has ended: chunks are not parsed
  std::string producerError_;
  bool gzipEndedEarly_ = false;
  std::uint64_t streamEnd_ = 0;
  std::atomic<std::uint32_t> nextArenaId_{0};
  EventParser* inlineParser_ = nullptr;  // set when the calling thread parses too

  // Merger state.
  SegmentReader reader_{[this] { return newOutput(); }};
  PipelineResult result_;
  bool merged_ = false;
  bool done_ = false;
  bool bareArray_ = false;
  std::uint64_t eventsStart_ = 0;
  LineCounter lines_;
  ImportIssues mergerIssues_;
  bool tailMode_ = false;
  std::unique_ptr<TopLevelStream> tail_;
  bool carryActive_ = false;
  StretchStart carryStart_ = StretchStart::AfterComma;
  std::string carry_;
  std::uint64_t carryBegin_ = 0;
  bool bigEvent_ = false;         // the carried event is being checked as a stream
  bool bigEventDropped_ = false;  // ... and is over maxEventBytes: not held
  JsonValueStream bigScan_;
};

}  // namespace

PipelineResult runPipeline(ByteSource& source, const PipelineConfig& config) {
  return Pipeline(source, config).run();
}

}  // namespace gapscope::io
