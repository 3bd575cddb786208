#include "gapscope/timeline/layout.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace gapscope::timeline {

namespace {

// Metadata names come with stray spaces (Kineto writes "stream 7 ").
std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

std::string groupName(const Trace& trace, const Process& p, GroupKind kind) {
  const std::string name = trimmed(trace.str(p.name));
  const std::string labels = trimmed(trace.str(p.labels));
  if (kind == GroupKind::Profiler) return name.empty() ? chromeIdText(trace, p.pid) : name;
  if (kind == GroupKind::Gpu) {
    std::string head = !labels.empty() ? labels : "GPU " + chromeIdText(trace, p.pid);
    return name.empty() ? head : head + " (" + name + ")";
  }
  std::string head = name.empty() ? "process" : name;
  return head + " (pid " + chromeIdText(trace, p.pid) + ")";
}

std::string laneName(const Trace& trace, const Track& t) {
  std::string name = trimmed(trace.str(t.name));
  if (t.kind == TrackKind::GpuStream) {
    if (!name.empty()) return name;
    return t.stream >= 0 ? "stream " + std::to_string(t.stream) : "stream " + chromeIdText(trace, t.tid);
  }
  if (!name.empty()) return name;
  return "thread " + chromeIdText(trace, t.tid);
}

// GPU devices first: where the GPU waited is what the view is for, and a
// CPU process with Python stacks can be hundreds of rows deep.
int groupRank(GroupKind kind) {
  switch (kind) {
    case GroupKind::Gpu: return 0;
    case GroupKind::Cpu: return 1;
    case GroupKind::Profiler: return 2;
  }
  return 2;
}

GroupKind groupKindOf(const Trace& trace, const Process& p) {
  if (isProfilerProcess(trace, p)) return GroupKind::Profiler;
  if (p.isGpu) return GroupKind::Gpu;
  for (std::uint32_t t : p.tracks) {
    if (t < trace.tracks.size() && trace.tracks[t].kind == TrackKind::GpuStream) return GroupKind::Gpu;
  }
  return GroupKind::Cpu;
}

std::uint8_t hashToPalette(std::string_view text) {
  // FNV-1a: stable across runs and platforms, unlike std::hash.
  std::uint32_t h = 2166136261u;
  for (unsigned char c : text) {
    h ^= c;
    h *= 16777619u;
  }
  return static_cast<std::uint8_t>(h % kNamePaletteSize);
}

// Fills the rows of one slice lane from its track.
void buildRows(const Trace& trace, const Track& track, std::uint32_t laneIndex,
               std::vector<LayoutRow>& rows) {
  std::uint16_t rowCount = std::max<std::uint16_t>(track.rows, 1);
  // Depths beyond the declared rows would be lost; trust the slices.
  for (const Slice* s = trace.trackBegin(track); s != trace.trackEnd(track); ++s) {
    rowCount = std::max<std::uint16_t>(rowCount, static_cast<std::uint16_t>(s->depth + 1));
  }
  const std::size_t base = rows.size();
  rows.resize(base + rowCount);
  for (std::uint16_t d = 0; d < rowCount; ++d) {
    rows[base + d].lane = laneIndex;
    rows[base + d].depth = d;
    rows[base + d].spill = track.nestedRows > 0 && d >= track.nestedRows;
  }
  if (rowCount == 1) {
    rows[base].first = track.firstSlice;
    rows[base].count = track.sliceCount;
  } else {
    for (std::uint32_t i = 0; i < track.sliceCount; ++i) {
      const std::uint32_t index = track.firstSlice + i;
      rows[base + trace.slices[index].depth].indices.push_back(index);
    }
    for (std::uint16_t d = 0; d < rowCount; ++d) {
      rows[base + d].count = static_cast<std::uint32_t>(rows[base + d].indices.size());
    }
  }
  for (std::uint16_t d = 0; d < rowCount; ++d) {
    LayoutRow& row = rows[base + d];
    RowSlices view = row.indices.empty()
                         ? RowSlices(trace.slices.data(), row.first, row.count)
                         : RowSlices(trace.slices.data(), row.indices.data(), row.count);
    TimeNs lastEnd = std::numeric_limits<TimeNs>::min();
    for (std::uint32_t k = 0; k < view.size(); ++k) {
      const Slice& s = view[k];
      if (s.start < lastEnd) row.disjoint = false;
      lastEnd = std::max(lastEnd, s.end());
      row.maxDuration = std::max(row.maxDuration, s.dur);
    }
    row.buckets.build(view.size(), [&](std::uint32_t k) { return view[k].start; });
  }
}

void addCounterLane(const Trace& trace, std::uint32_t series, std::uint32_t groupIndex,
                    std::vector<Lane>& lanes, std::vector<LayoutRow>& rows) {
  const CounterSeries& c = trace.counters[series];
  Lane lane;
  lane.kind = LaneKind::Counter;
  lane.group = groupIndex;
  lane.counter = series;
  lane.name = std::string(trace.str(c.name));
  if (!c.values.empty()) {
    const auto [lo, hi] = std::minmax_element(c.values.begin(), c.values.end());
    lane.counterMin = std::min(0.0, *lo);
    lane.counterMax = *hi;
  }
  lane.firstRow = static_cast<std::uint32_t>(rows.size());
  lane.rowCount = 1;
  LayoutRow row;
  row.lane = static_cast<std::uint32_t>(lanes.size());
  rows.push_back(std::move(row));
  lanes.push_back(std::move(lane));
}

}  // namespace

