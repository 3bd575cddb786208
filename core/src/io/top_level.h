// The top level of a Chrome trace file: either a bare array of events, or an
// object whose "traceEvents" member is that array, with other members
// (deviceProperties, displayTimeUnit, ...) before or after it. Walked
// exactly, since the fast parser sees only the events, and as a stream:
// the text is fed piece by piece, each byte is looked at once, and only
// members up to 1 MiB are kept, so a member of any size (Chrome's
// systemTraceEvents, a file of white space) costs linear time and bounded
// memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/import_issues.h"
#include "gapscope/model/trace.h"
#include "json_stream.h"

namespace gapscope::io {

// Top-level members (keys or values) bigger than this are not kept.
inline constexpr std::size_t kMaxKeptTopLevelBytes = std::size_t{1} << 20;

struct TopLevelEntry {
  std::string key;       // unescaped
  std::string raw;       // the value as written; empty when `skipped`
  std::uint64_t offset;  // of the key, in the decompressed stream
  bool skipped = false;  // the key or the value was over kMaxKeptTopLevelBytes
};

enum class TopLevelMode {
  Start,                // from the first byte of the file
  AfterEventsInObject,  // just after the traceEvents array, inside the object
  AfterBareArray,       // just after a bare top-level array
};

struct TopLevelStep {
  enum class Status {
    NeedMore,     // the text ends before anything could be decided
    EventsStart,  // `pos` is the first byte inside the events array
    Finished,     // the whole top level was read
    Error,        // `pos`, `message` say where and what
    Truncated,    // eof inside the top level
  };
  Status status = Status::NeedMore;
  std::uint64_t pos = 0;  // a stream offset
  std::string message;
  bool positioned = true;  // false when `pos` means nothing (an empty file)
  bool bareArray = false;
  std::vector<TopLevelEntry> entries;  // members other than traceEvents, in order
};

// Walks the top level as its text arrives.
class TopLevelStream {
 public:
  // `base`: the stream offset of the first byte that will be fed.
  TopLevelStream(TopLevelMode mode, std::uint64_t base);
  // Feeds the next piece of text (`eof`: nothing follows it). Returns
  // NeedMore until the walk is decided; then the step (entries, and for
  // EventsStart the offset of the first byte inside the array).
  TopLevelStep feed(std::string_view piece, bool eof);
  // Members read so far (moved out).
  std::vector<TopLevelEntry> takeEntries() { return std::move(step_.entries); }

 private:
  enum class State : std::uint8_t {
    Start, Bom1, Bom2, ObjectFirst, Key, KeyText, Colon, BeforeValue, ValueText, AfterMember, AfterTop
  };
  // Reads from piece[i] on: advances i, and returns true once decided.
  bool step(std::string_view piece, std::size_t& i);
  bool readString(JsonValueStream::Result r, std::string* into, std::string_view rest, std::size_t& i);
  void keep(std::string* into, std::string_view bytes);
  bool decide(TopLevelStep::Status status, std::uint64_t pos, std::string message = {});
  bool closeObject(std::uint64_t at);
  bool atEof();

  State state_;
  std::uint64_t offset_;  // stream offset of the next byte
  std::uint64_t begin_;   // where the walk started
  bool sawEvents_ = false;
  JsonValueStream value_;
  std::string key_;
  std::string raw_;
  bool over_ = false;  // the key or value being read is over the limit
  std::uint64_t keyOffset_ = 0;
  TopLevelStep step_;
};

// Puts a top-level member into the metadata (deviceProperties, distributedInfo,
// baseTimeNanoseconds, displayTimeUnit, everything else raw in otherKeys).
void applyTopLevelEntry(const TopLevelEntry& entry, TraceMetadata& metadata, ImportIssues& issues);

}  // namespace gapscope::io
