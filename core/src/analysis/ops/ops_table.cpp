// The operator table (PyTorch's key_averages) from the CPU forest and the
// launch attribution of GPU work; see docs/operator-table.md.
#include "gapscope/analysis/ops_table.h"
#include "gapscope/analysis/steps.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "analysis/ops/op_events.h"
#include "gapscope/analysis/percent.h"
#include "gapscope/model/time_limits.h"

namespace gapscope::analysis {
namespace {

// Rows are keyed by string ids (integers hash fast; a trace has millions
// of events and few distinct names). All ProfilerStep#N share kAnyStep.
constexpr StringId kAnyStep = kNoIndex;

struct RowKey {
  StringId name = kEmptyString;
  StringId shapes = kEmptyString;
  OpDevice device = OpDevice::Cpu;
  bool annotation = false;
  bool operator==(const RowKey&) const = default;
};

struct RowKeyHash {
  std::size_t operator()(const RowKey& k) const noexcept {
    const std::uint64_t a = (static_cast<std::uint64_t>(k.name) << 32) | k.shapes;
    const std::uint64_t b = static_cast<std::uint64_t>(k.device) * 2 + static_cast<std::uint64_t>(k.annotation);
    return std::hash<std::uint64_t>{}(a ^ (b * 0x9e3779b97f4a7c15ULL));
  }
};

bool isAnnotation(SliceKind k) { return k == SliceKind::UserAnnotation || k == SliceKind::GpuUserAnnotation; }

class RowAccumulator {
 public:
  RowAccumulator(const Trace& trace, bool groupByShapes) : trace_(trace), groupByShapes_(groupByShapes) {}

  OpRow& rowFor(const Slice& s, OpDevice device) {
    // PyTorch folds the numbered steps of torch.profiler's schedule into one row.
    const bool step = isProfilerStepName(trace_.str(s.name));
    RowKey key{step ? kAnyStep : s.name, groupByShapes_ ? s.shapes : kEmptyString, device, isAnnotation(s.kind)};
    auto [it, inserted] = index_.try_emplace(key, rows_.size());
    if (inserted) {
      OpRow row;
      row.name = step ? std::string("ProfilerStep*") : std::string(trace_.str(s.name));
      row.device = device;
      row.annotation = key.annotation;
      if (groupByShapes_) row.inputShapes = std::string(trace_.str(s.shapes));
      rows_.push_back(std::move(row));
    }
    return rows_[it->second];
  }

  std::vector<OpRow> take() { return std::move(rows_); }

