// Why one gap happened: the launch call of the op that ends it, and what
// the launching thread was doing when the queue ran dry.
#include <algorithm>

#include "gap_classifier.h"

namespace gapscope::analysis::gaps_detail {

// The blocking call on `track` that was running when the gap began
// (allowing options_.syncSlackNs of clock skew) and that began no later
// than the launch: a sync that began after the launch did not hold it back.
const SyncRec* GapClassifier::blockingSyncAt(std::uint32_t track, TimeNs t, TimeNs launchStart,
                                             Lookups& lookups) const {
  const auto& syncs = calls_.threads[track].blockingSyncs;
  if (syncs.empty()) return nullptr;
  // The last sync starting at or before t: gaps come in time order, so
  // step on from the previous answer, or search when t went back.
  if (lookups.syncHint.size() <= track) lookups.syncHint.resize(calls_.threads.size(), 0);
  std::uint32_t& hint = lookups.syncHint[track];
  std::size_t i = hint;
  if (i > syncs.size() || (i > 0 && syncs[i - 1].start > t)) {
    i = static_cast<std::size_t>(
        std::upper_bound(syncs.begin(), syncs.end(), t,
                         [](TimeNs v, const SyncRec& s) { return v < s.start; }) -
        syncs.begin());
  } else {
    std::size_t steps = 0;
    while (i < syncs.size() && syncs[i].start <= t && ++steps < 16) ++i;
    if (i < syncs.size() && syncs[i].start <= t)
      i = static_cast<std::size_t>(
          std::upper_bound(syncs.begin() + static_cast<std::ptrdiff_t>(i), syncs.end(), t,
                           [](TimeNs v, const SyncRec& s) { return v < s.start; }) -
          syncs.begin());
  }
  hint = static_cast<std::uint32_t>(i);
  if (i == 0) return nullptr;
  const SyncRec& s = syncs[i - 1];
  return s.end + options_.syncSlackNs >= t && s.start <= launchStart ? &s : nullptr;
}

// A cudaStreamWaitEvent on `track` issued in [from, to] that made `stream`
// wait (or any stream, when no cuda_sync marker says which).
const WaitRec* GapClassifier::streamWaitBetween(std::uint32_t track, TimeNs from, TimeNs to,
                                                std::int64_t stream) const {
  const auto& waits = calls_.threads[track].waits;
  auto it = std::lower_bound(waits.begin(), waits.end(), from,
                             [](const WaitRec& w, TimeNs v) { return w.start < v; });
  for (; it != waits.end() && it->start <= to; ++it)
    if (it->stream == kAnyStream || it->stream == stream) return &*it;
  return nullptr;
}

Gap GapClassifier::classify(const BusyBlock& before, const BusyBlock& after,
                            const std::int64_t* stream, Lookups& lookups) const {
  Gap g;
  g.start = before.end;
  g.dur = after.start - before.end;
  g.before = before.lastSlice;
  g.after = after.firstSlice;
  bool shortGap = g.dur < options_.htaKernelWaitNs;
  if (after.firstCall == kNoIndex) {
    g.cause = GapCause::Other;
    g.hta = shortGap ? HtaIdleKind::KernelWait : HtaIdleKind::Other;
    return g;
  }
  const CallRec& launch = calls_.calls[after.firstCall];
  g.launch = launch.slice;
  g.launchTrack = launch.track;
  // HTA: host wait when the runtime call started after the previous op ended.
  if (launch.start > g.start)
    g.hta = HtaIdleKind::HostWait;
  else
    g.hta = shortGap ? HtaIdleKind::KernelWait : HtaIdleKind::Other;

  if (const SyncRec* sync = blockingSyncAt(launch.track, g.start, launch.start, lookups)) {
    g.cause = GapCause::Synchronization;
    g.syncCall = sync->slice;
    return g;
  }
  // Ops of one graph launch share its call: a gap between them is the
  // graph's own (GPU-side) and not the CPU's doing.
  bool sameLaunch = before.lastCall == after.firstCall;
  if (launch.start >= g.start || (launch.end > g.start && !sameLaunch)) {
    g.cause = GapCause::LaunchOverhead;
    return g;
  }
  g.cause = GapCause::Queued;
  if (stream && !sameLaunch) {
    TimeNs from = before.lastCall != kNoIndex ? calls_.calls[before.lastCall].start : launch.start;
    if (const WaitRec* wait = streamWaitBetween(launch.track, from, launch.start, *stream)) {
      g.cause = GapCause::Synchronization;
      g.syncCall = wait->slice;
    }
  }
  return g;
}

}  // namespace gapscope::analysis::gaps_detail
