// Which CPU ops ran on the launching thread during a gap, by self time
// clipped to the gap (a parent's self time excludes its children's).
#include <algorithm>

#include "gap_context.h"

namespace gapscope::analysis {
namespace gaps_detail {

TrackTree buildTrackTree(const Slice* first, std::uint32_t count) {
  TrackTree tree;
  TrackTreeBuilder builder(first, count, tree);
  for (std::uint32_t i = 0; i < count; ++i) builder.add(i);
  return tree;
}

CpuBlamer::CpuBlamer(const Trace& trace, std::vector<TrackTree> trees)
    : trace_(trace), trees_(std::move(trees)), hint_(trace.tracks.size(), 0) {
  trees_.resize(trace.tracks.size());
  ready_.resize(trace.tracks.size());
  for (std::size_t i = 0; i < trees_.size(); ++i)
    ready_[i] = trees_[i].parent.size() == trace.tracks[i].sliceCount;
}

std::uint32_t CpuBlamer::firstStartingAt(std::uint32_t track, TimeNs t) {
  const Track& tr = trace_.tracks[track];
  const Slice* first = trace_.trackBegin(tr);
  std::uint32_t n = tr.sliceCount;
  std::uint32_t lo = 0, hi = n;
  std::uint32_t h = std::min(hint_[track], n);
  if (h == 0 || first[h - 1].start < t) {
    // Gallop forward from the hint: [lo, hi) brackets the answer.
    lo = h;
    std::uint32_t step = 1;
    while (lo + step <= n && first[lo + step - 1].start < t) {
      lo += step;
      step *= 2;
    }
    hi = std::min(n, lo + step);
  } else {
    hi = h;
  }
  while (lo < hi) {
    std::uint32_t mid = lo + (hi - lo) / 2;
    if (first[mid].start < t) lo = mid + 1;
    else hi = mid;
  }
  hint_[track] = lo;
  return lo;
}

CpuBlamer::~CpuBlamer() = default;

const TrackTree& CpuBlamer::tree(std::uint32_t track) {
  if (!ready_[track]) {
    const Track& t = trace_.tracks[track];
    trees_[track] = buildTrackTree(trace_.trackBegin(t), t.sliceCount);
    ready_[track] = true;
  }
  return trees_[track];
}

void BlameTotals::add(StringId name, TimeNs ns, bool untracedTime) {
  if (untracedTime) {
    untraced += ns;
    return;
  }
  if (name >= byName.size()) {
    byName.resize(name + 1, 0);
    seen.resize(name + 1, 0);
  }
  if (!seen[name]) {
    seen[name] = 1;
    touched.push_back(name);
  }
  byName[name] += ns;
}

void BlameTotals::addTo(BlameTotals& other) const {
  for (StringId name : touched) other.add(name, byName[name], false);
  other.untraced += untraced;
}

void BlameTotals::clear() {
  for (StringId name : touched) {
    byName[name] = 0;
    seen[name] = 0;
  }
  touched.clear();
  untraced = 0;
}

std::size_t BlameTotals::takeInto(std::vector<CpuOpBlame>& pool, std::size_t maxOps) {
  std::size_t begin = pool.size();
  for (StringId name : touched) {
    if (byName[name] > 0) pool.push_back({name, false, byName[name]});
    byName[name] = 0;
    seen[name] = 0;
  }
  touched.clear();
  if (untraced > 0) pool.push_back({kEmptyString, true, untraced});
  untraced = 0;
  auto larger = [](const CpuOpBlame& a, const CpuOpBlame& b) {
    return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.name < b.name;
  };
  auto first = pool.begin() + static_cast<std::ptrdiff_t>(begin);
  std::size_t n = pool.size() - begin;
  if (maxOps != 0 && n > maxOps) {
    std::partial_sort(first, first + static_cast<std::ptrdiff_t>(maxOps), pool.end(), larger);
    pool.resize(begin + maxOps);
    return maxOps;
  }
  std::sort(first, pool.end(), larger);
  return n;
}

}  // namespace gaps_detail

std::vector<CpuOpBlame> cpuSelfTimeIn(const Trace& trace, std::uint32_t track, TimeNs start,
                                      TimeNs end, std::size_t maxOps) {
  if (track >= trace.tracks.size()) return {};
  gaps_detail::CpuBlamer blamer(trace, {});
  gaps_detail::BlameTotals totals;
  blamer.blame(track, start, end,
               [&](StringId name, TimeNs ns, bool untraced) { totals.add(name, ns, untraced); });
  std::vector<CpuOpBlame> out;
  totals.takeInto(out, maxOps);
  return out;
}

}  // namespace gapscope::analysis
