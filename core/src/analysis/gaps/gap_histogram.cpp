#include "gapscope/analysis/gap_histogram.h"

#include <numeric>

#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {

std::uint64_t GapHistogram::gapsIn(std::size_t bin) const {
  return std::accumulate(count[bin].begin(), count[bin].end(), std::uint64_t{0});
}

TimeNs GapHistogram::idleIn(std::size_t bin) const {
  return std::accumulate(idleNs[bin].begin(), idleNs[bin].end(), TimeNs{0});
}

GapHistogram deviceGapHistogram(const GapAnalysis& a, TimeNs minGapNs) {
  GapHistogram h;
  std::vector<TimeNs> lengths;
  for (const Gap& g : a.gaps)
    if (g.stream < 0 && g.dur >= minGapNs) lengths.push_back(g.dur);
  h.bins = timeline::makeDurationHistogram(lengths);
  h.count.assign(h.bins.bins(), {});
  h.idleNs.assign(h.bins.bins(), {});
  for (const Gap& g : a.gaps) {
    if (g.stream >= 0 || g.dur < minGapNs) continue;
    const std::size_t bin = h.bins.binOf(g.dur);
    const auto cause = static_cast<std::size_t>(g.cause);
    ++h.count[bin][cause];
    h.idleNs[bin][cause] = addSaturating(h.idleNs[bin][cause], g.dur);
  }
  return h;
}

}  // namespace gapscope::analysis
