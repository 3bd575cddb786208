// Which CPU ops ran on the launching thread during a gap, by self time
// clipped to the gap (a parent's self time excludes its children's).
#include <algorithm>

#include "gap_context.h"

namespace gapscope::analysis {
namespace gaps_detail {

TrackTree buildTrackTree(const Slice* first, std::uint32_t count) {
  TrackTree tree;
  tree.parent.assign(count, kNoIndex);
  tree.spilled.assign(count, 0);
  std::vector<std::uint32_t> open;  // nested slices still running, innermost last
  for (std::uint32_t i = 0; i < count; ++i) {
    const Slice& s = first[i];
    while (!open.empty() && first[open.back()].end() <= s.start) open.pop_back();
    if (open.empty() || first[open.back()].end() >= s.end()) {
      tree.parent[i] = open.empty() ? kNoIndex : open.back();
      open.push_back(i);
    } else {
      tree.parent[i] = open.back();
      tree.spilled[i] = 1;
    }
  }
  return tree;
}

CpuBlamer::CpuBlamer(const Trace& trace)
    : trace_(trace), trees_(trace.tracks.size()), ready_(trace.tracks.size(), false) {}

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

std::vector<CpuOpBlame> BlameTotals::take(std::size_t maxOps) {
  std::vector<CpuOpBlame> out;
  for (StringId name : touched) {
    if (byName[name] > 0) out.push_back({name, byName[name], false});
    byName[name] = 0;
    seen[name] = 0;
  }
  touched.clear();
  if (untraced > 0) out.push_back({kEmptyString, untraced, true});
  untraced = 0;
  auto larger = [](const CpuOpBlame& a, const CpuOpBlame& b) {
    return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.name < b.name;
  };
  if (maxOps != 0 && out.size() > maxOps) {
    std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(maxOps), out.end(),
                      larger);
    out.resize(maxOps);
  } else {
    std::sort(out.begin(), out.end(), larger);
  }
  return out;
}

}  // namespace gaps_detail

std::vector<CpuOpBlame> cpuSelfTimeIn(const Trace& trace, std::uint32_t track, TimeNs start,
                                      TimeNs end, std::size_t maxOps) {
  if (track >= trace.tracks.size()) return {};
  gaps_detail::CpuBlamer blamer(trace);
  gaps_detail::BlameTotals totals;
  blamer.blame(track, start, end,
               [&](StringId name, TimeNs ns, bool untraced) { totals.add(name, ns, untraced); });
  return totals.take(maxOps);
}

}  // namespace gapscope::analysis
