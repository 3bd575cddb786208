// The top level of a Chrome trace file: either a bare array of events, or an
// object whose "traceEvents" member is that array, with other members
// (deviceProperties, displayTimeUnit, ...) before or after it. Walked
// exactly, since these parts are small and the fast parser sees only the
// events.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/import_issues.h"
#include "gapscope/model/trace.h"

namespace gapscope::io {

struct TopLevelEntry {
  std::string key;       // unescaped
  std::string raw;       // the value as written
  std::uint64_t offset;  // of the key, in the decompressed stream
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
  std::size_t pos = 0;
  std::string message;
  bool positioned = true;  // false when `pos` means nothing (an empty file)
  bool bareArray = false;
  std::vector<TopLevelEntry> entries;  // members other than traceEvents, in order
};

// `base` is the stream offset of text[0]; `eof` says no more text follows.
TopLevelStep walkTopLevel(std::string_view text, TopLevelMode mode, bool eof, std::uint64_t base);

// Puts a top-level member into the metadata (deviceProperties, distributedInfo,
// baseTimeNanoseconds, displayTimeUnit, everything else raw in otherKeys).
void applyTopLevelEntry(const TopLevelEntry& entry, TraceMetadata& metadata, ImportIssues& issues);

}  // namespace gapscope::io
