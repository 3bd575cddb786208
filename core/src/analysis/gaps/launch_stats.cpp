// Per-launch figures: how long each launch call took, how long its work
// waited in the queue, short kernels and outliers, and their distributions.
#include <algorithm>
#include <string>

#include "launch_stats.h"
#include "gapscope/model/time_limits.h"
#include "quantiles.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// What the launch figures are made from, gathered in few passes: a big
// trace has millions of launches, and each pass over them is memory-bound.
struct LaunchTable {
  // One per call that launched anything, in call order; LaunchInfo::call
  // holds the call's position in calls.calls until the end.
  std::vector<LaunchInfo> launches;
  // Launch times grouped by call name: name n's are
  // launchNs[segmentBegin[n], segmentBegin[n + 1]).
  std::vector<std::uint32_t> segmentBegin;
  std::vector<TimeNs> launchNs;
  std::vector<TimeNs> queueNs;
  std::vector<std::uint32_t> launchOf;  // call position -> launch, kNoIndex for none
};

// The launches in call order, with their call's kind and duration, and how
// many there are of each name.
void collectLaunches(const CallTable& calls, const GpuTimelines& gpu, LaunchTable& t,
                     std::uint64_t& unmatched, std::uint64_t& kernelLaunchCalls) {
  std::size_t count = 0;
  for (std::uint32_t ops : gpu.opsPerCall) count += ops > 0;
  t.launches.reserve(count);
  t.launchOf.assign(calls.calls.size(), kNoIndex);
  for (std::uint32_t pos = 0; pos < calls.calls.size(); ++pos) {
    const CallRec& call = calls.calls[pos];
    kernelLaunchCalls += isKernelLaunch(call.kind);
    if (gpu.opsPerCall[pos] == 0) {
      if (call.kind != LaunchKind::None) ++unmatched;
      continue;
    }
    t.launchOf[pos] = static_cast<std::uint32_t>(t.launches.size());
    LaunchInfo li;
    li.call = pos;
    li.kind = call.kind;
    li.launchNs = call.end - call.start;
    t.launches.push_back(li);
    ++t.segmentBegin[call.name + 1];
  }
}

// Adds each GPU op to its launch: the earliest op (LaunchInfo::queueNs
// holds its start for now), the op count and the GPU time.
void addOps(const GpuTimelines& gpu, LaunchTable& t) {
  for (const StreamTimeline& st : gpu.streams) {
    for (const GpuOp& op : st.ops) {
      if (op.call == kNoIndex) continue;
      LaunchInfo& li = t.launches[t.launchOf[op.call]];
      if (li.opCount == 0 || op.start < li.queueNs) {
        li.queueNs = op.start;
        li.firstOp = op.slice;
      }
      ++li.opCount;
      li.gpuNs = addSaturating(li.gpuNs, op.end - op.start);
    }
  }
}

// Finishes each launch's queue time and short-kernel flag and gathers the
// launch times by name and the queue times.
void finishLaunches(const CallTable& calls, std::size_t nameCount, LaunchTable& t,
                    LaunchStats& stats) {
  for (std::size_t i = 1; i <= nameCount; ++i) t.segmentBegin[i] += t.segmentBegin[i - 1];
  std::vector<std::uint32_t> fill(t.segmentBegin.begin(), t.segmentBegin.end() - 1);
  t.launchNs.resize(t.launches.size());
  t.queueNs.resize(t.launches.size());
  std::size_t i = 0;
  for (LaunchInfo& li : t.launches) {
    const CallRec& call = calls.calls[li.call];
    li.queueNs -= call.end;
    li.shortKernel = li.gpuNs < li.launchNs;
    t.launchNs[fill[call.name]++] = li.launchNs;
    t.queueNs[i++] = li.queueNs;
    ++stats.count;
    ++stats.byKind[static_cast<std::size_t>(li.kind)];
    stats.shortKernels += li.shortKernel;
  }
}

// Flags calls slower than outlierFactor x the median of their name (each
// name's median is a selection within its segment of t.launchNs) and
// turns LaunchInfo::call into the call's slice index.
void flagOutliers(const CallTable& calls, std::size_t nameCount, const GapOptions& options,
                  LaunchTable& t, LaunchStats& stats) {
  std::vector<TimeNs> median(nameCount, 0);
  for (std::size_t name = 0; name < nameCount; ++name) {
    const TimeNs* first = t.launchNs.data() + t.segmentBegin[name];
    const TimeNs* last = t.launchNs.data() + t.segmentBegin[name + 1];
    if (first == last) continue;
    median[name] = valuesAtRanks(first, last, {static_cast<std::size_t>(last - first - 1) / 2})[0];
  }
  for (LaunchInfo& li : t.launches) {
    const CallRec& call = calls.calls[li.call];
    TimeNs m = median[call.name];
    li.outlier = li.launchNs >= options.outlierMinNs &&
                 static_cast<double>(li.launchNs) > options.outlierFactor * static_cast<double>(m);
    stats.outliers += li.outlier;
    li.call = call.slice;
  }
}

}  // namespace

void fillLaunchStats(const CallTable& calls, const GpuTimelines& gpu, const GapOptions& options,
                     std::size_t nameCount, LaunchStats& out, std::vector<LaunchInfo>* keep) {
  // Counted here and handed over at the end: `out` may share a cache line
  // with what the other thread of the analysis writes.
  LaunchStats stats;
  stats.unmatched = calls.launchCallsWithoutCorrelation;
  LaunchTable t;
  t.segmentBegin.assign(nameCount + 1, 0);
  collectLaunches(calls, gpu, t, stats.unmatched, stats.kernelLaunchCalls);
  addOps(gpu, t);
  t.launchOf = {};
  finishLaunches(calls, nameCount, t, stats);
  flagOutliers(calls, nameCount, options, t, stats);
  // Order statistics do not depend on the order of the values.
  stats.launchNs = distributionOf(t.launchNs);
  stats.queueNs = distributionOf(t.queueNs);
  out = stats;
  if (keep) *keep = std::move(t.launches);
}

}  // namespace gapscope::analysis::gaps_detail
