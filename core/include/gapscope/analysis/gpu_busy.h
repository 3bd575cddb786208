// GPU busy and idle: the one definition every figure in gapscope uses (the
// summary, the gap analysis, the timeline's utilisation strip, the reports).
//
// GPU activity is every kernel, memcpy and memset slice (SliceKind::Kernel,
// Memcpy, Memset), never annotations or cuda_sync markers; each sits on a
// GPU stream track, which names its device and stream. The busy time of a
// stream or a device is the length of the union of its activities'
// [start, end) intervals: work overlapping on several streams counts once
// for the device, and intervals that overlap or touch merge into one. A
// zero-length activity adds no busy time but still counts as an activity
// and still bounds the active window (first start to last end), which is
// the window the gap analysis measures idle time in. All integer ns.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"

namespace gapscope::analysis {

// Disjoint busy intervals in time order, with prefix sums so that the busy
// time inside any window is two binary searches away.
class BusyIntervals {
 public:
  // Appends [start, end) (start >= the last start); merges with the last
  // interval when they overlap or touch; ignores empty intervals.
  void add(TimeNs start, TimeNs end);
  const std::vector<std::pair<TimeNs, TimeNs>>& spans() const { return spans_; }
  TimeNs total() const { return prefix_.back(); }
  // Busy time inside [start, end). O(log n).
  TimeNs busyIn(TimeNs start, TimeNs end) const;

 private:
  TimeNs busyBefore(TimeNs t) const;
  std::vector<std::pair<TimeNs, TimeNs>> spans_;
  std::vector<TimeNs> prefix_{0};  // prefix_[i]: busy time of spans_[0, i)
};

// The busy share of an active window, 0..1; 0 for an empty window. The one
// rule for a device, a stream, a step, steps summed and a rank.
inline double busyShare(TimeNs busy, TimeNs active) {
  return active > 0 ? static_cast<double>(busy) / static_cast<double>(active) : 0.0;
}

// Busy time of one stream (stream >= 0) or one device (stream == -1).
struct BusyRow {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  TimeNs busy = 0;           // length of the union of the activities
  TimeNs firstStart = 0;     // active window: first start ...
  TimeNs lastEnd = 0;        // ... to last end of any activity
  std::uint64_t activities = 0;
  TimeNs activeNs() const { return lastEnd - firstStart; }
  // busy / active window, 0 for an empty window.
  double utilization() const;
};

struct DeviceBusy : BusyRow {
  BusyIntervals intervals;  // the device's merged busy intervals
};

struct GpuBusy {
  std::vector<DeviceBusy> devices;  // sorted by device
  // Sorted by (device, stream). Streams keep totals only: their intervals
  // are the gap analysis' business and would double the memory.
  std::vector<BusyRow> streams;
  TimeNs total() const;  // sum over devices
  const DeviceBusy* device(std::int32_t device) const;  // nullptr when idle all along
  const BusyRow* stream(std::int32_t device, std::int64_t stream) const;
};

// One pass over the GPU stream tracks. O(n) for one stream per device,
// O(n log n) where a device has several.
GpuBusy computeGpuBusy(const Trace& trace);

// Each device's busy time inside `range`, in device order (a device with
// no activity there reports 0).
std::vector<std::pair<std::int32_t, TimeNs>> busyIn(const GpuBusy& busy, TimeRange range);

// Busy share (0..1) of each of `bins` equal bins of [start, end), for
// utilisation charts.
std::vector<double> utilisationBins(const BusyIntervals& busy, TimeNs start, TimeNs end, int bins);

}  // namespace gapscope::analysis
