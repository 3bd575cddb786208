// The cause of one gap (gap_cause.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "call_table.h"
#include "gapscope/analysis/gaps.h"
#include "gpu_ops.h"

namespace gapscope::analysis::gaps_detail {

// Decides a gap's cause from the launch of the op that ends it. Gaps are
// asked for in time order per stream or device, so each Lookups remembers
// where the previous answer was found on each thread.
class GapClassifier {
 public:
  GapClassifier(const CallTable& calls, const GapOptions& options)
      : calls_(calls), options_(options) {}
  // Search hints of one caller (one per thread of the analysis).
  struct Lookups {
    std::vector<std::uint32_t> syncHint;  // per track
  };
  // The gap between two consecutive blocks. `stream` is the stream of a
  // stream gap; device gaps pass nullptr (no stream-wait check then: with
  // the whole device idle, no event was pending).
  Gap classify(const BusyBlock& before, const BusyBlock& after, const std::int64_t* stream,
               Lookups& lookups) const;

 private:
  const SyncRec* blockingSyncAt(std::uint32_t track, TimeNs t, TimeNs launchStart,
                                Lookups& lookups) const;
  const WaitRec* streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                   std::int64_t stream) const;

  const CallTable& calls_;
  const GapOptions& options_;
};

}  // namespace gapscope::analysis::gaps_detail
