#include "chunk_pipeline.h"

#include <simdjson.h>

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
  bool last = false;
  bool firstInArray = false;
  std::uint64_t storedConsumed = 0;
  // Set by a worker.
  bool parsed = false;
  FastParse fast;
  std::unique_ptr<ChunkOutput> out;

  std::string_view text() const { return {buf.data() + 1, textLen}; }
};

class Pipeline {
 public:
  Pipeline(ByteSource& source, const PipelineConfig& config) : src_(source), cfg_(config) {
    if (cfg_.threads < 1) cfg_.threads = 1;
    if (cfg_.chunkBytes < 64) cfg_.chunkBytes = 64;
    maxInFlight_ = static_cast<std::size_t>(cfg_.threads) + 2;
  }

  PipelineResult run() {
    std::thread producer([this] { produce(); });
    std::vector<std::thread> workers;
    for (int i = 0; i < cfg_.threads; ++i) workers.emplace_back([this] { work(); });
    try {
      merge();
    } catch (const std::bad_alloc&) {
      result_.outcome = PipelineResult::Outcome::SourceError;
      result_.message = "out of memory";
    }
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    producer.join();
    for (auto& w : workers) w.join();
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
  void drainSource() {
    std::vector<char> scratch(1 << 20);
    while (!cancelled() && src_.read(scratch.data(), scratch.size()) > 0) {
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
      if (readPrologue(&carry, &begin)) {
        if (useMapping()) produceMapped(begin);
        else produceChunks(carry, begin);
      }
    } catch (const std::bad_alloc&) {
      producerError_ = "out of memory while reading";
    }
    std::lock_guard lock(mu_);
    producerDone_ = true;
    cv_.notify_all();
  }

  // Reads until the events array starts. Returns false when it never does.
  bool readPrologue(std::string* rest, std::uint64_t* restBegin) {
    std::string head;
    std::size_t step = std::min<std::size_t>(64 << 10, cfg_.chunkBytes);
    bool eof = false;
    TopLevelStep s;
    while (true) {
      std::size_t old = head.size();
      head.resize(old + step);
      std::size_t n = src_.read(head.data() + old, step);
      head.resize(old + n);
      eof = n == 0;
      s = walkTopLevel(head, TopLevelMode::Start, eof, 0);
      if (s.status != TopLevelStep::Status::NeedMore || eof) break;
      step = std::min(step * 2, cfg_.chunkBytes);
    }
    std::lock_guard lock(mu_);
    prologue_ = std::move(s);
    prologueReady_ = true;
    if (!src_.error().empty()) producerError_ = src_.error();
    if (eof) streamEnd_ = head.size();
    cv_.notify_all();
    if (prologue_.status != TopLevelStep::Status::EventsStart) return false;
    rest->assign(head, prologue_.pos);
    *restBegin = prologue_.pos;
    return true;
  }

  // Waits until fewer than maxInFlight_ chunks are in flight; false when the
  // load was stopped or cancelled meanwhile.
  bool waitForRoom() {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || inFlight_ < maxInFlight_; });
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
      std::size_t target = std::max(cfg_.chunkBytes, filled);
      std::size_t cut = npos;
      while (true) {
        while (!eof && filled < target) {
          std::size_t n = src_.read(buf.text() + filled, target - filled);
          if (n == 0) eof = true;
          filled += n;
        }
        if (eof) break;
        cut = findEventSeparatorBackward(std::string_view(buf.text(), filled), filled);
        if (cut != npos) break;
        // One event bigger than the buffer: read on.
        target *= 2;
        buf.grow(target, filled);
      }
      auto chunk = std::make_unique<Chunk>();
      chunk->begin = begin;
      chunk->firstInArray = firstChunk;
      chunk->storedConsumed = src_.storedConsumed();
      TextBuffer next;
      std::size_t carried = 0;
      if (eof) {
        chunk->textLen = filled;
        chunk->last = true;
      } else {
        chunk->textLen = cut + 1;
        chunk->commaAt = cut;
        carried = filled - chunk->textLen;
        next = takeBuffer(std::max(cfg_.chunkBytes, carried));
        std::memcpy(next.text(), buf.text() + chunk->textLen, carried);
      }
      chunk->buf = std::move(buf);
      begin += chunk->textLen;
      {
        std::lock_guard lock(mu_);
        if (eof) {
          streamEnd_ = begin;
          if (!src_.error().empty()) producerError_ = src_.error();
          gzipEndedEarly_ = src_.endedEarly();
        }
        work_.push_back(chunk.get());
        produced_.push_back(std::move(chunk));
        ++inFlight_;
      }
      cv_.notify_all();
      if (eof) return;
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
    if (pool_.size() < 2) pool_.push_back(std::move(b));
  }

  // GAPSCOPE_READ_MODE=read turns mapping off (to compare, or where mmap misbehaves).
  bool useMapping() const {
    const char* mode = std::getenv("GAPSCOPE_READ_MODE");
    if (mode && std::string_view(mode) == "read") return false;
    return src_.fileDescriptor() >= 0 && src_.storedSize() > 0;
  }

  // Plain files: each chunk maps its own copy-on-write view of the file (see
  // text_buffer.h), so the text is never copied; the last chunk, whose
  // padding may lie past the end of the file, is read.
  void produceMapped(std::uint64_t begin) {
    const int fd = src_.fileDescriptor();
    const std::uint64_t fileSize = src_.storedSize();
    bool firstChunk = true;
    while (true) {
      if (!waitForRoom()) return;
      auto chunk = std::make_unique<Chunk>();
      chunk->begin = begin;
      chunk->firstInArray = firstChunk;
      std::size_t want = cfg_.chunkBytes;
      std::size_t cut = npos;
      while (begin + want < fileSize) {
        chunk->buf = TextBuffer::mapFile(fd, fileSize, begin, want);
        if (!chunk->buf) chunk->buf = readAt(fd, begin, want);
        if (!chunk->buf) return;
        cut = findEventSeparatorBackward(std::string_view(chunk->buf.text(), want), want);
        if (cut != npos) break;
        want *= 2;  // one event bigger than the chunk
      }
      if (cut == npos) {
        chunk->buf = readAt(fd, begin, static_cast<std::size_t>(fileSize - begin));
        if (!chunk->buf) return;
        chunk->textLen = static_cast<std::size_t>(fileSize - begin);
        chunk->last = true;
      } else {
        chunk->textLen = cut + 1;
        chunk->commaAt = cut;
      }
      begin += chunk->textLen;
      chunk->storedConsumed = begin;
      const bool last = chunk->last;
      {
        std::lock_guard lock(mu_);
        if (last) streamEnd_ = begin;
        work_.push_back(chunk.get());
        produced_.push_back(std::move(chunk));
        ++inFlight_;
      }
      cv_.notify_all();
      if (last) return;
      firstChunk = false;
    }
  }

  // Reads file bytes [offset, offset + length) into a heap buffer; on a
  // read error records it and returns an empty buffer.
  TextBuffer readAt(int fd, std::uint64_t offset, std::size_t length) {
    TextBuffer b(length);
    std::size_t done = 0;
    while (done < length) {
      ssize_t r = ::pread(fd, b.text() + done, length - done, static_cast<off_t>(offset + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        std::lock_guard lock(mu_);
        producerError_ = "read error at byte " + std::to_string(offset + done) +
                         (r == 0 ? ": the file got shorter while loading" : std::string(": ") + std::strerror(errno));
        return TextBuffer();
      }
      done += static_cast<std::size_t>(r);
    }
    return b;
  }

  // ---- workers ------------------------------------------------------------

  void work() {
    EventParser parser;
    while (true) {
      Chunk* c = nullptr;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !work_.empty() || producerDone_; });
        if (work_.empty()) return;
        c = work_.front();
        work_.pop_front();
        if (stop_) {
          c->parsed = true;
          continue;
        }
      }
      try {
        if (!cancelled()) parseFast(*c, parser);
      } catch (const std::bad_alloc&) {
        c->fast = FastParse{};
        c->fast.error = "out of memory";
      }
      {
        std::lock_guard lock(mu_);
        c->parsed = true;
      }
      cv_.notify_all();
    }
  }

  void parseFast(Chunk& c, EventParser& parser) {
    c.out = newOutput();
    char* d = c.buf.data();
    const std::size_t len = lengthToParse(d, c.textLen, c.commaAt);
    if (c.commaAt != npos) d[1 + c.commaAt] = ']';
    c.fast = parser.parse(d, len, c.buf.allocated(), c.begin - 1, *c.out);
    if (c.commaAt != npos) d[1 + c.commaAt] = ',';
  }

  // ---- merger (calling thread) ----------------------------------------------

  void merge() {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return prologueReady_; });
    }
    for (auto& e : prologue_.entries) result_.entries.push_back(std::move(e));
    if (prologue_.status != TopLevelStep::Status::EventsStart) {
      finishWithoutEvents();
      return;
    }
    result_.eventsReached = true;
    bareArray_ = prologue_.bareArray;
    eventsStart_ = prologue_.pos;
    while (true) {
      std::unique_ptr<Chunk> c = nextParsedChunk();
      if (!c) break;
      handleChunk(*c);
      {
        std::lock_guard lock(mu_);
        --inFlight_;
      }
      cv_.notify_all();
      if (cfg_.progress) cfg_.progress(c->storedConsumed, src_.storedSize());
      if (done_) return;
    }
    if (cancelled()) {
      result_.outcome = PipelineResult::Outcome::Cancelled;
      return;
    }
    finishAtEnd();
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
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  void handleChunk(Chunk& c) {
    ++result_.chunks;
    if (tailMode_) {
      tail_.append(c.text());
      return;
    }
    Segment seg;
    std::string_view text = c.text();
    std::uint64_t begin = c.begin;
    std::string joined;
    if (carryActive_) {
      // The previous cut fell inside an event: parse again from its start.
      joined = carry_ + std::string(text);
      text = joined;
      begin = carryBegin_;
      std::size_t commaAt = c.commaAt == npos ? npos : carry_.size() + c.commaAt;
      carryActive_ = false;
      carry_.clear();
      seg = reader_.parseText(text, begin, commaAt, c.last, carryFirstInArray_);
    } else if (c.fast.ok) {
      seg = interpretFast(c.fast, c.commaAt);
      seg.outputs.push_back(std::move(c.out));
    } else {
      seg = reader_.walkExactly(text, begin, c.last, c.firstInArray);
    }
    c.out.reset();
    apply(seg, text, begin, c.firstInArray);
    giveBack(std::move(c.buf));
  }

  void apply(Segment& seg, std::string_view text, std::uint64_t begin, bool firstInArray) {
    for (auto& out : seg.outputs) absorb(*out, begin + text.size());
    switch (seg.kind) {
      case Segment::Kind::CutOk:
        break;
      case Segment::Kind::ArrayEnd:
        tailMode_ = true;
        tail_.assign(text.substr(seg.pos + 1));
        tailBegin_ = begin + seg.pos + 1;
        break;
      case Segment::Kind::BadCut:
        carryActive_ = true;
        carry_.assign(text.substr(seg.pos));
        carryBegin_ = begin + seg.pos;
        carryFirstInArray_ = firstInArray && seg.pos == skipSpaces(text, 0);
        break;
      case Segment::Kind::Truncated:
        result_.outcome = PipelineResult::Outcome::Truncated;
        result_.truncatedAt = begin + text.size();
        if (seg.lastCompleteEnd) result_.lastCompleteEnd = begin + seg.lastCompleteEnd;
        done_ = true;
        break;
      case Segment::Kind::Malformed:
        result_.outcome = PipelineResult::Outcome::Malformed;
        result_.errorOffset = begin + seg.pos;
        result_.message = seg.message;
        done_ = true;
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
    const std::uint64_t total = src_.expectedTextBytes();
    const std::uint64_t sample = textEnd > eventsStart_ ? textEnd - eventsStart_ : 0;
    if (total <= textEnd || sample < 4096) return;
    auto estimate = [&](std::uint64_t n) {
      const double scaled = static_cast<double>(n) * static_cast<double>(total) / static_cast<double>(sample) * 1.25;
      // No event is shorter than ~32 bytes of JSON.
      return static_cast<std::size_t>(std::min(scaled, static_cast<double>(total / 32)));
    };
    result_.builder.reserve(estimate(first.slices), estimate(first.flowEvents));
  }

  void finishAtEnd() {
    if (carryActive_) {
      // Cannot happen with a well-behaved producer (the last chunk is never
      // cut); treat it as the end of the text.
      result_.outcome = PipelineResult::Outcome::Truncated;
      result_.truncatedAt = streamEnd_;
      return;
    }
    if (!tailMode_) {
      result_.outcome = PipelineResult::Outcome::Truncated;
      result_.truncatedAt = streamEnd_;
      return;
    }
    TopLevelStep s = walkTopLevel(tail_, bareArray_ ? TopLevelMode::AfterBareArray : TopLevelMode::AfterEventsInObject,
                                  /*eof=*/true, tailBegin_);
    for (auto& e : s.entries) result_.entries.push_back(std::move(e));
    if (s.status == TopLevelStep::Status::Truncated) {
      result_.outcome = PipelineResult::Outcome::Truncated;
      result_.truncatedAt = tailBegin_ + tail_.size();
    } else if (s.status == TopLevelStep::Status::Error) {
      result_.outcome = PipelineResult::Outcome::Malformed;
      result_.errorOffset = tailBegin_ + s.pos;
      result_.message = s.message;
    }
  }

  ByteSource& src_;
  PipelineConfig cfg_;
  std::size_t maxInFlight_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Chunk>> produced_;  // in file order, not yet merged
  std::deque<Chunk*> work_;                      // not yet parsed
  std::vector<TextBuffer> pool_;                 // merged chunks' buffers, for reuse
  std::size_t inFlight_ = 0;
  bool stop_ = false;
  bool producerDone_ = false;
  bool prologueReady_ = false;
  TopLevelStep prologue_;
  std::string producerError_;
  bool gzipEndedEarly_ = false;
  std::uint64_t streamEnd_ = 0;
  std::atomic<std::uint32_t> nextArenaId_{0};

  // Merger state.
  SegmentReader reader_{[this] { return newOutput(); }};
  PipelineResult result_;
  bool merged_ = false;
  bool done_ = false;
  bool bareArray_ = false;
  std::uint64_t eventsStart_ = 0;
  bool tailMode_ = false;
  std::string tail_;
  std::uint64_t tailBegin_ = 0;
  bool carryActive_ = false;
  bool carryFirstInArray_ = false;
  std::string carry_;
  std::uint64_t carryBegin_ = 0;
};

}  // namespace

PipelineResult runPipeline(ByteSource& source, const PipelineConfig& config) {
  return Pipeline(source, config).run();
}

}  // namespace gapscope::io
