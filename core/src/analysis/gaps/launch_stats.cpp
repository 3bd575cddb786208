// Per-launch figures: how long each launch call took, how long its work
// waited in the queue, short kernels and outliers, and their distributions.
#include <algorithm>
#include <string>

#include "gap_context.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// What each CPU call launched: its GPU ops (several for a graph launch).
struct LaunchedOps {
  std::vector<std::uint32_t> firstOp;
  std::vector<std::uint32_t> count;
  std::vector<TimeNs> gpuNs;
  std::uint64_t orphans = 0;  // GPU ops whose correlation id matches no call
};

LaunchedOps collectLaunchedOps(const Trace& trace, const CallTable& calls,
                               const GpuTimelines& gpu) {
  LaunchedOps l;
  std::size_t n = calls.calls.size();
  l.firstOp.assign(n, kNoIndex);
  l.count.assign(n, 0);
  l.gpuNs.assign(n, 0);
  for (const StreamTimeline& st : gpu.streams) {
    for (std::uint32_t op : st.ops) {
      const Slice& s = trace.slices[op];
      if (s.correlation == kNoCorrelation) continue;
      std::uint32_t pos = calls.byCorrelation.find(s.correlation);
      if (pos == kNoIndex) {
        ++l.orphans;
        continue;
      }
      ++l.count[pos];
      l.gpuNs[pos] += s.dur;
      if (l.firstOp[pos] == kNoIndex || s.start < trace.slices[l.firstOp[pos]].start)
        l.firstOp[pos] = op;
    }
  }
  return l;
}

Distribution distributionOf(std::vector<TimeNs> values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  auto nth = [&](std::size_t k) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k),
                     values.end());
    return values[k];
  };
  std::size_t n = values.size();
  d.max = *std::max_element(values.begin(), values.end());
  d.p90 = nth((9 * n + 9) / 10 - 1);  // nearest rank: ceil(0.9 n)
  d.median = nth((n - 1) / 2);        // lower median
  return d;
}

// Flags calls slower than outlierFactor x the median of their name.
void flagOutliers(const Trace& trace, std::vector<LaunchInfo>& launches,
                  const GapOptions& options) {
  std::vector<std::uint32_t> slotOfName(trace.strings.size(), kNoIndex);
  std::vector<std::vector<TimeNs>> bySlot;
  for (const LaunchInfo& li : launches) {
    StringId name = trace.slices[li.call].name;
    if (slotOfName[name] == kNoIndex) {
      slotOfName[name] = static_cast<std::uint32_t>(bySlot.size());
      bySlot.emplace_back();
    }
    bySlot[slotOfName[name]].push_back(li.launchNs);
  }
  std::vector<TimeNs> median(bySlot.size());
  for (std::size_t i = 0; i < bySlot.size(); ++i) median[i] = distributionOf(bySlot[i]).median;
  for (LaunchInfo& li : launches) {
    TimeNs m = median[slotOfName[trace.slices[li.call].name]];
    li.outlier = li.launchNs >= options.outlierMinNs &&
                 static_cast<double>(li.launchNs) > options.outlierFactor * static_cast<double>(m);
  }
}

}  // namespace

void fillLaunchStats(const Trace& trace, const CallTable& calls, const GpuTimelines& gpu,
                     const GapOptions& options, GapAnalysis& out) {
  LaunchedOps launched = collectLaunchedOps(trace, calls, gpu);
  LaunchStats& stats = out.launchStats;
  stats.unmatched = calls.launchCallsWithoutCorrelation;
  std::vector<LaunchKind> kindOfName(trace.strings.size(), LaunchKind::None);
  std::vector<std::uint8_t> nameKnown(trace.strings.size(), 0);
  std::vector<LaunchInfo> launches;
  launches.reserve(calls.calls.size());
  for (std::size_t pos = 0; pos < calls.calls.size(); ++pos) {
    const Slice& call = trace.slices[calls.calls[pos]];
    if (!nameKnown[call.name]) {
      kindOfName[call.name] = launchKindForName(trace.str(call.name));
      nameKnown[call.name] = 1;
    }
    LaunchKind kind = kindOfName[call.name];
    if (launched.count[pos] == 0) {
      if (kind != LaunchKind::None) ++stats.unmatched;
      continue;
    }
    LaunchInfo li;
    li.call = calls.calls[pos];
    li.firstOp = launched.firstOp[pos];
    li.opCount = launched.count[pos];
    li.kind = kind;
    li.launchNs = call.dur;
    li.queueNs = trace.slices[li.firstOp].start - call.end();
    li.gpuNs = launched.gpuNs[pos];
    li.shortKernel = li.gpuNs < li.launchNs;
    launches.push_back(li);
  }
  flagOutliers(trace, launches, options);
  std::vector<TimeNs> launchNs, queueNs;
  launchNs.reserve(launches.size());
  queueNs.reserve(launches.size());
  for (const LaunchInfo& li : launches) {
    ++stats.count;
    ++stats.byKind[static_cast<std::size_t>(li.kind)];
    stats.shortKernels += li.shortKernel;
    stats.outliers += li.outlier;
    launchNs.push_back(li.launchNs);
    queueNs.push_back(li.queueNs);
  }
  stats.launchNs = distributionOf(std::move(launchNs));
  stats.queueNs = distributionOf(std::move(queueNs));
  if (launched.orphans > 0)
    out.notes.push_back(std::to_string(launched.orphans) +
                        " GPU ops have a correlation id that matches no launch call");
  if (options.keepLaunches) out.launches = std::move(launches);
}

}  // namespace gapscope::analysis::gaps_detail
