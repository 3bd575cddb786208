// The GPU side of the gap analysis: kernels, memcpys and memsets copied into
// compact GpuOps per stream and device, bound to their launch calls, and
// the busy blocks made from them on the fly (never stored: fresh memory
// costs a page fault per 4 KiB, a third of the analysis' CPU time on the
// 10-million-event benchmark). Stages "gpu ops, gap counts" and "bind ops
// to calls".
#pragma once

#include <cstdint>
#include <vector>

#include "call_table.h"
#include "gapscope/model/trace.h"

namespace gapscope::analysis::gaps_detail {

// A kernel, memcpy or memset, bound to its launch call.
struct GpuOp {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t slice = kNoIndex;
  std::uint32_t call = kNoIndex;  // position in CallTable::calls
};

// A maximal interval during which at least one op ran: the op that starts
// it and the op whose end ends it.
struct BusyBlock {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t firstSlice = kNoIndex;
  std::uint32_t firstCall = kNoIndex;
  std::uint32_t lastSlice = kNoIndex;
  std::uint32_t lastCall = kNoIndex;
};

struct StreamTimeline {
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<GpuOp> ops;  // sorted by start, longer first at ties
  std::uint64_t listedGaps = 0;  // gaps of at least minGapNs (countGaps)
};

struct DeviceTimeline {
  std::int32_t device = -1;
  std::vector<std::uint32_t> streams;  // indices into the stream list
  std::uint64_t ops = 0;
  std::uint64_t listedGaps = 0;  // gaps of at least minGapNs (countGaps)
};

struct GpuTimelines {
  std::vector<StreamTimeline> streams;  // sorted by (device, stream)
  std::vector<DeviceTimeline> devices;  // sorted by device
  std::uint64_t ops = 0;
  std::uint64_t opsWithCorrelation = 0;
  std::uint64_t orphanOps = 0;  // a correlation id that names no call
  // Per position in CallTable::calls: how many GPU ops it launched (bindOps).
  std::vector<std::uint32_t> opsPerCall;
};

// Collects GPU ops per stream and device (unbound: GpuOp::call unset), so
// it can run beside buildCallTable.
GpuTimelines collectGpuOps(const Trace& trace);
// Binds the ops to their calls through the correlation ids.
void bindOps(const Trace& trace, const CallTable& calls, GpuTimelines& gpu);
// Counts every stream's and device's gaps of at least minGapNs, so the gap
// list can be laid out before it is filled (needs no binding).
void countGaps(GpuTimelines& gpu, TimeNs minGapNs);

// The busy blocks of one stream, in time order, made from its ops as they
// are asked for. Ops that touch (one starts where the other ends) share a
// block.
class StreamBlocks {
 public:
  explicit StreamBlocks(const std::vector<GpuOp>& ops)
      : op_(ops.data()), end_(ops.data() + ops.size()) {}
  bool next(BusyBlock& b) {
    if (op_ == end_) return false;
    b = {op_->start, op_->end, op_->slice, op_->call, op_->slice, op_->call};
    for (++op_; op_ != end_ && op_->start <= b.end; ++op_) {
      if (op_->end > b.end) {
        b.end = op_->end;
        b.lastSlice = op_->slice;
        b.lastCall = op_->call;
      }
    }
    return true;
  }

 private:
  const GpuOp* op_;
  const GpuOp* end_;
};

// The busy blocks of one device: its streams' blocks merged by start (at
// equal starts the stream listed first comes first). Devices have a
// handful of streams, so the next block is found by scanning the heads.
class DeviceBlocks {
 public:
  DeviceBlocks(const GpuTimelines& gpu, const DeviceTimeline& d);
  bool next(BusyBlock& b);

 private:
  bool nextStreamBlock(BusyBlock& b);
  std::vector<StreamBlocks> streams_;
  std::vector<BusyBlock> heads_;
  std::vector<std::uint8_t> live_;
  BusyBlock pending_;
  bool hasPending_ = false;
};

}  // namespace gapscope::analysis::gaps_detail
