// Why one gap happened: the launch call of the op that ends it, and what
// the launching thread was doing when the queue ran dry.
#include <algorithm>

#include "gap_context.h"

namespace gapscope::analysis::gaps_detail {

// The blocking sync call on `track` that was running when the gap began
// (allowing options_.syncSlackNs of clock skew) and that began no later
// than the launch: a sync that began after the launch did not hold it back.
std::uint32_t GapClassifier::blockingSyncAt(std::uint32_t track, TimeNs t,
                                            TimeNs launchStart) const {
  const auto& syncs = calls_.threads[track].blockingSyncs;
  auto it = std::upper_bound(syncs.begin(), syncs.end(), t, [&](TimeNs v, std::uint32_t i) {
    return v < trace_.slices[i].start;
  });
  if (it == syncs.begin()) return kNoIndex;
  const Slice& s = trace_.slices[*(it - 1)];
  if (s.end() + options_.syncSlackNs >= t && s.start <= launchStart) return *(it - 1);
  return kNoIndex;
}

// A cudaStreamWaitEvent on `track` issued in [from, to] that made `stream`
// wait (or any stream, when no cuda_sync marker says which).
std::uint32_t GapClassifier::streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                               std::int64_t stream) const {
  const auto& waits = calls_.threads[track].waits;
  auto it = std::lower_bound(waits.begin(), waits.end(), from, [&](const WaitCall& w, TimeNs v) {
    return trace_.slices[w.slice].start < v;
  });
  for (; it != waits.end() && trace_.slices[it->slice].start <= to; ++it)
    if (it->stream == kAnyStream || it->stream == stream) return it->slice;
  return kNoIndex;
}

Gap GapClassifier::classify(TimeNs start, TimeNs end, std::uint32_t before, std::uint32_t after,
                            const std::int64_t* stream) const {
  Gap g;
  g.start = start;
  g.dur = end - start;
  g.before = before;
  g.after = after;
  const Slice& op = trace_.slices[after];
  std::uint32_t call = calls_.callFor(op.correlation);
  if (call == kNoIndex) {
    g.cause = GapCause::Other;
    g.hta = g.dur < options_.htaKernelWaitNs ? HtaIdleKind::KernelWait : HtaIdleKind::Other;
    return g;
  }
  const Slice& launch = trace_.slices[call];
  g.launch = call;
  g.launchTrack = launch.track;
  // HTA: host wait when the runtime call started after the previous op ended.
  if (launch.start > start)
    g.hta = HtaIdleKind::HostWait;
  else
    g.hta = g.dur < options_.htaKernelWaitNs ? HtaIdleKind::KernelWait : HtaIdleKind::Other;

  std::uint32_t sync = blockingSyncAt(launch.track, start, launch.start);
  if (sync != kNoIndex) {
    g.cause = GapCause::Synchronization;
    g.syncCall = sync;
    return g;
  }
  // Ops of one graph launch share its correlation id: a gap between them is
  // the graph's own (GPU-side) and not the CPU's doing.
  bool sameLaunch = before != kNoIndex && trace_.slices[before].correlation == op.correlation;
  if (launch.start >= start || (launch.end() > start && !sameLaunch)) {
    g.cause = GapCause::LaunchOverhead;
    return g;
  }
  g.cause = GapCause::Queued;
  if (stream && !sameLaunch && before != kNoIndex) {
    std::uint32_t prevCall = calls_.callFor(trace_.slices[before].correlation);
    TimeNs from = prevCall != kNoIndex ? trace_.slices[prevCall].start : launch.start;
    std::uint32_t wait = streamWaitBetween(launch.track, from, launch.start, *stream);
    if (wait != kNoIndex) {
      g.cause = GapCause::Synchronization;
      g.syncCall = wait;
    }
  }
  return g;
}

}  // namespace gapscope::analysis::gaps_detail
