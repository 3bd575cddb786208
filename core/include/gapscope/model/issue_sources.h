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
  // The event's JSON object as written ({ to its matching }), or, where no
  // object begins at `offset`, the rest of that line. Empty when the source
  // cannot be read again (text in memory, a .gz read from a pipe).
  std::string text;
  bool cut = false;  // longer than kSourceEventMaxBytes: `text` is its beginning
  // The slice read from this event, found by its args lying inside the
  // text; kNoIndex when the event made no slice or had no args.
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
