// From what each process of a recorded program delivered to one RecordSet
// that convertToTrace() turns into a single Kineto-style trace: capture
// windows applied, NVTX ranges classified, processes merged with ids that
// cannot collide; or, for one trace per process (`record -o DIR/`), each
// process on its own with its rank. No CUDA here; tested with fabricated
// records.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gapscope/gpu/records.h"
#include "gapscope/gpu/wire.h"

namespace gapscope::gpu {

// [from, until) on CUPTI's clock.
struct TimeWindow {
  std::uint64_t from = 0;
  std::uint64_t until = UINT64_MAX;
};

// Open/close marks in order -> windows. An open mark without a close runs
// to the end; a close without an open is ignored.
std::vector<TimeWindow> captureWindows(const std::vector<wire::CaptureMark>& marks);

// Keeps the records that start inside one of `windows` (none when there is
// no window: a capture range that never opened); returns how many were
// removed.
std::uint64_t keepInside(RecordSet& records, const std::vector<TimeWindow>& windows);

// An NVTX range's name as a host range: "ProfilerStep#N" is a step; a
// PyTorch operator range ("aten::mm, seq = 12, op_id = 3", as emit_nvtx
// names them, or gapscope's observer's ", scope = operator") is an operator
// with its bookkeeping cut off; anything else is an annotation, named as
// given.
struct ClassifiedRange {
  HostRangeKind kind = HostRangeKind::Annotation;
  std::string name;
};
ClassifiedRange classifyNvtxRange(std::string_view name);

// Streams of the k-th process (k >= 1) are numbered k * kProcessStreamStride
// + its stream id, and its correlation ids get k in the upper 32 bits, so two
// processes' stream 7 or correlation 42 stay apart in the trace.
inline constexpr std::uint32_t kProcessStreamStride = 100000;

// One RecordSet of every process, in the order given (the first names the
// recording). Devices are merged by id; dropped counts add up.
RecordSet mergeProcesses(std::vector<RecordSet> processes, const std::vector<ProcessInfo>& info);

// One process's records as a trace of its own: NVTX ranges classified as
// mergeProcesses does, its rank (info.distributed) as the distributedInfo.
RecordSet singleProcess(RecordSet records, const ProcessInfo& info);

// One time zero for the traces of one recording: the earliest record's
// (over all of them), so an instant has the same `ts` in each trace, as the
// ranks of a torch.profiler run share one clock (`ranks` compares them).
void shareTimeBase(std::vector<RecordSet>& traces);

// File names of one trace per process, in the order given: "rank-R.json.gz"
// for a process whose RANK was set, else "pid-P.json.gz". A rank claimed
// twice goes to the first process; the other is named by its pid.
std::vector<std::string> processTraceNames(const std::vector<ProcessInfo>& processes);

}  // namespace gapscope::gpu
