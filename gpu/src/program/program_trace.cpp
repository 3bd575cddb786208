#include "gapscope/gpu/program_trace.h"

#include <algorithm>
#include <set>

namespace gapscope::gpu {

std::vector<TimeWindow> captureWindows(const std::vector<wire::CaptureMark>& marks) {
  std::vector<TimeWindow> out;
  bool open = false;
  for (const auto& m : marks) {
    if (m.open && !open) {
      out.push_back(TimeWindow{m.at, UINT64_MAX});
      open = true;
    } else if (!m.open && open) {
      out.back().until = m.at;
      open = false;
    }
  }
  return out;
}

namespace {

bool inside(const std::vector<TimeWindow>& windows, std::uint64_t t) {
  return std::any_of(windows.begin(), windows.end(), [t](const TimeWindow& w) { return t >= w.from && t < w.until; });
}

template <class V>
std::uint64_t keep(V& v, const std::vector<TimeWindow>& windows) {
  auto before = v.size();
  v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& x) { return !inside(windows, x.start); }), v.end());
  return before - v.size();
}

}  // namespace

std::uint64_t keepInside(RecordSet& r, const std::vector<TimeWindow>& windows) {
  return keep(r.apiCalls, windows) + keep(r.kernels, windows) + keep(r.memcpys, windows) +
         keep(r.memsets, windows) + keep(r.syncs, windows) + keep(r.overheads, windows) +
         keep(r.ranges, windows);
}

namespace {

bool isStepName(std::string_view s) {
  constexpr std::string_view prefix = "ProfilerStep#";
  if (s.size() <= prefix.size() || s.substr(0, prefix.size()) != prefix) return false;
  return std::all_of(s.begin() + prefix.size(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "ns::name" with word characters (and dots) on both sides.
bool isQualifiedName(std::string_view s) {
  auto sep = s.find("::");
  if (sep == std::string_view::npos || sep == 0 || sep + 2 >= s.size()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':';
  });
}

}  // namespace

ClassifiedRange classifyNvtxRange(std::string_view name) {
  if (isStepName(name)) return {HostRangeKind::Step, std::string(name)};
  // emit_nvtx appends ", seq = N", ", op_id = N", ", stashed seq = N",
  // ", sizes = [...]" or ", input_op_ids = [...]" to the operator's name
  // (autograd nodes such as "AddmmBackward0" included); gapscope's own
  // observer appends ", scope = operator" to an operator whose name does not
  // read as one ("detach", "CompiledFunction": gapscope_torch_observer.cpp).
  std::size_t cut = std::string_view::npos;
  for (std::string_view key :
       {", seq = ", ", op_id = ", ", stashed seq = ", ", sizes = ", ", input_op_ids = ", ", scope = operator"})
    cut = std::min(cut, name.find(key));
  if (cut != std::string_view::npos && cut > 0) return {HostRangeKind::Op, std::string(name.substr(0, cut))};
  if (isQualifiedName(name)) return {HostRangeKind::Op, std::string(name)};
  return {HostRangeKind::Annotation, std::string(name)};
}

namespace {

void renumber(RecordSet& r, std::uint32_t k) {
  if (k == 0) return;
  const std::uint32_t streamBase = k * kProcessStreamStride;
  const std::uint64_t corrBase = std::uint64_t{k} << 32;
  auto corr = [corrBase](std::uint64_t& c) {
    if (c != 0) c |= corrBase;
  };
  auto place = [&](GpuActivityRecord& g) {
    g.streamId += streamBase;
    g.contextId += streamBase;
    corr(g.correlationId);
  };
  for (auto& a : r.apiCalls) corr(a.correlationId);
  for (auto& x : r.kernels) place(x);
  for (auto& x : r.memcpys) place(x);
  for (auto& x : r.memsets) place(x);
  for (auto& s : r.syncs) {
    if (s.streamId != kNoStream) s.streamId += streamBase;
    s.contextId += streamBase;
    corr(s.correlationId);
  }
}

template <class V>
void append(V& to, V& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace

RecordSet mergeProcesses(std::vector<RecordSet> processes, const std::vector<ProcessInfo>& info) {
  RecordSet out;
  out.processes = info;
  for (std::uint32_t k = 0; k < processes.size(); ++k) {
    RecordSet& r = processes[k];
    renumber(r, k);
    for (auto& a : r.apiCalls)
      if (a.processId == 0) a.processId = r.processId;
    for (auto& h : r.ranges) {
      if (h.processId == 0) h.processId = r.processId;
      if (h.kind == HostRangeKind::Annotation) {
        ClassifiedRange c = classifyNvtxRange(h.name);
        h.kind = c.kind;
        h.name = std::move(c.name);
      }
    }
    if (k == 0) {
      out.processId = r.processId;
      out.processName = r.processName;
    }
    if (out.wallClockAtAnchor == 0 && r.wallClockAtAnchor != 0) {
      out.wallClockAtAnchor = r.wallClockAtAnchor;
      out.clockAnchor = r.clockAnchor;
    }
    if (out.cudaDriverVersion == 0) out.cudaDriverVersion = r.cudaDriverVersion;
    if (out.cudaRuntimeVersion == 0) out.cudaRuntimeVersion = r.cudaRuntimeVersion;
    if (out.cuptiVersion == 0) out.cuptiVersion = r.cuptiVersion;
    out.droppedRecords += r.droppedRecords;
    for (auto& d : r.devices) {
      bool known = std::any_of(out.devices.begin(), out.devices.end(), [&](const DeviceInfo& x) { return x.id == d.id; });
      if (!known) out.devices.push_back(std::move(d));
    }
    append(out.apiCalls, r.apiCalls);
    append(out.kernels, r.kernels);
    append(out.memcpys, r.memcpys);
    append(out.memsets, r.memsets);
    append(out.syncs, r.syncs);
    append(out.overheads, r.overheads);
    append(out.ranges, r.ranges);
  }
  return out;
}

RecordSet singleProcess(RecordSet records, const ProcessInfo& info) {
  std::vector<RecordSet> one;
  one.push_back(std::move(records));
  RecordSet out = mergeProcesses(std::move(one), {info});
  out.distributed = info.distributed;
  return out;
}

void shareTimeBase(std::vector<RecordSet>& traces) {
  std::int64_t earliest = 0;
  for (const RecordSet& r : traces)
    if (std::int64_t t = firstRecordWallClock(r); t != 0 && (earliest == 0 || t < earliest)) earliest = t;
  for (RecordSet& r : traces) r.baseWallClock = earliest;
}

std::vector<std::string> processTraceNames(const std::vector<ProcessInfo>& processes) {
  std::vector<std::string> names;
  std::set<std::int32_t> taken;
  for (const ProcessInfo& p : processes) {
    const std::int32_t rank = p.distributed.rank;
    if (rank >= 0 && taken.insert(rank).second) {
      names.push_back("rank-" + std::to_string(rank) + ".json.gz");
    } else {
      names.push_back("pid-" + std::to_string(p.processId) + ".json.gz");
    }
  }
  return names;
}

}  // namespace gapscope::gpu
