// The reference's CPU-op attribution and per-launch figures.
#include <algorithm>
#include <map>

#include "gap_reference_parts.h"

namespace gapscope::gaps_test::reference {

using namespace analysis;

const SelfTimes::Nesting& SelfTimes::nesting(std::uint32_t track) {
  auto it = nestings_.find(track);
  if (it != nestings_.end()) return it->second;
  const Track& t = trace_.tracks[track];
  const Slice* s = trace_.trackBegin(t);
  Nesting n;
  std::vector<std::uint32_t> open;  // slices that contain the current one, outermost first
  for (std::uint32_t i = 0; i < t.sliceCount; ++i) {
    while (!open.empty() && s[open.back()].end() <= s[i].start) open.pop_back();
    n.parent.push_back(open.empty() ? kNoIndex : open.back());
    n.spilled.push_back(!open.empty() && s[open.back()].end() < s[i].end());
    if (!n.spilled.back()) open.push_back(i);
    n.maxEndSoFar.push_back(std::max(i ? n.maxEndSoFar.back() : s[i].end(), s[i].end()));
  }
  return nestings_.emplace(track, std::move(n)).first->second;
}

std::vector<CpuOpBlame> SelfTimes::operator()(std::uint32_t track, TimeNs start, TimeNs end) {
  const Nesting& n = nesting(track);
  const Slice* s = trace_.trackBegin(trace_.tracks[track]);
  std::map<std::uint32_t, TimeNs> self;  // by slice
  TimeNs inRoots = 0;
  // Every slice that overlaps the window: it starts before the window's
  // end, and no slice up to it ends after the window's start.
  auto last = static_cast<std::uint32_t>(
      std::lower_bound(s, s + trace_.tracks[track].sliceCount, end,
                       [](const Slice& x, TimeNs v) { return x.start < v; }) - s);
  for (std::uint32_t i = last; i-- > 0 && n.maxEndSoFar[i] > start;) {
    TimeNs clip = std::min(s[i].end(), end) - std::max(s[i].start, start);
    if (clip <= 0 || n.spilled[i]) continue;
    self[i] += clip;
    if (n.parent[i] == kNoIndex)
      inRoots += clip;
    else
      self[n.parent[i]] -= clip;
  }
  std::map<StringId, TimeNs> byName;
  for (const auto& [slice, ns] : self) byName[s[slice].name] += ns;
  std::vector<CpuOpBlame> out;
  for (const auto& [name, ns] : byName) out.push_back({name, false, ns});
  out.push_back({kEmptyString, true, (end - start) - inRoots});
  return out;
}

std::vector<CpuOpBlame> sumByName(const std::vector<std::vector<CpuOpBlame>>& lists) {
  std::map<StringId, TimeNs> byName;
  TimeNs untraced = 0;
  for (const auto& list : lists)
    for (const CpuOpBlame& e : list) (e.isUntraced ? untraced : byName[e.name]) += e.selfNs;
  std::vector<CpuOpBlame> out;
  for (const auto& [name, ns] : byName) out.push_back({name, false, ns});
  out.push_back({kEmptyString, true, untraced});
  return out;
}

std::vector<CpuOpBlame> largestFirst(std::vector<CpuOpBlame> entries, std::size_t maxOps) {
  std::erase_if(entries, [](const CpuOpBlame& e) { return e.selfNs <= 0; });
  std::stable_sort(entries.begin(), entries.end(), [](const CpuOpBlame& a, const CpuOpBlame& b) {
    if (a.selfNs != b.selfNs) return a.selfNs > b.selfNs;
    if (a.name != b.name) return a.name < b.name;
    return a.isUntraced < b.isUntraced;
  });
  if (maxOps != 0 && entries.size() > maxOps) entries.resize(maxOps);
  return entries;
}

namespace {

Distribution distributionOf(std::vector<TimeNs> v) {
  Distribution d;
  d.count = v.size();
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  d.median = v[(v.size() - 1) / 2];                // lower median
  d.p90 = v[(9 * v.size() + 9) / 10 - 1];         // rank ceil(0.9 n)
  d.max = v.back();
  return d;
}

}  // namespace

void fillLaunches(const CpuSide& cpu, const GpuSide& gpu, const GapOptions& options,
                  ReferenceAnalysis& out) {
  struct Launched {
    std::uint32_t count = 0;
    TimeNs firstStart = 0;
    std::uint32_t firstOp = kNoIndex;
    TimeNs gpuNs = 0;
  };
  std::vector<Launched> launched(cpu.calls.size());
  for (const Stream& st : gpu.streams) {
    for (const Op& op : st.ops) {
      if (op.call == kNoIndex) continue;
      Launched& l = launched[op.call];
      if (l.count == 0 || op.start < l.firstStart) l.firstStart = op.start, l.firstOp = op.slice;
      ++l.count;
      l.gpuNs += op.end - op.start;
    }
  }
  LaunchStats& stats = out.launchStats;
  stats.unmatched = cpu.launchCallsWithoutCorrelation;
  std::map<StringId, std::vector<TimeNs>> durationsByName;
  std::vector<StringId> names;
  for (std::size_t pos = 0; pos < cpu.calls.size(); ++pos) {
    const Call& c = cpu.calls[pos];
    const Launched& l = launched[pos];
    if (l.count == 0) {
      stats.unmatched += c.kind != LaunchKind::None;
      continue;
    }
    LaunchInfo li;
    li.call = c.slice;
    li.firstOp = l.firstOp;
    li.opCount = l.count;
    li.kind = c.kind;
    li.launchNs = c.end - c.start;
    li.queueNs = l.firstStart - c.end;
    li.gpuNs = l.gpuNs;
    li.shortKernel = li.gpuNs < li.launchNs;
    out.launches.push_back(li);
    names.push_back(c.name);
    durationsByName[c.name].push_back(li.launchNs);
  }
  std::map<StringId, TimeNs> medianByName;
  for (const auto& [name, durations] : durationsByName) medianByName[name] = distributionOf(durations).median;
  std::vector<TimeNs> launchNs, queueNs;
  for (std::size_t i = 0; i < out.launches.size(); ++i) {
    LaunchInfo& li = out.launches[i];
    TimeNs median = medianByName[names[i]];
    li.outlier = li.launchNs >= options.outlierMinNs &&
                 static_cast<double>(li.launchNs) > options.outlierFactor * static_cast<double>(median);
    ++stats.count;
    ++stats.byKind[static_cast<std::size_t>(li.kind)];
    stats.shortKernels += li.shortKernel;
    stats.outliers += li.outlier;
    launchNs.push_back(li.launchNs);
    queueNs.push_back(li.queueNs);
  }
  stats.launchNs = distributionOf(launchNs);
  stats.queueNs = distributionOf(queueNs);
}

}  // namespace gapscope::gaps_test::reference
