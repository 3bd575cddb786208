// TraceBuilder::finish(): everything that needs the whole trace.
//  1. B/E and async b/e matching (per thread, in (ts, file order) order)
//  2. process and track order, track kinds
//  3. slices sorted by (track, start asc, dur desc, file order), in place
//  4. depths: properly nested slices by nesting level, overlapping ones on
//     spill rows below them (counted, never dropped)
//  5. flows bound to slices, correlation indices, instants, counters
#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "builder_impl.h"
#include "layout.h"
#include "parallel.h"

namespace gapscope::detail {

namespace {

constexpr std::int64_t kAsyncTidMarker = INT64_MIN;

void matchBeginEnds(BuilderState& s) {
  auto& be = s.beginEnds;
  std::stable_sort(be.begin(), be.end(), [](const BeginEnd& a, const BeginEnd& b) {
    return std::tie(a.track, a.ts, a.seq) < std::tie(b.track, b.ts, b.seq);
  });
  std::vector<std::uint32_t> open;
  auto closeUnclosed = [&] {
    for (std::uint32_t slice : open) {
      Slice& sl = s.slices[slice];
      sl.dur = std::max<TimeNs>(0, s.maxTime - sl.start);
      sl.flags |= kSliceUnclosed;
      s.issues.add("unclosed_begin", Severity::Warning, s.offsets[slice],
                   "B event never closed by an E: ends at the end of the trace");
    }
    open.clear();
  };
  for (std::size_t i = 0; i < be.size(); ++i) {
    if (i > 0 && be[i].track != be[i - 1].track) closeUnclosed();
    if (be[i].slice != kNoIndex) {
      open.push_back(be[i].slice);
    } else if (open.empty()) {
      s.issues.add("unmatched_end", Severity::Warning, be[i].offset,
                   "E event without a matching B on its thread: ignored");
    } else {
      Slice& sl = s.slices[open.back()];
      sl.dur = be[i].ts - sl.start;
      open.pop_back();
    }
  }
  closeUnclosed();
  be = {};
}

void buildAsyncSlices(BuilderState& s) {
  auto& as = s.asyncs;
  // Nestable async events pair by (process, category, id); order by time.
  std::stable_sort(as.begin(), as.end(), [](const PendingAsync& a, const PendingAsync& b) {
    return std::tie(a.event.pid.num, a.event.pid.label, a.event.category, a.event.id, a.event.ts,
                    a.seq) < std::tie(b.event.pid.num, b.event.pid.label, b.event.category,
                                      b.event.id, b.event.ts, b.seq);
  });
  std::vector<const PendingAsync*> open;
  auto sameKey = [](const AsyncEvent& a, const AsyncEvent& b) {
    return a.pid == b.pid && a.category == b.category && a.id == b.id;
  };
  auto emit = [&](const PendingAsync& begin, TimeNs end, bool unclosed) {
    const AsyncEvent& e = begin.event;
    Slice sl;
    sl.start = e.ts;
    sl.dur = std::max<TimeNs>(0, end - e.ts);
    sl.name = e.name;
    sl.category = e.category;
    sl.args = e.args;
    sl.kind = SliceKind::Async;
    sl.track = s.trackFor(e.pid, ChromeId{kAsyncTidMarker, e.name});
    if (unclosed) {
      sl.flags |= kSliceUnclosed;
      s.issues.add("unclosed_async", Severity::Warning, e.offset,
                   "async b event never closed by an e: ends at the end of the trace");
    }
    s.slices.push_back(sl);
    s.offsets.push_back(e.offset);
  };
  for (std::size_t i = 0; i < as.size(); ++i) {
    const AsyncEvent& e = as[i].event;
    if (i > 0 && !sameKey(e, as[i - 1].event)) {
      for (auto* b : open) emit(*b, s.maxTime, true);
      open.clear();
    }
    if (e.phase == 'b') {
      open.push_back(&as[i]);
    } else if (e.phase == 'e') {
      if (open.empty()) {
        s.issues.add("unmatched_async_end", Severity::Warning, e.offset,
                     "async e event without a matching b: ignored");
      } else {
        emit(*open.back(), e.ts, false);
        open.pop_back();
      }
    } else {
      // An 'n' belongs on the lane of the async slice it happens in.
      StringId lane = open.empty() ? e.name : open.back()->event.name;
      InstantEvent inst{e.pid, e.tid, e.ts, e.name, e.category, 't', e.args, e.offset};
      s.instants.push_back({inst, s.trackFor(e.pid, ChromeId{kAsyncTidMarker, lane})});
    }
  }
  for (auto* b : open) emit(*b, s.maxTime, true);
  as = {};
}

std::int64_t streamFromLabel(std::string_view label) {
  // 2021 Kineto traces name GPU lanes "stream 7".
  auto pos = label.find_last_of(' ');
  if (pos == std::string_view::npos) return -1;
  std::int64_t v = 0;
  for (char c : label.substr(pos + 1)) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

namespace {

// What a part of the slices says of each raw track: whether it holds GPU
// work, and the kernel infos that name its device and stream; and how many
// slices it has there.
struct TrackEvidence {
  std::vector<char> gpu;
  std::vector<std::uint32_t> firstWithDevice;  // first kernel info with a device, kNoIndex: none
  std::vector<std::uint32_t> lastInfo;         // last kernel info, kNoIndex: none
  std::vector<std::uint32_t> count;

  explicit TrackEvidence(std::size_t tracks)
      : gpu(tracks, 0), firstWithDevice(tracks, kNoIndex), lastInfo(tracks, kNoIndex), count(tracks, 0) {}

  void add(const Slice& sl, const std::vector<KernelInfo>& infos) {
    ++count[sl.track];
    if (!isGpuKind(sl.kind)) return;
    gpu[sl.track] = 1;
    if (sl.kernelInfo == kNoIndex) return;
    lastInfo[sl.track] = sl.kernelInfo;
    if (firstWithDevice[sl.track] == kNoIndex && infos[sl.kernelInfo].device >= 0) firstWithDevice[sl.track] = sl.kernelInfo;
  }
  // `later` saw slices after this one's.
  void add(const TrackEvidence& later) {
    for (std::size_t i = 0; i < gpu.size(); ++i) {
      gpu[i] = gpu[i] || later.gpu[i];
      if (firstWithDevice[i] == kNoIndex) firstWithDevice[i] = later.firstWithDevice[i];
      if (later.lastInfo[i] != kNoIndex) lastInfo[i] = later.lastInfo[i];
    }
  }
};

// The slices' evidence, one part of them per thread; each part's counts
// go to `counts`.
TrackEvidence gatherTrackEvidence(const BuilderState& s, int threads, RawTrackCounts* counts) {
  const int parts = partsFor(s.slices.size(), threads);
  // Made here: a part's thread that allocates gets a malloc arena of its own.
  std::vector<TrackEvidence> ofPart(static_cast<std::size_t>(parts), TrackEvidence(s.tracks.size()));
  forEachPart(parts, [&](int p) {
    TrackEvidence& e = ofPart[static_cast<std::size_t>(p)];
    const auto [from, to] = partRange(s.slices.size(), parts, p);
    for (std::size_t i = from; i < to; ++i) e.add(s.slices[i], s.kernelInfos);
  });
  counts->slices = s.slices.size();
  counts->ofPart.resize(ofPart.size());
  for (std::size_t p = 0; p < ofPart.size(); ++p) counts->ofPart[p] = std::move(ofPart[p].count);
  for (std::size_t p = 1; p < ofPart.size(); ++p) ofPart[0].add(ofPart[p]);
  return std::move(ofPart[0]);
}

}  // namespace

// Orders processes and tracks, counting the slices per raw track into
// `counts` on the way; returns raw track -> final track index.
std::vector<std::uint32_t> layoutTracks(BuilderState& s, Trace& t, int threads, RawTrackCounts* counts) {
  const TrackEvidence evidence = gatherTrackEvidence(s, threads, counts);
  std::vector<TrackKind> kinds(s.tracks.size(), TrackKind::CpuThread);
  std::vector<std::int32_t> device(s.tracks.size(), -1);
  std::vector<std::int64_t> stream(s.tracks.size(), -1);
  for (std::size_t i = 0; i < s.tracks.size(); ++i) {
    const auto& key = s.tracks[i].key;
    // The first kernel info with a device names both; without one, the
    // stream is the last one's.
    const std::uint32_t info = evidence.firstWithDevice[i] != kNoIndex ? evidence.firstWithDevice[i] : evidence.lastInfo[i];
    if (info != kNoIndex) {
      device[i] = s.kernelInfos[info].device;
      stream[i] = s.kernelInfos[info].stream;
    }
    if (evidence.gpu[i]) kinds[i] = TrackKind::GpuStream;
    if (key.tid.num == kAsyncTidMarker) kinds[i] = TrackKind::Async;
    if (kinds[i] != TrackKind::GpuStream) continue;
    if (device[i] < 0) device[i] = key.pid.label ? 0 : static_cast<std::int32_t>(key.pid.num);
    if (stream[i] < 0) {
      stream[i] = key.tid.label ? streamFromLabel(s.strings.view(key.tid.label)) : key.tid.num;
    }
  }
  return orderTracks(s, t, kinds, device, stream);
}

namespace {

// Runs `side` on a second thread while `main` runs on this one, when the
// work is big enough to pay for a thread; exceptions reach the caller.
template <typename Side, typename Main>
void inParallel(bool worthIt, Side side, Main main) {
  if (!worthIt) {
    side();
    main();
    return;
  }
  forEachPart(2, [&](int part) { part == 0 ? main() : side(); });
}

}  // namespace

Trace finishTrace(BuilderState& s, std::shared_ptr<const ArgsSource> args, int threads) {
  Trace t;
  if (s.minTime > s.maxTime) s.minTime = s.maxTime = 0;
  s.kernelInfoSet = KernelInfoSet{};  // nothing is interned any more: its table goes before the peak
  const bool big = s.slices.size() > kParallelAbove;
  // The passes' parts run on threads made once for the whole finish.
  std::optional<PartPool> pool;
  if (big && threads > 1) pool.emplace(threads - 1);
  const PartPool::Use usePool(pool ? &*pool : nullptr);
  // The flow events and the slices are ordered side by side, each with the
  // threads beside the other's (on 2 cores, one each).
  const int each = std::max(1, threads - 1);
  std::vector<std::uint32_t> trackMap;
  RawTrackCounts rawCounts;
  SortedSlices sorted;
  // Flow events touch nothing the slice layout touches.
  inParallel(big, [&] { orderPendingFlows(s, each); },
             [&] {
               matchBeginEnds(s);
               buildAsyncSlices(s);
               trackMap = layoutTracks(s, t, each, &rawCounts);
               sorted = sortSlices(s, t, trackMap, rawCounts);
               assignDepths(s, t, sorted, each);
             });
  // Both only read the laid-out slices and write different parts of t.
  inParallel(big, [&] { finishIndices(s, t, trackMap, each); }, [&] { bindFlows(s, t, sorted, trackMap, each); });
  t.strings = std::move(s.strings);
  t.metadata = std::move(s.metadata);
  t.issues = std::move(s.issues);
  t.eventCount = s.eventCount;
  t.argsSource = std::move(args);
  TraceAccess::setTimeRange(t, s.minTime, s.maxTime);
  return t;
}

}  // namespace gapscope::detail
