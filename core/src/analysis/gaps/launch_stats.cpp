// Per-launch figures: how long each launch call took, how long its work
// waited in the queue, short kernels and outliers, and their distributions.
#include <algorithm>
#include <string>

#include "gap_context.h"
#include "quantiles.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// What one CPU call launched: its GPU ops (several for a graph launch).
struct Launched {
  TimeNs firstStart = 0;
  TimeNs gpuNs = 0;
  std::uint32_t firstOp = kNoIndex;
  std::uint32_t count = 0;
};

std::vector<Launched> collectLaunched(const CallTable& calls, const GpuTimelines& gpu) {
  std::vector<Launched> launched(calls.calls.size());
  for (const StreamTimeline& st : gpu.streams) {
    for (const GpuOp& op : st.ops) {
      if (op.call == kNoIndex) continue;
      Launched& l = launched[op.call];
      if (l.count == 0 || op.start < l.firstStart) {
        l.firstStart = op.start;
        l.firstOp = op.slice;
      }
      ++l.count;
      l.gpuNs += op.end - op.start;
    }
  }
  return launched;
}

Distribution distributionOf(const std::vector<TimeNs>& values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) return d;
  std::size_t n = values.size();
  d.max = *std::max_element(values.begin(), values.end());
  // Lower median and nearest-rank p90 (rank ceil(0.9 n)).
  auto at = valuesAtRanks(values.data(), values.data() + n, {(n - 1) / 2, (9 * n + 9) / 10 - 1});
  d.median = at[0];
  d.p90 = at[1];
  return d;
}

// Flags calls slower than outlierFactor x the median of their name. The
// durations are grouped by name in one array (a counting sort by name), so
// each name's median is a selection within its own segment.
void flagOutliers(const CallTable& calls, std::size_t nameCount,
                  const std::vector<std::uint32_t>& launchCalls, std::vector<LaunchInfo>& launches,
                  const GapOptions& options) {
  // segmentBegin[name] .. segmentBegin[name + 1]: the name's durations.
  std::vector<std::uint32_t> segmentBegin(nameCount + 1, 0);
  for (std::uint32_t pos : launchCalls) ++segmentBegin[calls.calls[pos].name + 1];
  for (std::size_t i = 1; i <= nameCount; ++i) segmentBegin[i] += segmentBegin[i - 1];
  std::vector<std::uint32_t> fill(segmentBegin.begin(), segmentBegin.end() - 1);
  std::vector<TimeNs> grouped(launches.size());
  for (std::size_t i = 0; i < launches.size(); ++i)
    grouped[fill[calls.calls[launchCalls[i]].name]++] = launches[i].launchNs;
  std::vector<TimeNs> median(nameCount, 0);
  for (std::size_t name = 0; name < nameCount; ++name) {
    const TimeNs* first = grouped.data() + segmentBegin[name];
    const TimeNs* last = grouped.data() + segmentBegin[name + 1];
    if (first == last) continue;
    median[name] = valuesAtRanks(first, last, {static_cast<std::size_t>(last - first - 1) / 2})[0];
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    LaunchInfo& li = launches[i];
    TimeNs m = median[calls.calls[launchCalls[i]].name];
    li.outlier = li.launchNs >= options.outlierMinNs &&
                 static_cast<double>(li.launchNs) > options.outlierFactor * static_cast<double>(m);
  }
}

}  // namespace

void fillLaunchStats(const CallTable& calls, const GpuTimelines& gpu, const GapOptions& options,
                     std::size_t nameCount, LaunchStats& stats, std::vector<LaunchInfo>* keep) {
  std::vector<Launched> launched = collectLaunched(calls, gpu);
  stats.unmatched = calls.launchCallsWithoutCorrelation;
  std::vector<LaunchInfo> launches;
  std::vector<std::uint32_t> launchCalls;  // position in calls.calls of each launch
  launches.reserve(calls.calls.size());
  launchCalls.reserve(calls.calls.size());
  for (std::size_t pos = 0; pos < calls.calls.size(); ++pos) {
    const CallRec& call = calls.calls[pos];
    const Launched& l = launched[pos];
    if (l.count == 0) {
      if (call.kind != LaunchKind::None) ++stats.unmatched;
      continue;
    }
    LaunchInfo li;
    li.call = call.slice;
    li.firstOp = l.firstOp;
    li.opCount = l.count;
    li.kind = call.kind;
    li.launchNs = call.end - call.start;
    li.queueNs = l.firstStart - call.end;
    li.gpuNs = l.gpuNs;
    li.shortKernel = li.gpuNs < li.launchNs;
    launches.push_back(li);
    launchCalls.push_back(static_cast<std::uint32_t>(pos));
  }
  flagOutliers(calls, nameCount, launchCalls, launches, options);
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
  stats.launchNs = distributionOf(launchNs);
  stats.queueNs = distributionOf(queueNs);
  if (keep) *keep = std::move(launches);
}

}  // namespace gapscope::analysis::gaps_detail
