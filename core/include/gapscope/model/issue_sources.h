// Where an import issue came from, for a user who wants to see it: the
// event of its first occurrence as written in the source (an issue keeps
// that event's byte offset), the slice read from that event, and every
// slice an issue marks (docs/import-issues.md, "Seeing where an issue is").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope {

// The longest event text shown; a longer one is cut there.
inline constexpr std::uint32_t kSourceEventMaxBytes = 16384;

struct SourceEvent {
  std::uint64_t offset = 0;
  // Whether the source can be read again (a file, plain or gzipped; not
  // text in memory nor a .gz read from a pipe, which keep only their args).
  bool sourceKept = false;
  // The JSON value that begins at `offset` as written: the event's object
  // ({ to its matching }), or whatever value an issue points at (a number
  // where an event should be, a string, ...). Empty when the source is not
  // kept, or at its end (a file cut short: the "truncated" issue).
  std::string text;
  bool cut = false;  // longer than kSourceEventMaxBytes: `text` is its beginning
  // The slice read from this event (an object), found by its args lying
  // inside the text; kNoIndex when it made no slice or had no args.
  std::uint32_t slice = kNoIndex;
};

SourceEvent sourceEventAt(const Trace& trace, std::uint64_t offset);

// The import issue a slice that overlaps `open` without nesting counts
// under: "python_frame_overlap" or "sync_record_overlap" (producer quirks)
// or "overlap_spilled". `strings` holds their names (the builder's table
// while the trace is made, Trace::strings after).
std::string_view spillIssueName(const StringTable& strings, const Slice& spilled, const Slice& open);

// Every slice an issue marks, by start: the spilled slices of an overlap
// issue, the slices an unclosed B or b was ended for. Empty for issues
// about events that made no slice, or changed one without a mark.
std::vector<std::uint32_t> slicesOfIssue(const Trace& trace, std::string_view issueName);

}  // namespace gapscope
