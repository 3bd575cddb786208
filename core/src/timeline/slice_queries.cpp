#include "gapscope/timeline/slice_queries.h"

#include <algorithm>
#include <cctype>

namespace gapscope::timeline {

namespace {

bool containsIgnoringCase(std::string_view text, std::string_view lowerQuery) {
  if (lowerQuery.size() > text.size()) return false;
  const auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  const auto it = std::search(text.begin(), text.end(), lowerQuery.begin(), lowerQuery.end(),
                              [&](char a, char b) { return lower(a) == b; });
  return it != text.end();
}

// Slices whose name id is marked, in start order.
std::vector<std::uint32_t> slicesWithNames(const Trace& trace, const std::vector<bool>& wanted,
                                           const std::string_view* shapes) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.name >= wanted.size() || !wanted[s.name]) continue;
    if (shapes && trace.str(s.shapes) != *shapes) continue;
    out.push_back(i);
  }
  std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].start < trace.slices[b].start;
  });
  return out;
}

}  // namespace

std::uint32_t sliceAt(const Trace& trace, const TimelineLayout& layout, std::uint32_t row,
                      TimeNs t, TimeNs slop) {
  if (row >= layout.rows().size()) return kNoIndex;
  const LayoutRow& r = layout.rows()[row];
  const RowSlices slices = layout.rowSlices(trace, row);
  // Anything starting after t + slop is too late; ending before t - slop too early.
  std::uint32_t k = firstReaching(slices, r, t - slop);
  const std::uint32_t end = slices.lowerBoundStart(t + slop + 1, k);
  std::uint32_t best = kNoIndex;
  TimeNs bestDistance = slop + 1;
  for (; k < end; ++k) {
    const Slice& s = slices[k];
    const TimeNs distance = t < s.start ? s.start - t : (t > s.end() ? t - s.end() : 0);
    // Inside several (overlapping rows): the shortest is the most specific.
    if (distance < bestDistance ||
        (distance == bestDistance && best != kNoIndex && s.dur < trace.slices[best].dur)) {
      best = slices.sliceIndex(k);
      bestDistance = distance;
    }
  }
  return best;
}

TimeNs selfTime(const Trace& trace, const TimelineLayout& layout, std::uint32_t slice) {
  const std::uint32_t row = layout.rowOfSlice(trace, slice);
  if (row == kNoIndex) return slice < trace.slices.size() ? trace.slices[slice].dur : 0;
  const Slice& s = trace.slices[slice];
  const LayoutRow& r = layout.rows()[row];
  const Lane& lane = layout.lanes()[r.lane];
  if (r.spill || r.depth + 1u >= lane.rowCount) return s.dur;
  const std::uint32_t childRow = row + 1;
  if (layout.rows()[childRow].spill) return s.dur;
  const RowSlices children = layout.rowSlices(trace, childRow);
  TimeNs covered = 0;
  for (std::uint32_t k = children.lowerBoundStart(s.start);
       k < children.size() && children[k].start < s.end(); ++k) {
    const Slice& c = children[k];
    covered += std::min(c.end(), s.end()) - c.start;
  }
  return std::max<TimeNs>(0, s.dur - covered);
}

std::uint32_t launchPartner(const Trace& trace, std::uint32_t slice) {
  if (slice >= trace.slices.size()) return kNoIndex;
  const Slice& s = trace.slices[slice];
  if (s.correlation != kNoCorrelation) {
    const std::uint32_t partner = isGpuActivity(s.kind) ? trace.launchForCorrelation(s.correlation)
                                                        : trace.gpuOpForCorrelation(s.correlation);
    if (partner != kNoIndex && partner != slice) return partner;
  }
  for (const Flow& f : trace.flows) {
    if (f.kind != FlowKind::LaunchToGpu) continue;
    if (f.from == slice) return f.to;
    if (f.to == slice) return f.from;
  }
  return kNoIndex;
}

std::vector<std::uint32_t> findSlicesByName(const Trace& trace, std::string_view query) {
  if (query.empty()) return {};
  std::string lowerQuery(query);
  for (char& c : lowerQuery) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Match each distinct name once, then collect its slices.
  std::vector<bool> wanted(trace.strings.size(), false);
  bool any = false;
  for (std::size_t id = 0; id < trace.strings.size(); ++id) {
    if (containsIgnoringCase(trace.strings.view(static_cast<StringId>(id)), lowerQuery)) {
      wanted[id] = true;
      any = true;
    }
  }
  if (!any) return {};
  return slicesWithNames(trace, wanted, nullptr);
}

std::vector<std::uint32_t> findSlicesNamed(const Trace& trace, std::string_view name,
                                           const std::string_view* shapes) {
  std::vector<bool> wanted(trace.strings.size(), false);
  // "ProfilerStep*" (the operator table's fold of ProfilerStep#N) is a prefix.
  const bool prefix = !name.empty() && name.back() == '*';
  const std::string_view stem = prefix ? name.substr(0, name.size() - 1) : name;
  bool any = false;
  for (std::size_t id = 0; id < trace.strings.size(); ++id) {
    const std::string_view text = trace.strings.view(static_cast<StringId>(id));
    const bool prefixMatch = prefix && text.size() > stem.size() && text.substr(0, stem.size()) == stem;
    if (text == name || prefixMatch) {
      wanted[id] = true;
      any = true;
    }
  }
  if (!any) return {};
  return slicesWithNames(trace, wanted, shapes);
}

std::vector<std::uint32_t> slicesOverlapping(const Trace& trace, const TimelineLayout& layout,
                                             std::uint32_t track, TimeNs start, TimeNs end) {
  std::vector<std::uint32_t> out;
  const std::uint32_t lane = layout.laneOfTrack(track);
  if (lane == kNoIndex) return out;
  const Lane& l = layout.lanes()[lane];
  for (std::uint32_t row = l.firstRow; row < l.firstRow + l.rowCount; ++row) {
    const RowSlices slices = layout.rowSlices(trace, row);
    for (std::uint32_t k = firstReaching(slices, layout.rows()[row], start);
         k < slices.size() && slices[k].start < end; ++k) {
      if (slices[k].end() > start || (slices[k].dur == 0 && slices[k].start >= start)) {
        out.push_back(slices.sliceIndex(k));
      }
    }
  }
  std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
    return trace.slices[a].start < trace.slices[b].start;
  });
  return out;
}

std::uint32_t longestSlice(const Trace& trace, const std::vector<std::uint32_t>& slices, TimeNs from) {
  std::uint32_t best = kNoIndex;
  std::uint32_t bestFrom = kNoIndex;
  for (std::uint32_t i : slices) {
    const Slice& s = trace.slices[i];
    if (best == kNoIndex || s.dur > trace.slices[best].dur) best = i;
    if (s.start >= from && (bestFrom == kNoIndex || s.dur > trace.slices[bestFrom].dur)) bestFrom = i;
  }
  return bestFrom != kNoIndex ? bestFrom : best;
}

}  // namespace gapscope::timeline
