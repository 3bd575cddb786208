#include "gapscope/model/issue_sources.h"

#include <algorithm>

#include "io/json_text.h"

namespace gapscope {

namespace {

std::uint32_t sliceWithArgsIn(const Trace& trace, std::uint64_t begin, std::uint64_t end) {
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    const ArgsRef& a = trace.slices[i].args;
    if (a.length != 0 && a.offset > begin && a.offset + a.length <= end) return i;
  }
  return kNoIndex;
}

}  // namespace

SourceEvent sourceEventAt(const Trace& trace, std::uint64_t offset) {
  SourceEvent event;
  event.offset = offset;
  event.sourceKept = trace.argsSource && trace.argsSource->keepsSource();
  if (!event.sourceKept) return event;
  std::string text = trace.argsSource->sourceText(offset, kSourceEventMaxBytes);
  // The value's extent as the reader's own scan finds it (strings, escapes, depth).
  const io::ValueExtent extent = io::scanValueEnd(text, 0);
  const bool whole = extent.complete && extent.end > 0;  // else: longer than shown, or the file ends inside it
  event.cut = !whole && text.size() == kSourceEventMaxBytes;
  if (whole) text.resize(extent.end);
  event.text = std::move(text);
  // Only an event (an object) is looked for among the slices; args offsets
  // name places in the source, which is kept here.
  if (whole && event.text.front() == '{') {
    event.slice = sliceWithArgsIn(trace, offset, offset + event.text.size());
  }
  return event;
}

std::string_view spillIssueName(const StringTable& strings, const Slice& spilled, const Slice& open) {
  if (spilled.kind == SliceKind::PythonFunction || open.kind == SliceKind::PythonFunction) {
    return "python_frame_overlap";
  }
  if (strings.view(spilled.category) == "cuda_sync" || strings.view(open.category) == "cuda_sync") {
    return "sync_record_overlap";
  }
  return "overlap_spilled";
}

std::vector<std::uint32_t> slicesOfIssue(const Trace& trace, std::string_view issueName) {
  std::vector<std::uint32_t> out;
  const bool unclosed = issueName == "unclosed_begin" || issueName == "unclosed_async";
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (unclosed) {
      if ((s.flags & kSliceUnclosed) && (s.kind == SliceKind::Async) == (issueName == "unclosed_async")) {
        out.push_back(i);
      }
    } else if ((s.flags & kSliceSpilled) && s.parent != kNoIndex &&
               spillIssueName(trace.strings, s, trace.slices[s.parent]) == issueName) {
      out.push_back(i);
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return trace.slices[a].start < trace.slices[b].start; });
  return out;
}

}  // namespace gapscope
