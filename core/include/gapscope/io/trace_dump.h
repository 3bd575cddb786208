// A deterministic text dump of a Trace: processes, tracks, slices (with
// their args fetched on demand), flows, instants, counters, metadata and
// import issues. Used by golden tests (tests/io) and handy when debugging a
// reader or writer: two traces are equal when their dumps are.
#pragma once

#include <string>

#include "gapscope/model/trace.h"

namespace gapscope::io {

struct DumpOptions {
  bool args = true;         // fetch and print each slice's args text
  bool offsets = false;     // print import issues' first byte offsets
  std::size_t maxSlices = SIZE_MAX;  // per track
};

std::string dumpTrace(const Trace& trace, const DumpOptions& options = {});

}  // namespace gapscope::io
