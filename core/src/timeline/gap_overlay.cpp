#include "gapscope/timeline/gap_overlay.h"

#include <algorithm>

#include "interval_lod.h"

namespace gapscope::timeline {

namespace {

std::int64_t streamKey(std::int32_t device, std::int64_t stream) {
  return (static_cast<std::int64_t>(device) << 40) ^ stream;
}

const GapList& lookup(const std::unordered_map<std::uint32_t, GapList>& map, std::uint32_t key) {
  static const GapList kNone;
  const auto it = map.find(key);
  return it == map.end() ? kNone : it->second;
}

struct GapRow {
  const analysis::GapAnalysis& gaps;
  const std::vector<std::uint32_t>& indices;
  const StartBuckets& bucketIndex;
  const analysis::Gap& at(std::uint32_t k) const { return gaps.gaps[indices[k]]; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(indices.size()); }
  TimeNs start(std::uint32_t k) const { return at(k).start; }
  TimeNs end(std::uint32_t k) const { return at(k).end(); }
  std::uint32_t id(std::uint32_t k) const { return indices[k]; }
  const StartBuckets* buckets() const { return bucketIndex.empty() ? nullptr : &bucketIndex; }
  const EdgeVisits* edges() const { return nullptr; }  // gap lists are read a wide gap at a time
  std::uint16_t colour(std::uint32_t k) const { return static_cast<std::uint16_t>(at(k).cause); }
  // Galloping forward from `from`: the walk's queries move right a little at a time.
  std::uint32_t lowerBoundStart(TimeNs t, std::uint32_t from) const {
    std::uint32_t n = size();
    if (!bucketIndex.empty()) {
      const auto [a, b] = bucketIndex.range(t);
      if (from >= b) return from;
      from = std::max(from, a);
      n = b;
    }
    if (from >= n || start(from) >= t) return from;
    std::uint32_t lo = from, hi = from + 1, step = 1;
    while (hi < n && start(hi) < t) {
      lo = hi;
      step *= 2;
      hi = n - hi > step ? hi + step : n;
    }
    const auto it = std::partition_point(indices.begin() + lo + 1, indices.begin() + hi,
                                         [&](std::uint32_t g) { return gaps.gaps[g].start < t; });
    return static_cast<std::uint32_t>(it - indices.begin());
  }
};

// Beyond this many gaps wider than the rectangle minimum, a lane's wide gaps
// are drawn by the walk (computeGapRects): as cheap as sorting them.
constexpr std::size_t kWideGapsDrawnDirectly = 8192;

// GapAnalysis lists each stream's and device's gaps by start: a lane's list
// is checked, and sorted only if that promise ever breaks.
void orderByStart(const analysis::GapAnalysis& gaps, std::vector<std::uint32_t>& indices) {
  const auto byStart = [&](std::uint32_t a, std::uint32_t b) { return gaps.gaps[a].start < gaps.gaps[b].start; };
  if (!std::is_sorted(indices.begin(), indices.end(), byStart)) std::stable_sort(indices.begin(), indices.end(), byStart);
}

// The `count` longest of `indices`, longest first (ties in list order).
// Only these are ever looked at: a lane with more wide gaps than
// kWideGapsDrawnDirectly is drawn by the walk. Sorting every gap of a
// 10 GB trace this way took seconds on the GUI thread as a trace opened.
std::vector<std::uint32_t> longestOf(const analysis::GapAnalysis& gaps, const std::vector<std::uint32_t>& indices,
                                     std::size_t count) {
  struct Keyed {
    TimeNs dur;
    std::uint32_t at;  // position in `indices`
  };
  std::vector<Keyed> keyed(indices.size());
  for (std::uint32_t k = 0; k < indices.size(); ++k) keyed[k] = {gaps.gaps[indices[k]].dur, k};
  const auto longer = [](const Keyed& a, const Keyed& b) { return a.dur != b.dur ? a.dur > b.dur : a.at < b.at; };
  const auto top = keyed.begin() + static_cast<std::ptrdiff_t>(std::min(count, keyed.size()));
  std::partial_sort(keyed.begin(), top, keyed.end(), longer);
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(top - keyed.begin()));
  for (auto it = keyed.begin(); it != top; ++it) out.push_back(indices[it->at]);
  return out;
}

}  // namespace

