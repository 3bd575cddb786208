// Track order, slice sort and depth assignment for TraceBuilder::finish().
#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>
#include <stdexcept>
#include <tuple>

#include "gapscope/model/issue_sources.h"
#include "layout.h"
#include "parallel.h"

namespace gapscope::detail {

namespace {

// String pids/tids ("Spans", "Traces") sort after numeric ones, by text.
struct IdOrder {
  bool isString;
  std::int64_t num;
  std::string_view text;
  bool operator<(const IdOrder& o) const {
    return std::tie(isString, num, text) < std::tie(o.isString, o.num, o.text);
  }
};

IdOrder idOrder(const StringTable& st, ChromeId id) {
  return {id.label != kEmptyString, id.num, st.view(id.label)};
}

}  // namespace

std::vector<std::uint32_t> orderTracks(BuilderState& s, Trace& t,
                                       const std::vector<TrackKind>& kinds,
                                       const std::vector<std::int32_t>& device,
                                       const std::vector<std::int64_t>& stream) {
  std::vector<std::uint32_t> procOrder(s.processes.size());
  std::iota(procOrder.begin(), procOrder.end(), 0u);
  auto procKey = [&](std::uint32_t p) {
    const auto& rp = s.processes[p];
    std::int64_t sortIndex = rp.sortIndex ? *rp.sortIndex : (rp.pid.label ? INT64_MAX : rp.pid.num);
    return std::make_pair(sortIndex, idOrder(s.strings, rp.pid));
  };
  std::stable_sort(procOrder.begin(), procOrder.end(),
                   [&](auto a, auto b) { return procKey(a) < procKey(b); });
  std::vector<std::uint32_t> procFinal(s.processes.size());
  for (std::uint32_t i = 0; i < procOrder.size(); ++i) {
    const auto& rp = s.processes[procOrder[i]];
    procFinal[procOrder[i]] = i;
    Process p;
    p.pid = rp.pid;
    p.name = rp.name;
    p.labels = rp.labels;
    p.sortIndex = procKey(procOrder[i]).first;
    t.processes.push_back(std::move(p));
  }

  std::vector<std::uint32_t> trackOrder(s.tracks.size());
  std::iota(trackOrder.begin(), trackOrder.end(), 0u);
  auto trackKey = [&](std::uint32_t i) {
    const auto& rt = s.tracks[i];
    std::uint32_t proc = procFinal[s.processIndex.at(rt.key.pid)];
    std::int64_t sortIndex = rt.sortIndex ? *rt.sortIndex : (rt.key.tid.label ? INT64_MAX : rt.key.tid.num);
    return std::make_tuple(proc, static_cast<int>(kinds[i]), sortIndex, idOrder(s.strings, rt.key.tid));
  };
  std::stable_sort(trackOrder.begin(), trackOrder.end(),
                   [&](auto a, auto b) { return trackKey(a) < trackKey(b); });
  std::vector<std::uint32_t> trackMap(s.tracks.size());
  for (std::uint32_t i = 0; i < trackOrder.size(); ++i) {
    std::uint32_t raw = trackOrder[i];
    const auto& rt = s.tracks[raw];
    trackMap[raw] = i;
    Track tr;
    tr.kind = kinds[raw];
    tr.pid = rt.key.pid;
    tr.tid = kinds[raw] == TrackKind::Async ? ChromeId{} : rt.key.tid;
    tr.process = procFinal[s.processIndex.at(rt.key.pid)];
    tr.name = kinds[raw] == TrackKind::Async ? rt.key.tid.label : rt.name;
    tr.sortIndex = std::get<2>(trackKey(raw));
    tr.device = device[raw];
    tr.stream = stream[raw];
    t.tracks.push_back(tr);
    auto& proc = t.processes[tr.process];
    proc.tracks.push_back(i);
    if (tr.kind == TrackKind::GpuStream) proc.isGpu = true;
  }
  return trackMap;
}

namespace {

// Applies `origin` (sorted position -> pending index) in place, cycle by
// cycle: no second copy of the slices, but every move is a random access.
void permuteByCycles(std::vector<Slice>& sl, const std::vector<std::uint32_t>& origin) {
  std::vector<bool> done(sl.size(), false);
  for (std::uint32_t i = 0; i < sl.size(); ++i) {
    if (done[i]) continue;
    Slice tmp = sl[i];
    std::uint32_t j = i;
    while (true) {
      done[j] = true;
      std::uint32_t k = origin[j];
      if (k == i) {
        sl[j] = tmp;
        break;
      }
      sl[j] = sl[k];
      j = k;
    }
  }
}

// Where each part of the pending slices (partRange) puts its slices of each
// final track: start[p][k] is the sorted position of part p's first slice
// of track k when every track keeps file order.
struct PartStarts {
  std::vector<std::uint32_t> bucketStart;             // per track, and the end
  std::vector<std::vector<std::uint32_t>> start;      // per part, per track
  std::vector<std::vector<std::uint32_t>> countOf;    // per part, per track
};

// Part starts from the slices' counts per raw track (RawTrackCounts),
// each raw track's counted as its final track's.
PartStarts partStartsFrom(const RawTrackCounts& counts, const std::vector<std::uint32_t>& trackMap, std::size_t tracks) {
  PartStarts ps;
  const std::size_t parts = counts.ofPart.size();
  ps.countOf.assign(parts, std::vector<std::uint32_t>(tracks, 0));
  for (std::size_t p = 0; p < parts; ++p) {
    const std::vector<std::uint32_t>& raw = counts.ofPart[p];
    for (std::size_t r = 0; r < raw.size(); ++r) ps.countOf[p][trackMap[r]] += raw[r];
  }
  ps.bucketStart.assign(tracks + 1, 0);
  ps.start.assign(parts, std::vector<std::uint32_t>(tracks, 0));
  std::uint32_t at = 0;
  for (std::size_t k = 0; k < tracks; ++k) {
    ps.bucketStart[k] = at;
    for (std::size_t p = 0; p < parts; ++p) {
      ps.start[p][k] = at;
      at += ps.countOf[p][k];
    }
  }
  ps.bucketStart[tracks] = at;
  return ps;
}

// Copies sl[origin[b + i]] to sl[b + i] for i in [first, first + count),
// on the parts' threads when there are many: no source is a destination.
void copyApart(std::vector<Slice>& sl, const std::vector<std::uint32_t>& origin, std::uint32_t b, std::uint32_t first,
               std::uint32_t count, int threads) {
  const int parts = partsFor(count, threads);
  forEachPart(parts, [&](int p) {
    const auto [from, to] = partRange(count, parts, p);
    for (std::size_t i = first + from; i < first + to; ++i) sl[b + i] = sl[origin[b + i]];
  });
}

// Moves the i-th slice of a track from origin[b + i] to b + i, the other
// tracks' slices being out of the way. The shift (b + i - origin[b + i])
// falls as i grows, so slices moving right form a prefix: they move last
// to first, the others first to last. A run of slices no longer than its
// shift reads nothing the run writes, so the run is copied on the parts'
// threads; runs follow one another, each reading only places no run before
// it wrote.
void slideTrack(std::vector<Slice>& sl, const std::vector<std::uint32_t>& origin, std::uint32_t b, std::uint32_t nb,
                int threads) {
  std::uint32_t rightMovers = 0;
  while (rightMovers < nb && b + rightMovers > origin[b + rightMovers]) ++rightMovers;
  for (std::uint32_t i = rightMovers; i < nb;) {
    const std::uint32_t shift = origin[b + i] - (b + i);
    const std::uint32_t run = std::clamp<std::uint32_t>(shift, 1, nb - i);
    copyApart(sl, origin, b, i, run, threads);
    i += run;
  }
  for (std::uint32_t end = rightMovers; end > 0;) {  // [.., end) left to move
    const std::uint32_t shift = (b + end - 1) - origin[b + end - 1];
    const std::uint32_t run = std::min(shift, end);
    copyApart(sl, origin, b, end - run, run, threads);
    end -= run;
  }
}

// The same result as permuteByCycles when `origin` keeps file order inside
// each track (a stable partition by track), in a few sequential passes: the
// slices of the other tracks go to a side buffer, the biggest track's
// slices slide into their range where they are, the others are written
// back after. Several times faster than cycles on a million slices; the
// side buffer holds at most half of them. Copying out and writing back run
// on the parts' threads, each part's slices to its own places.
bool partitionByTrack(std::vector<Slice>& sl, const std::vector<std::uint32_t>& origin, const PartStarts& ps) {
  const std::size_t n = sl.size();
  if (n == 0) return true;  // (and maybe no tracks at all)
  const auto& bucketStart = ps.bucketStart;
  std::size_t big = 0;
  for (std::size_t k = 0; k + 1 < bucketStart.size(); ++k) {
    if (bucketStart[k + 1] - bucketStart[k] > bucketStart[big + 1] - bucketStart[big]) big = k;
  }
  const std::uint32_t b = bucketStart[big];
  const std::uint32_t nb = bucketStart[big + 1] - b;
  if (n - nb > n / 2) return false;
  const int parts = static_cast<int>(ps.start.size());
  std::vector<std::size_t> sideStart(static_cast<std::size_t>(parts) + 1, 0);  // per part, and the end
  for (int p = 0; p < parts; ++p) {
    const auto [from, to] = partRange(n, parts, p);
    const auto at = static_cast<std::size_t>(p);
    sideStart[at + 1] = sideStart[at] + (to - from) - ps.countOf[at][big];
  }
  // Uninitialised: every place is written before it is read, and zeroing
  // it first would be one more pass over up to half the slices.
  static_assert(std::is_trivially_copyable_v<Slice> && std::is_trivially_destructible_v<Slice>);
  const std::unique_ptr<Slice, void (*)(Slice*)> room(
      static_cast<Slice*>(::operator new(sideStart.back() * sizeof(Slice))), [](Slice* p) { ::operator delete(p); });
  Slice* side = room.get();
  forEachPart(parts, [&](int p) {
    const auto [from, to] = partRange(n, parts, p);
    std::size_t out = sideStart[static_cast<std::size_t>(p)];
    for (std::size_t i = from; i < to; ++i)
      if (sl[i].track != big) new (side + out++) Slice(sl[i]);
  });
  slideTrack(sl, origin, b, nb, parts);
  std::vector<std::vector<std::uint32_t>> nextOf = ps.start;  // (made here, as in originInFileOrder)
  forEachPart(parts, [&](int p) {
    const auto at = static_cast<std::size_t>(p);
    std::vector<std::uint32_t>& next = nextOf[at];
    for (std::size_t j = sideStart[at]; j < sideStart[at + 1]; ++j) sl[next[side[j].track]++] = side[j];
  });
  return true;
}

// Track order within a track: by start, the longer first at equal starts
// (parents before children); file order breaks the remaining ties.
bool startsBefore(const Slice& x, const Slice& y) {
  return x.start < y.start || (x.start == y.start && x.dur > y.dur);
}

// Where each slice goes before any sort: sorted position -> pending
// index (origin), each track's slices in file order (a counting sort, each
// part's slices from its own starts), its inverse (position), and whether
// that is already track order.
struct FileOrderPlaces {
  std::vector<std::uint32_t> origin;
  std::vector<std::uint32_t> position;
  bool trackOrderKept = true;
};

// Between parts: each part's first slice of a track against the one before
// it in the track (an earlier part's last).
bool partEdgesInTrackOrder(const std::vector<Slice>& sl, const std::vector<std::uint32_t>& origin, const PartStarts& ps) {
  for (std::size_t p = 1; p < ps.start.size(); ++p) {
    for (std::size_t k = 0; k + 1 < ps.bucketStart.size(); ++k) {
      const std::uint32_t j = ps.start[p][k];
      if (ps.countOf[p][k] == 0 || j == ps.bucketStart[k]) continue;
      if (startsBefore(sl[origin[j]], sl[origin[j - 1]])) return false;
    }
  }
  return true;
}

// Places the slices in file order (FileOrderPlaces), mapping each to its
// final track on the way, and compares each with the one placed before it
// in its track: one pass over the slices for what took four (the inverse
// is written in slice order here, where afterwards it was a scatter).
FileOrderPlaces placeInFileOrder(std::vector<Slice>& sl, const std::vector<std::uint32_t>& trackMap, const PartStarts& ps) {
  const int parts = static_cast<int>(ps.start.size());
  FileOrderPlaces out;
  out.origin.resize(sl.size());
  out.position.resize(sl.size());
  std::vector<std::uint32_t>& origin = out.origin;
  std::vector<std::uint32_t>& position = out.position;
  // Made here: a part's thread that allocates gets a malloc arena of its own.
  std::vector<std::vector<std::uint32_t>> nextOf = ps.start;
  std::vector<char> inOrder(static_cast<std::size_t>(parts), 1);
  forEachPart(parts, [&](int p) {
    const auto at = static_cast<std::size_t>(p);
    std::vector<std::uint32_t>& next = nextOf[at];
    const std::vector<std::uint32_t>& first = ps.start[at];
    bool ordered = true;
    const auto [from, to] = partRange(sl.size(), parts, p);
    for (std::size_t i = from; i < to; ++i) {
      Slice& x = sl[i];
      x.track = trackMap[x.track];
      const std::uint32_t place = next[x.track]++;
      if (place > first[x.track] && startsBefore(x, sl[origin[place - 1]])) ordered = false;
      origin[place] = static_cast<std::uint32_t>(i);
      position[i] = place;
    }
    inOrder[at] = ordered;
  });
  out.trackOrderKept = std::all_of(inOrder.begin(), inOrder.end(), [](char c) { return c != 0; }) &&
                       partEdgesInTrackOrder(sl, origin, ps);
  return out;
}

// position[origin[j]] = j.
std::vector<std::uint32_t> inverseOf(const std::vector<std::uint32_t>& origin, int parts) {
  std::vector<std::uint32_t> position(origin.size());
  forEachPart(parts, [&](int p) {
    const auto [from, to] = partRange(origin.size(), parts, p);
    for (std::size_t j = from; j < to; ++j) position[origin[j]] = static_cast<std::uint32_t>(j);
  });
  return position;
}

}  // namespace

SortedSlices sortSlices(BuilderState& s, Trace& t, const std::vector<std::uint32_t>& trackMap,
                        const RawTrackCounts& counts) {
  SortedSlices out;
  auto& sl = s.slices;
  // The parts the slices were counted in are the parts of every pass here.
  const int parts = static_cast<int>(counts.ofPart.size());
  // Order: (track, start asc, dur desc, file order). Bucket by track first,
  // keeping file order (a counting sort), then sort each track only if it
  // is not in order already: tracers write a thread's events in time
  // order, so usually nothing is left to sort. (Each pass over a million
  // slices costs ~10 ms: the slices were counted beside the tracks'
  // evidence, and the placing pass maps them to their final tracks, checks
  // their order and writes the inverse.)
  if (counts.slices != sl.size()) throw std::logic_error("sortSlices: the slices changed since they were counted");
  const PartStarts ps = partStartsFrom(counts, trackMap, t.tracks.size());
  const auto& bucketStart = ps.bucketStart;
  FileOrderPlaces placed = placeInFileOrder(sl, trackMap, ps);
  out.origin = std::move(placed.origin);
  out.position = std::move(placed.position);
  const bool fileOrderKept = placed.trackOrderKept;
  if (!fileOrderKept) {
    auto inTrackOrder = [&](std::uint32_t a, std::uint32_t b) {
      return startsBefore(sl[a], sl[b]) || (!startsBefore(sl[b], sl[a]) && a < b);
    };
    for (std::size_t k = 0; k + 1 < bucketStart.size(); ++k) {
      auto b = out.origin.begin() + bucketStart[k];
      auto e = out.origin.begin() + bucketStart[k + 1];
      if (!std::is_sorted(b, e, inTrackOrder)) std::sort(b, e, inTrackOrder);
    }
    out.position = inverseOf(out.origin, parts);  // the sort moved them
  }
  // Slices are the biggest thing in memory: reorder them in place.
  if (!fileOrderKept || !partitionByTrack(s.slices, out.origin, ps)) permuteByCycles(s.slices, out.origin);
  t.slices = std::move(s.slices);
  for (std::size_t k = 0; k + 1 < bucketStart.size(); ++k) {
    t.tracks[k].firstSlice = bucketStart[k];
    t.tracks[k].sliceCount = bucketStart[k + 1] - bucketStart[k];
  }
  return out;
}

namespace {

// Greedy interval partitioning: each slice, in order, to the first row
// free at its start, rows counted from `firstRow`; returns the rows used.
template <typename SliceAt>
std::size_t packRows(std::size_t count, SliceAt sliceAt, std::uint16_t firstRow) {
  std::vector<TimeNs> rowEnd;
  for (std::size_t i = 0; i < count; ++i) {
    Slice& sl = sliceAt(i);
    std::size_t r = 0;
    while (r < rowEnd.size() && rowEnd[r] > sl.start) ++r;
    if (r == rowEnd.size()) rowEnd.push_back(sl.end());
    else rowEnd[r] = sl.end();
    sl.depth = static_cast<std::uint16_t>(firstRow + r);
  }
  return rowEnd.size();
}

// An async track's slices, every one on a row of its own packing.
void packAsyncTrack(Trace& t, Track& tr) {
  Slice* first = t.slices.data() + tr.firstSlice;
  tr.rows = static_cast<std::uint16_t>(packRows(tr.sliceCount, [&](std::size_t i) -> Slice& { return first[i]; }, 0));
  tr.nestedRows = tr.rows;
}

// A slice that overlaps the open one without nesting. Two shapes come from
// how Kineto records, in every trace of that kind (docs/import-issues.md):
// Python frames (with_stack=True) are timed apart from ops, so a frame may
// end a nanosecond after its parent, and a record_function range starts in
// the frame of its __enter__ and outlives it; cuda_sync records lie on the
// stream they wait on, across the copy or kernel running there.
void countOverlap(BuilderState& s, const Trace& t, const Slice& sl, std::uint64_t offset) {
  const std::string_view issue = spillIssueName(s.strings, sl, t.slices[sl.parent]);
  if (issue == "python_frame_overlap") {
    s.issues.addQuirk(issue, offset,
                      "a Python frame and an op or annotation overlap without nesting (the Python tracer is "
                      "timed apart): shown on an extra row");
  } else if (issue == "sync_record_overlap") {
    s.issues.addQuirk(issue, offset,
                      "a cuda_sync record overlaps the GPU work on the stream it waits on: shown on an extra row");
  } else {
    s.issues.add(issue, Severity::Warning, offset,
                 "slice overlaps another on its track without nesting: shown on an extra row");
  }
}

// A run of one track's slices that starts with no slice open: it nests on
// its own, and its depths and parents are those of the whole track's pass.
struct NestRun {
  std::uint32_t track = 0;
  std::uint32_t from = 0;  // slice indices
  std::uint32_t to = 0;
  std::size_t depths = 0;               // nesting levels used
  std::vector<std::uint32_t> spilled;   // in order
};

void nestRun(Trace& t, NestRun& run) {
  std::vector<std::uint32_t> stack;
  for (std::uint32_t j = run.from; j < run.to; ++j) {
    Slice& sl = t.slices[j];
    while (!stack.empty() && t.slices[stack.back()].end() <= sl.start) stack.pop_back();
    sl.parent = stack.empty() ? kNoIndex : stack.back();
    if (!stack.empty() && sl.end() > t.slices[stack.back()].end()) {
      run.spilled.push_back(j);
      continue;
    }
    sl.depth = static_cast<std::uint16_t>(stack.size());
    run.depths = std::max(run.depths, stack.size() + 1);
    stack.push_back(j);
  }
}

// Splits track `k`'s slices into about `parts` runs, each starting at a
// slice that starts once every slice before it has ended (a root with
// nothing open: under Kineto a profiler step). The latest end before each
// part is found on the parts' threads, then each part looks for its first
// such slice; a part without one stays with the run before it.
void addNestRuns(const Trace& t, std::uint32_t k, int parts, std::vector<NestRun>& runs) {
  const Track& tr = t.tracks[k];
  std::vector<TimeNs> latestEnd(static_cast<std::size_t>(parts), std::numeric_limits<TimeNs>::min());
  forEachPart(parts, [&](int p) {
    const auto [from, to] = partRange(tr.sliceCount, parts, p);
    TimeNs latest = std::numeric_limits<TimeNs>::min();
    for (std::size_t j = from; j < to; ++j) latest = std::max(latest, t.slices[tr.firstSlice + j].end());
    latestEnd[static_cast<std::size_t>(p)] = latest;
  });
  std::vector<TimeNs> openUntil(static_cast<std::size_t>(parts), std::numeric_limits<TimeNs>::min());
  for (std::size_t p = 1; p < openUntil.size(); ++p) openUntil[p] = std::max(openUntil[p - 1], latestEnd[p - 1]);
  std::vector<std::uint32_t> freshAt(static_cast<std::size_t>(parts), kNoIndex);
  forEachPart(parts, [&](int p) {
    const auto [from, to] = partRange(tr.sliceCount, parts, p);
    TimeNs open = openUntil[static_cast<std::size_t>(p)];
    for (std::size_t j = from; j < to; ++j) {
      const Slice& sl = t.slices[tr.firstSlice + j];
      if (sl.start >= open) {
        freshAt[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(tr.firstSlice + j);
        return;
      }
      open = std::max(open, sl.end());
    }
  });
  freshAt[0] = tr.firstSlice;
  const std::uint32_t end = tr.firstSlice + tr.sliceCount;
  for (std::size_t p = 0; p < freshAt.size(); ++p) {
    if (freshAt[p] == kNoIndex) continue;
    if (!runs.empty() && runs.back().track == k) runs.back().to = freshAt[p];
    NestRun run;
    run.track = k;
    run.from = freshAt[p];
    run.to = end;
    runs.push_back(std::move(run));
  }
}

// The spilled slices on rows below the nested ones, in the sorted order.
void placeSpilled(Trace& t, Track& tr, const std::vector<std::uint32_t>& spilled) {
  for (std::uint32_t j : spilled) t.slices[j].flags |= kSliceSpilled;
  const std::size_t rows = packRows(spilled.size(), [&](std::size_t i) -> Slice& { return t.slices[spilled[i]]; },
                                    tr.nestedRows);
  tr.rows = static_cast<std::uint16_t>(tr.nestedRows + rows);
}

// Nested tracks cut into runs (a big one into about its share of `parts`),
// in track order; async tracks (packed whole) listed apart.
std::vector<NestRun> cutIntoRuns(const Trace& t, int parts, std::vector<std::uint32_t>& asyncTracks) {
  std::vector<NestRun> runs;
  for (std::uint32_t k = 0; k < t.tracks.size(); ++k) {
    const Track& tr = t.tracks[k];
    if (tr.sliceCount == 0) continue;
    if (tr.kind == TrackKind::Async) {
      asyncTracks.push_back(k);
      continue;
    }
    const auto share = static_cast<int>(static_cast<std::uint64_t>(tr.sliceCount) * static_cast<std::uint64_t>(parts) /
                                        std::max<std::size_t>(t.slices.size(), 1));
    addNestRuns(t, k, tr.sliceCount > kParallelAbove ? std::max(1, share) : 1, runs);
  }
  return runs;
}

// Nests the runs and packs the async tracks on up to `parts` threads, each
// taking the biggest piece of work left.
void layOutOnThreads(Trace& t, std::vector<NestRun>& runs, const std::vector<std::uint32_t>& asyncTracks, int parts) {
  std::vector<std::uint32_t> bySize(runs.size());
  std::iota(bySize.begin(), bySize.end(), 0u);
  std::stable_sort(bySize.begin(), bySize.end(), [&](std::uint32_t a, std::uint32_t b) {
    return runs[a].to - runs[a].from > runs[b].to - runs[b].from;
  });
  const std::size_t pieces = bySize.size() + asyncTracks.size();
  std::atomic<std::size_t> next{0};
  forEachPart(std::min<int>(parts, static_cast<int>(std::max<std::size_t>(1, pieces))), [&](int) {
    for (std::size_t k = next++; k < pieces; k = next++) {
      if (k < bySize.size()) nestRun(t, runs[bySize[k]]);
      else packAsyncTrack(t, t.tracks[asyncTracks[k - bySize.size()]]);
    }
  });
}

}  // namespace

// Nested tracks are cut into runs with nothing open at their starts (a
// big track into about one per thread), and the runs nest on the threads,
// the biggest first; async tracks pack a track per thread. Rows, spill rows
// and overlap counts are then joined in track order, as one pass makes them,
// so the trace and its import issues are the same on any number of threads.
void assignDepths(BuilderState& s, Trace& t, const SortedSlices& sorted, int threads) {
  const int parts = partsFor(t.slices.size(), threads);
  std::vector<std::uint32_t> asyncTracks;
  std::vector<NestRun> runs = cutIntoRuns(t, parts, asyncTracks);
  layOutOnThreads(t, runs, asyncTracks, parts);
  for (std::size_t r = 0; r < runs.size();) {
    const std::uint32_t k = runs[r].track;
    std::vector<std::uint32_t> spilled;
    std::size_t depths = 0;
    for (; r < runs.size() && runs[r].track == k; ++r) {
      depths = std::max(depths, runs[r].depths);
      spilled.insert(spilled.end(), runs[r].spilled.begin(), runs[r].spilled.end());
    }
    Track& tr = t.tracks[k];
    tr.nestedRows = static_cast<std::uint16_t>(depths);
    placeSpilled(t, tr, spilled);
    for (std::uint32_t j : spilled) countOverlap(s, t, t.slices[j], s.offsets[sorted.origin[j]]);
  }
}

}  // namespace gapscope::detail
