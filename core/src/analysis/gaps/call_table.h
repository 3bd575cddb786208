// The CPU side of the gap analysis, read in one pass: the runtime/driver
// calls that carry correlation ids (compact CallRecs: the trace's slices are
// 64 bytes each and a big trace holds millions, so they are read once),
// each thread's blocking syncs and stream waits. Stage "cpu calls".
#pragma once

#include <cstdint>
#include <vector>

#include "correlation_map.h"
#include "gapscope/analysis/gaps.h"
#include "gapscope/model/trace.h"

namespace gapscope::analysis::gaps_detail {

// A CPU runtime/driver call that carries a correlation id.
struct CallRec {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
  std::uint32_t track = kNoIndex;
  StringId name = kEmptyString;
  LaunchKind kind = LaunchKind::None;
};

// A blocking call (synchronize, synchronous memcpy) on one thread.
struct SyncRec {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
};

// A cudaStreamWaitEvent call and the stream it made wait, when a cuda_sync
// marker says so (kAnyStream otherwise).
inline constexpr std::int64_t kAnyStream = -2;
struct WaitRec {
  TimeNs start = 0;
  std::uint32_t slice = kNoIndex;
  std::int64_t stream = kAnyStream;
};

// What each CPU thread did that matters to the GPU queue.
struct ThreadCalls {
  std::vector<SyncRec> blockingSyncs;  // sorted by start
  std::vector<WaitRec> waits;          // sorted by start
};

struct CallTable {
  std::vector<CallRec> calls;        // in track order, each track's by start
  CorrelationMap byCorrelation;      // correlation -> position in `calls`
  std::vector<ThreadCalls> threads;  // indexed by track
  std::uint64_t launchCallsWithoutCorrelation = 0;
};

// Reads the CPU side in one pass: calls, sync calls and wait calls (bound to
// streams through cuda_sync markers).
CallTable buildCallTable(const Trace& trace);

}  // namespace gapscope::analysis::gaps_detail
