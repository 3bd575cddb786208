// Fetching an event's raw args text on demand (Trace::argsSource).
//  - plain .json: ArgsRef.offset is the byte offset in the file, which is
//    read again with pread; nothing of the args stays in memory.
//  - .json.gz: the offset in the inflated text, inflated again from the
//    nearest point of an index made while reading (gzip_index.h).
//  - text in memory and .gz from a pipe: nothing to read again, so the
//    reader copies each event's raw args text into per-chunk arenas
//    (ArgsRef.offset = arena id << 40 | position).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::io {

// Reads from its own duplicate of `fd` (the reader's descriptor of a
// regular file): the path is never opened again.
std::shared_ptr<const ArgsSource> makeFileArgsSource(int fd);
std::shared_ptr<const ArgsSource> makeArenaArgsSource(std::vector<std::string> arenas);

// Args text is a JSON object; anything else read back means the file
// changed on disk since it was loaded.
inline bool looksLikeArgs(std::string_view s) { return s.size() >= 2 && s.front() == '{' && s.back() == '}'; }

// An event's args read again through a source that keeps the text
// (ArgsSource::sourceText): the whole object, or "" when it is not there.
inline std::string argsFromSourceText(const ArgsSource& source, const ArgsRef& ref) {
  if (ref.length == 0) return {};
  std::string out = source.sourceText(ref.offset, ref.length);
  return out.size() == ref.length && looksLikeArgs(out) ? out : std::string();
}

}  // namespace gapscope::io