GapOverlay::GapOverlay(const Trace& trace, const TimelineLayout& layout,
                       const analysis::GapAnalysis& gaps, TimeNs minGapNs)
    : minGapNs_(minGapNs) {
  for (std::uint32_t l = 0; l < layout.lanes().size(); ++l) {
    const Lane& lane = layout.lanes()[l];
    if (lane.kind != LaneKind::Slices || lane.track >= trace.tracks.size()) continue;
    const Track& t = trace.tracks[lane.track];
    if (t.kind != TrackKind::GpuStream) continue;
    laneOfStream_.emplace(streamKey(t.device, t.stream), l);
    if (layout.groups()[lane.group].kind == GroupKind::Gpu) groupOfDevice_.emplace(t.device, lane.group);
  }
  for (std::uint32_t i = 0; i < gaps.gaps.size(); ++i) {
    const analysis::Gap& g = gaps.gaps[i];
    if (g.dur < minGapNs) continue;
    if (g.stream < 0) {
      const std::uint32_t group = groupOfGap(g);
      if (group == kNoIndex) continue;
      byGroup_[group].indices.push_back(i);
    } else {
      const std::uint32_t lane = laneOfGap(g);
      if (lane == kNoIndex) continue;
      byLane_[lane].indices.push_back(i);
    }
    ++shown_;
  }
  for (auto* map : {&byLane_, &byGroup_}) {
    for (auto& entry : *map) {
      auto& list = entry.second;  // a plain reference: clang 14 cannot capture a structured binding
      orderByStart(gaps, list.indices);
      list.buckets.build(static_cast<std::uint32_t>(list.indices.size()),
                         [&](std::uint32_t k) { return gaps.gaps[list.indices[k]].start; });
      list.longestFirst = longestOf(gaps, list.indices, kWideGapsDrawnDirectly + 1);
    }
  }
}

const GapList& GapOverlay::laneGaps(std::uint32_t lane) const {
  return lookup(byLane_, lane);
}

const GapList& GapOverlay::groupGaps(std::uint32_t group) const {
  return lookup(byGroup_, group);
}

std::uint32_t GapOverlay::laneOfGap(const analysis::Gap& gap) const {
  if (gap.stream < 0) return kNoIndex;
  const auto it = laneOfStream_.find(streamKey(gap.device, gap.stream));
  return it == laneOfStream_.end() ? kNoIndex : it->second;
}

std::uint32_t GapOverlay::groupOfGap(const analysis::Gap& gap) const {
  const auto it = groupOfDevice_.find(gap.device);
  return it == groupOfDevice_.end() ? kNoIndex : it->second;
}

void computeGapRects(const analysis::GapAnalysis& gaps, const GapList& list, const TimeScale& scale,
                     std::vector<IntervalRect>& out) {
  const auto& indices = list.indices;
  if (indices.empty()) return;
  const GapRow row{gaps, indices, list.buckets};
  // Gaps of one lane never overlap: the first reaching t0 is a binary search on ends.
  const auto first = std::partition_point(indices.begin(), indices.end(), [&](std::uint32_t g) {
    return gaps.gaps[g].end() < scale.start();
  });
  detail::IntervalWalk<GapRow> walk(row, scale, out);
  walk.run(static_cast<std::uint32_t>(first - indices.begin()), true);
}

void computeWideGapRects(const analysis::GapAnalysis& gaps, const GapList& list, const TimeScale& scale,
                         std::vector<IntervalRect>& out) {
  const double minDur = scale.nsPerPixel() * kMinRectPx;
  const auto wideEnd = std::partition_point(list.longestFirst.begin(), list.longestFirst.end(), [&](std::uint32_t g) {
    return static_cast<double>(gaps.gaps[g].dur) >= minDur;
  });
  const auto wide = static_cast<std::size_t>(wideEnd - list.longestFirst.begin());
  if (wide > kWideGapsDrawnDirectly) {
    const std::size_t before = out.size();
    computeGapRects(gaps, list, scale, out);
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(),
                             [](const IntervalRect& r) { return r.merged; }),
              out.end());
    return;
  }
  std::vector<std::uint32_t> shown;
  for (auto it = list.longestFirst.begin(); it != wideEnd; ++it) {
    const auto& g = gaps.gaps[*it];
    if (g.end() >= scale.start() && g.start <= scale.end()) shown.push_back(*it);
  }
  std::sort(shown.begin(), shown.end(), [&](std::uint32_t a, std::uint32_t b) { return gaps.gaps[a].start < gaps.gaps[b].start; });
  const double w = scale.width();
  for (std::uint32_t i : shown) {
    const auto& g = gaps.gaps[i];
    IntervalRect r;
    r.x0 = static_cast<float>(std::clamp(scale.toPixel(g.start), -1.0, w + 1));
    r.x1 = static_cast<float>(std::clamp(scale.toPixel(g.end()), -1.0, w + 1));
    r.index = i;
    r.colour = static_cast<std::uint16_t>(g.cause);
    out.push_back(r);
  }
}

}  // namespace gapscope::timeline
