// Which CPU ops ran on the launching thread during a gap, by self time
// clipped to the gap (a parent's self time excludes its children's).
#include <algorithm>

#include "cpu_blame.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace gaps_detail {

CpuBlamer::CpuBlamer(const Trace& trace) : trace_(trace), hint_(trace.tracks.size(), 0) {}

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

void CpuBlamer::blame(std::uint32_t track, TimeNs start, TimeNs end, BlameTotals& totals) {
  if (end <= start || track >= trace_.tracks.size()) return;
  const Track& t = trace_.tracks[track];
  const Slice* first = trace_.trackBegin(t);
  const Slice* slices = trace_.slices.data();
  TimeNs rootTime = 0;
  auto visit = [&](const Slice& s) {
    if (s.flags & kSliceSpilled) return;
    TimeNs clip = std::min(s.end(), end) - std::max(s.start, start);
    if (clip <= 0) return;
    totals.add(s.name, clip);
    if (s.parent == kNoIndex)
      rootTime = addSaturating(rootTime, clip);
    else
      totals.add(slices[s.parent].name, -clip);
  };
  // Slices starting before the window that still run at its start are the
  // last slice starting before it and that slice's ancestors.
  std::uint32_t lo = firstStartingAt(track, start);
  if (lo > 0) {
    for (std::uint32_t j = t.firstSlice + lo - 1; j != kNoIndex; j = slices[j].parent) visit(slices[j]);
  }
  std::uint32_t i = lo;
  for (; i < t.sliceCount && first[i].start < end; ++i) visit(first[i]);
  totals.addUntraced((end - start) - rootTime);
#if defined(__GNUC__)
  // The next gap on this thread is usually a few slices on: asking for
  // them now lets their fetch from memory overlap the work in between (a
  // slice is a cache line).
  for (std::uint32_t k = i; k < i + 8 && k < t.sliceCount; ++k) __builtin_prefetch(first + k);
#endif
}

void BlameTotals::buildIndex() {
  indexed_ = true;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    StringId name = entries_[i].name;
    if (name >= index_.size()) index_.resize(name + 1, 0);
    index_[name] = static_cast<std::uint32_t>(i + 1);
  }
}

void BlameTotals::addIndexed(StringId name, TimeNs ns) {
  if (name >= index_.size()) index_.resize(name + 1, 0);
  std::uint32_t& slot = index_[name];
  if (slot == 0) {
    entries_.push_back({name, ns});
    slot = static_cast<std::uint32_t>(entries_.size());
  } else {
    entries_[slot - 1].ns = addSaturating(entries_[slot - 1].ns, ns);
  }
}

void BlameTotals::addTo(std::vector<TimeNs>& byName, TimeNs& untraced) const {
  for (const Entry& e : entries_) byName[e.name] = addSaturating(byName[e.name], e.ns);
  untraced = addSaturating(untraced, untraced_);
}

void BlameTotals::clear() {
  if (indexed_) {
    for (const Entry& e : entries_) index_[e.name] = 0;
    indexed_ = false;
  }
  entries_.clear();
  untraced_ = 0;
}

namespace {

// Largest self time first; names (then the untraced entry last) break ties.
bool larger(const CpuOpBlame& a, const CpuOpBlame& b) {
  if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
  if (a.name != b.name) return a.name < b.name;
  return a.isUntraced < b.isUntraced;
}

// A gap has a handful of entries: insertion sort, no call into std::sort.
void sortFew(CpuOpBlame* first, CpuOpBlame* last) {
  for (CpuOpBlame* i = first + 1; i < last; ++i) {
    CpuOpBlame v = *i;
    CpuOpBlame* j = i;
    for (; j > first && larger(v, *(j - 1)); --j) *j = *(j - 1);
    *j = v;
  }
}

}  // namespace

std::size_t BlameTotals::takeInto(std::vector<CpuOpBlame>& pool, std::size_t maxOps) {
  std::size_t begin = pool.size();
  for (const Entry& e : entries_)
    if (e.ns > 0) pool.push_back({e.name, false, e.ns});
  if (untraced_ > 0) pool.push_back({kEmptyString, true, untraced_});
  clear();
  CpuOpBlame* first = pool.data() + begin;
  CpuOpBlame* last = pool.data() + pool.size();
  std::size_t n = pool.size() - begin;
  if (maxOps != 0 && n > maxOps) {
    std::partial_sort(first, first + maxOps, last, larger);
    pool.resize(begin + maxOps);
    return maxOps;
  }
  if (n <= 16)
    sortFew(first, last);
  else
    std::sort(first, last, larger);
  return n;
}

void GapBlamer::blame(Gap& g, bool listed, bool overhead, std::vector<CpuOpBlame>& pool) {
  blamer_.blame(g.launchTrack, g.start, g.end(), gapTotals_);
  if (overhead) {
    if (overheadByName_.empty()) overheadByName_.assign(nameCount_, 0);
    gapTotals_.addTo(overheadByName_, overheadUntraced_);
  }
  if (!listed) {
    gapTotals_.clear();
    return;
  }
  g.cpuOpsBegin = static_cast<std::uint32_t>(pool.size());
  g.cpuOpsCount = static_cast<std::uint32_t>(gapTotals_.takeInto(pool, options_.maxCpuOpsPerGap));
}

std::vector<CpuOpBlame> GapBlamer::overheadCpuOps() {
  std::vector<CpuOpBlame> ops;
  for (StringId name = 0; name < overheadByName_.size(); ++name)
    if (overheadByName_[name] > 0) ops.push_back({name, false, overheadByName_[name]});
  if (overheadUntraced_ > 0) ops.push_back({kEmptyString, true, overheadUntraced_});
  std::sort(ops.begin(), ops.end(), larger);
  return ops;
}

}  // namespace gaps_detail

std::vector<CpuOpBlame> cpuSelfTimeIn(const Trace& trace, std::uint32_t track, TimeNs start,
                                      TimeNs end, std::size_t maxOps) {
  if (track >= trace.tracks.size()) return {};
  gaps_detail::CpuBlamer blamer(trace);
  gaps_detail::BlameTotals totals;
  blamer.blame(track, start, end, totals);
  std::vector<CpuOpBlame> out;
  totals.takeInto(out, maxOps);
  return out;
}

}  // namespace gapscope::analysis