 private:
  const Trace& trace_;
  bool groupByShapes_;
  std::unordered_map<RowKey, std::size_t, RowKeyHash> index_;
  std::vector<OpRow> rows_;
};

}  // namespace

const char* opDeviceName(OpDevice d) { return d == OpDevice::Gpu ? "gpu" : "cpu"; }

namespace {

// Per slice: GPU time attributed to it directly (its own kernels), GPU time
// of its CPU descendants, and the CPU time its children cover.
struct EventTimes {
  std::vector<TimeNs> directDevice;
  std::vector<TimeNs> descendantDevice;
  std::vector<TimeNs> childCpu;
};

bool counted(const std::optional<TimeRange>& range, const Slice& s) { return !range || range->contains(s.start); }

// GPU work: its own rows, and its time attributed to the op that launched it.
void addGpuEvents(const Trace& trace, const std::vector<ops::OpEventClass>& classes, const ops::CpuForest& forest,
                  const OpTableOptions& options, RowAccumulator& rows, EventTimes& times, OpTable& table) {
  for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
    if (classes[i] != ops::OpEventClass::Gpu) continue;
    const Slice& s = trace.slices[i];
    const bool inRange = counted(options.range, s);
    if (inRange) {
      OpRow& row = rows.rowFor(s, OpDevice::Gpu);
      row.calls += 1;
      row.selfDevice = addSaturating(row.selfDevice, s.dur);
      row.deviceTotal = addSaturating(row.deviceTotal, s.dur);
    }
    if (s.kind == SliceKind::GpuUserAnnotation) continue;  // a range, not work: PyTorch attributes none
    if (inRange) table.selfDeviceTotal = addSaturating(table.selfDeviceTotal, s.dur);
    const std::uint32_t op = ops::launchingOp(trace, forest, s);
    if (op != kNoIndex) times.directDevice[op] = addSaturating(times.directDevice[op], s.dur);
  }
}

// CPU time covered by each event's children. Children are visited in start
// order (the preorder is sorted by start per track), so the sweep counts
// the union of their intervals: time two partly overlapping siblings share
// is subtracted from the parent once, and self CPU is never negative.
// The preorder lists each track depth first (the nesting is a stack over
// the sorted events, and merged events only lift children to an
// ancestor), so an event's parent is always among the open events before
// it: how far each open event's children reach is kept on that stack, not
// in an array over every slice (8 bytes a slice at the analysis' peak).
void measureChildCpu(const Trace& trace, const ops::CpuForest& forest, EventTimes& times) {
  struct Open {
    std::uint32_t event;
    TimeNs coveredUntil;
  };
  std::vector<Open> open;
  for (std::uint32_t i : forest.preorder) {
    const std::uint32_t parent = forest.parent[i];
    while (!open.empty() && open.back().event != parent) open.pop_back();
    const Slice& s = trace.slices[i];
    if (!open.empty()) {
      Open& p = open.back();
      const TimeNs from = std::max(s.start, p.coveredUntil);
      if (s.end() > from) times.childCpu[parent] = addSaturating(times.childCpu[parent], s.end() - from);
      p.coveredUntil = std::max(p.coveredUntil, s.end());
    }
    assert((parent == kNoIndex) == open.empty() && "a parent is always open before its children");
    open.push_back({i, std::numeric_limits<TimeNs>::min()});
  }
}

// CPU events, children before parents, so each device total is complete when read.
void addCpuEvents(const Trace& trace, const ops::CpuForest& forest, const OpTableOptions& options,
                  RowAccumulator& rows, EventTimes& times, OpTable& table) {
  for (auto it = forest.preorder.rbegin(); it != forest.preorder.rend(); ++it) {
    const std::uint32_t i = *it;
    const Slice& s = trace.slices[i];
    const TimeNs deviceTotal = addSaturating(times.directDevice[i], times.descendantDevice[i]);
    const TimeNs selfCpu = std::max<TimeNs>(0, s.dur - times.childCpu[i]);
    const std::uint32_t parent = forest.parent[i];
    if (parent != kNoIndex) times.descendantDevice[parent] = addSaturating(times.descendantDevice[parent], deviceTotal);
    if (!counted(options.range, s)) continue;
    OpRow& row = rows.rowFor(s, OpDevice::Cpu);
    row.calls += 1;
    row.cpuTotal = addSaturating(row.cpuTotal, s.dur);
    row.selfCpu = addSaturating(row.selfCpu, selfCpu);
    row.deviceTotal = addSaturating(row.deviceTotal, deviceTotal);
    row.selfDevice = addSaturating(row.selfDevice, times.directDevice[i]);
    table.selfCpuTotal = addSaturating(table.selfCpuTotal, selfCpu);
  }
}

}  // namespace

OpTable buildOpTable(const Trace& trace, const OpTableOptions& options) {
  const auto classes = ops::classifyOpEvents(trace);
  ops::CpuForest forest = ops::buildCpuForest(trace, classes);
  const std::size_t n = trace.slices.size();
  EventTimes times{std::vector<TimeNs>(n, 0), std::vector<TimeNs>(n, 0), std::vector<TimeNs>(n, 0)};

  OpTable table;
  RowAccumulator rows(trace, options.groupByShapes);
  addGpuEvents(trace, classes, forest, options, rows, times, table);
  // Attribution first (to the innermost op, as Kineto links it), then
  // PyTorch's folding of same-name only children lifts it to the survivor.
  ops::mergeSameNameOnlyChildren(trace, forest, times.directDevice);
  measureChildCpu(trace, forest, times);
  addCpuEvents(trace, forest, options, rows, times, table);

  table.rows = rows.take();
  sortOpRows(table.rows, OpSortKey::DeviceTotal);
  return table;
}

double OpTable::selfCpuPct(const OpRow& r) const { return percentOf(r.selfCpu, selfCpuTotal); }
double OpTable::cpuTotalPct(const OpRow& r) const { return percentOf(r.cpuTotal, selfCpuTotal); }
double OpTable::selfDevicePct(const OpRow& r) const { return percentOf(r.selfDevice, selfDeviceTotal); }
double OpTable::deviceTotalPct(const OpRow& r) const { return percentOf(r.deviceTotal, selfDeviceTotal); }

}  // namespace gapscope::analysis