std::uint32_t RowSlices::bisect(TimeNs t, std::uint32_t lo, std::uint32_t hi) const {
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if ((*this)[mid].start < t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::uint32_t RowSlices::lowerBoundStart(TimeNs t, std::uint32_t from) const {
  std::uint32_t lo = from, hi = count_;
  if (buckets_) {
    const auto [a, b] = buckets_->range(t);
    if (from >= b) return from;
    lo = std::max(lo, a);
    hi = b;
  }
  return bisect(t, lo, hi);
}

std::uint32_t RowSlices::gallopStart(TimeNs t, std::uint32_t from) const {
  std::uint32_t end = count_;
  if (buckets_) {
    // The bucket bounds the answer: gallop inside it, from `from` or its first position.
    const auto [a, b] = buckets_->range(t);
    if (from >= b) return from;
    from = std::max(from, a);
    end = b;
  }
  if (from >= end || (*this)[from].start >= t) return from;
  // Invariant: start(lo) < t; find hi with start(hi) >= t (or the end).
  std::uint32_t lo = from;
  std::uint32_t step = 1;
  std::uint32_t hi = from + 1;
  while (hi < end && (*this)[hi].start < t) {
    lo = hi;
    step *= 2;
    hi = end - hi > step ? hi + step : end;
  }
  return bisect(t, lo + 1, hi);
}

std::uint32_t RowSlices::lowerBoundEnd(TimeNs t) const {
  // In a disjoint row every slice ends before the next starts: those from
  // the first starting at or after t all reach t, of the ones before only
  // the last may. So one search by start (through the time buckets: a
  // bisection over the whole row by end was about 20 cache misses a row
  // and frame) and one look back.
  const std::uint32_t k = lowerBoundStart(t);
  return k > 0 && (*this)[k - 1].end() >= t ? k - 1 : k;
}

std::uint32_t firstReaching(const RowSlices& row, const LayoutRow& info, TimeNs t) {
  if (info.disjoint) return row.lowerBoundEnd(t);
  // Nothing starting before t - maxDuration can reach t.
  std::uint32_t k = row.lowerBoundStart(t - info.maxDuration);
  while (k < row.size() && row[k].end() < t) ++k;
  return k;
}

bool isProfilerProcess(const Trace& trace, const Process& p) {
  const std::string_view pidText = p.pid.label != kEmptyString ? trace.str(p.pid.label) : "";
  const std::string_view name = trace.str(p.name);
  for (std::string_view kineto : {"Spans", "Traces"}) {
    if (pidText == kineto || name == kineto) return true;
  }
  // Kineto's (and gapscope's recorder's) "CUPTI overhead" process: nothing
  // but category "overhead" slices (buffer requests and flushes).
  bool any = false;
  StringId overhead = kEmptyString;
  if (!trace.strings.find("overhead", &overhead)) return false;
  for (std::uint32_t t : p.tracks) {
    if (t >= trace.tracks.size()) continue;
    const Track& track = trace.tracks[t];
    for (const Slice* s = trace.trackBegin(track); s != trace.trackEnd(track); ++s) {
      if (s->category != overhead) return false;
      any = true;
    }
  }
  return any;
}

TimelineLayout TimelineLayout::build(const Trace& trace) {
  TimelineLayout layout;
  layout.laneOfTrack_.assign(trace.tracks.size(), kNoIndex);

  std::vector<std::vector<std::uint32_t>> countersOf(trace.processes.size());
  for (std::uint32_t c = 0; c < trace.counters.size(); ++c) {
    const std::uint32_t p = trace.counters[c].process;
    if (p < countersOf.size()) countersOf[p].push_back(c);
  }

  std::vector<std::uint32_t> order(trace.processes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::vector<GroupKind> kinds(trace.processes.size());
  for (std::uint32_t p = 0; p < kinds.size(); ++p) kinds[p] = groupKindOf(trace, trace.processes[p]);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Process& pa = trace.processes[a];
    const Process& pb = trace.processes[b];
    return std::make_tuple(groupRank(kinds[a]), pa.sortIndex, pa.pid.num) <
           std::make_tuple(groupRank(kinds[b]), pb.sortIndex, pb.pid.num);
  });

  for (std::uint32_t p : order) {
    const Process& process = trace.processes[p];
    Group group;
    group.kind = kinds[p];
    group.process = p;
    group.name = groupName(trace, process, group.kind);
    group.collapsedByDefault = group.kind == GroupKind::Profiler;
    const auto groupIndex = static_cast<std::uint32_t>(layout.groups_.size());

    std::vector<std::uint32_t> tracks;
    for (std::uint32_t t : process.tracks) {
      if (t < trace.tracks.size() && trace.tracks[t].sliceCount > 0) tracks.push_back(t);
    }
    std::stable_sort(tracks.begin(), tracks.end(), [&](std::uint32_t a, std::uint32_t b) {
      const Track& ta = trace.tracks[a];
      const Track& tb = trace.tracks[b];
      // Async tracks after threads; GPU streams by stream id.
      return std::make_tuple(ta.kind == TrackKind::Async, ta.sortIndex, ta.stream, ta.tid.num) <
             std::make_tuple(tb.kind == TrackKind::Async, tb.sortIndex, tb.stream, tb.tid.num);
    });
    for (std::uint32_t t : tracks) {
      if (group.kind == GroupKind::Gpu && trace.tracks[t].kind == TrackKind::GpuStream) group.device = trace.tracks[t].device;
      const auto laneIndex = static_cast<std::uint32_t>(layout.lanes_.size());
      Lane lane;
      lane.kind = LaneKind::Slices;
      lane.group = groupIndex;
      lane.track = t;
      lane.name = laneName(trace, trace.tracks[t]);
      lane.firstRow = static_cast<std::uint32_t>(layout.rows_.size());
      buildRows(trace, trace.tracks[t], laneIndex, layout.rows_);
      lane.rowCount = static_cast<std::uint32_t>(layout.rows_.size()) - lane.firstRow;
      layout.laneOfTrack_[t] = laneIndex;
      layout.lanes_.push_back(std::move(lane));
      group.lanes.push_back(laneIndex);
    }
    for (std::uint32_t c : countersOf[p]) {
      group.lanes.push_back(static_cast<std::uint32_t>(layout.lanes_.size()));
      addCounterLane(trace, c, groupIndex, layout.lanes_, layout.rows_);
    }
    if (!group.lanes.empty()) layout.groups_.push_back(std::move(group));
  }

  layout.setContentRange(trace);
  layout.nameColour_.resize(trace.strings.size());
  for (std::size_t id = 0; id < trace.strings.size(); ++id) {
    const std::string_view name = trace.strings.view(static_cast<StringId>(id));
    layout.nameColour_[id] = isLaunchCallName(name) ? kColourLaunch : hashToPalette(name);
  }
  layout.buildEdgeVisits(trace);
  return layout;
}

void TimelineLayout::setContentRange(const Trace& trace) {
  bool any = false;
  TimeNs lo = 0, hi = 0;
  const auto extend = [&](TimeNs a, TimeNs b) {
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
  };
  for (std::uint32_t r = 0; r < rows_.size(); ++r) {
    const RowSlices slices = rowSlices(trace, r);
    if (slices.empty()) continue;
    // Sorted by start: the first starts first; the latest end is the last
    // one's in a disjoint row, else somewhere within maxDuration of the end.
    TimeNs end = slices[slices.size() - 1].end();
    if (!rows_[r].disjoint) {
      const TimeNs lastStart = slices[slices.size() - 1].start;
      for (std::uint32_t k = slices.lowerBoundStart(lastStart - rows_[r].maxDuration); k < slices.size(); ++k) {
        end = std::max(end, slices[k].end());
      }
    }
    extend(slices[0].start, end);
  }
  for (const Lane& lane : lanes_) {
    if (lane.kind != LaneKind::Counter) continue;
    const auto& ts = trace.counters[lane.counter].ts;
    if (!ts.empty()) extend(*std::min_element(ts.begin(), ts.end()), *std::max_element(ts.begin(), ts.end()));
  }
  contentStart_ = any ? lo : trace.minTime();
  contentEnd_ = any ? hi : trace.maxTime();
}

RowSlices TimelineLayout::rowSlices(const Trace& trace, std::uint32_t row) const {
  const LayoutRow& r = rows_[row];
  const RowSlices view = r.indices.empty() ? RowSlices(trace.slices.data(), r.first, r.count)
                                           : RowSlices(trace.slices.data(), r.indices.data(), r.count);
  return view.withBuckets(&r.buckets, &r.edges);
}

// After the colours: each visit carries its slice's colour class. Only
// disjoint rows: the walk jumps (and reads edges) only there.
void TimelineLayout::buildEdgeVisits(const Trace& trace) {
  for (std::uint32_t r = 0; r < rows_.size(); ++r) {
    LayoutRow& row = rows_[r];
    if (row.buckets.empty() || !row.disjoint) continue;
    const RowSlices view = rowSlices(trace, r);
    row.edges.build(row.buckets, view.size(), [&](std::uint32_t k) {
      const Slice& s = view[k];
      return IntervalVisit{s.start, s.end(), view.sliceIndex(k), colourClass(s)};
    });
  }
}

std::uint32_t TimelineLayout::laneOfTrack(std::uint32_t track) const {
  return track < laneOfTrack_.size() ? laneOfTrack_[track] : kNoIndex;
}

std::uint32_t TimelineLayout::rowOfSlice(const Trace& trace, std::uint32_t slice) const {
  if (slice >= trace.slices.size()) return kNoIndex;
  const Slice& s = trace.slices[slice];
  const std::uint32_t lane = laneOfTrack(s.track);
  if (lane == kNoIndex || s.depth >= lanes_[lane].rowCount) return kNoIndex;
  return lanes_[lane].firstRow + s.depth;
}

std::uint16_t TimelineLayout::colourClass(const Slice& s) const {
  if (s.kind == SliceKind::Memcpy) return kColourMemcpy;
  if (s.kind == SliceKind::Memset) return kColourMemset;
  return s.name < nameColour_.size() ? nameColour_[s.name] : 0;
}

}  // namespace gapscope::timeline
