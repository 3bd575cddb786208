#include "report/trace_walk.h"

#include <algorithm>

namespace gapscope::report {

std::vector<StreamOps> gpuOpsByStream(const Trace& trace) {
  std::vector<StreamOps> out;
  for (const Track& track : trace.tracks) {
    if (track.kind != TrackKind::GpuStream) continue;
    StreamOps s{track.device, track.stream, {}};
    for (std::uint32_t i = track.firstSlice; i < track.firstSlice + track.sliceCount; ++i)
      if (isGpuActivity(trace.slices[i].kind)) s.ops.push_back(i);
    if (s.ops.empty()) continue;
    // Slices are sorted by start inside a track already; spill rows keep that order.
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const StreamOps& a, const StreamOps& b) {
    return a.device != b.device ? a.device < b.device : a.stream < b.stream;
  });
  return out;
}

std::uint32_t enclosingCpuOp(const Trace& trace, std::uint32_t slice) {
  if (slice >= trace.slices.size()) return kNoIndex;
  const Slice& inner = trace.slices[slice];
  // Ancestors nest, so the first cpu_op met going up is the innermost. A
  // spilled slice's parent need not contain it whole: such an op does not count.
  for (std::uint32_t i = inner.parent; i != kNoIndex; i = trace.slices[i].parent) {
    const Slice& s = trace.slices[i];
    if (s.kind == SliceKind::CpuOp && s.start <= inner.start && s.end() >= inner.end()) return i;
  }
  return kNoIndex;
}

std::string_view launchingOpName(const Trace& trace, std::uint32_t gpuOp) {
  const Slice& op = trace.slices[gpuOp];
  if (op.correlation == kNoCorrelation) return {};
  std::uint32_t launch = trace.launchForCorrelation(op.correlation);
  if (launch == kNoIndex) return {};
  std::uint32_t cpuOp = enclosingCpuOp(trace, launch);
  return cpuOp == kNoIndex ? std::string_view{} : trace.str(trace.slices[cpuOp].name);
}

bool StepRanges::contains(TimeNs start, TimeNs end) const {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), start,
                             [](TimeNs t, const auto& r) { return t < r.first; });
  if (it == ranges.begin()) return false;
  --it;
  return it->first <= start && end <= it->second;
}

}  // namespace gapscope::report
