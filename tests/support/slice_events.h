// One way for test helpers to make Kineto-like slice events: CPU events on
// pid 1 and a chosen thread, GPU events on pid = device and tid = stream.
#pragma once

#include <string>

#include "gapscope/model/trace_builder.h"

namespace gapscope::testing {

inline SliceEvent sliceEvent(TraceBuilder& b, std::int64_t pid, std::int64_t tid, const std::string& name,
                             const std::string& category, TimeNs start, TimeNs dur,
                             std::int64_t correlation) {
  SliceEvent e;
  e.pid = b.numericId(pid);
  e.tid = b.numericId(tid);
  e.start = start;
  e.dur = dur;
  e.name = b.intern(name);
  e.category = b.intern(category);
  e.correlation = correlation;
  return e;
}

}  // namespace gapscope::testing
