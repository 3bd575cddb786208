// Fetching an event's raw args text on demand (Trace::argsSource).
//  - plain .json: ArgsRef.offset is the byte offset in the file, which is
//    read again with pread; nothing of the args stays in memory.
//  - .json.gz and text in memory: the file cannot be read at an offset
//    cheaply, so the reader copies each event's raw args text into
//    per-chunk arenas (ArgsRef.offset = arena id << 40 | position).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::io {

// Reads from its own duplicate of `fd` (the reader's descriptor of a
// regular file): the path is never opened again.
std::shared_ptr<const ArgsSource> makeFileArgsSource(int fd);
std::shared_ptr<const ArgsSource> makeArenaArgsSource(std::vector<std::string> arenas);

}  // namespace gapscope::io
