// The operator table (PyTorch's key_averages) from the CPU forest and the
// launch attribution of GPU work; see docs/operator-table.md.
#include "gapscope/analysis/ops_table.h"
#include "gapscope/analysis/steps.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "analysis/ops/op_events.h"
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

OpTable buildOpTable(const Trace& trace, const OpTableOptions& options) {
  const auto classes = ops::classifyOpEvents(trace);
  const ops::CpuForest forest = ops::buildCpuForest(trace, classes);
  const std::size_t n = trace.slices.size();

  OpTable table;
  RowAccumulator rows(trace, options.groupByShapes);
  // GPU work, in its own rows and attributed to the op that launched it.
  std::vector<TimeNs> deviceTotal(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (classes[i] != ops::OpEventClass::Gpu) continue;
    const Slice& s = trace.slices[i];
    OpRow& row = rows.rowFor(s, OpDevice::Gpu);
    row.calls += 1;
    row.selfDevice = addSaturating(row.selfDevice, s.dur);
    row.deviceTotal = addSaturating(row.deviceTotal, s.dur);
    if (s.kind == SliceKind::GpuUserAnnotation) continue;  // a range, not work: PyTorch attributes none
    table.selfDeviceTotal = addSaturating(table.selfDeviceTotal, s.dur);
    std::uint32_t op = ops::launchingOp(trace, forest, s);
    if (op != kNoIndex) deviceTotal[op] = addSaturating(deviceTotal[op], s.dur);
  }

  // CPU events, children before parents, so each total is complete when read.
  std::vector<TimeNs> childDevice(n, 0);
  std::vector<TimeNs> childCpu(n, 0);
  for (auto it = forest.preorder.rbegin(); it != forest.preorder.rend(); ++it) {
    const std::uint32_t i = *it;
    const Slice& s = trace.slices[i];
    OpRow& row = rows.rowFor(s, OpDevice::Cpu);
    row.calls += 1;
    // Children nest in their parent but may overlap each other (slices
    // that overlap on one thread): their sum can pass the parent's time,
    // and a self time is never below 0.
    const TimeNs selfCpu = std::max<TimeNs>(0, s.dur - childCpu[i]);
    const TimeNs selfDevice = std::max<TimeNs>(0, deviceTotal[i] - childDevice[i]);
    row.cpuTotal = addSaturating(row.cpuTotal, s.dur);
    row.selfCpu = addSaturating(row.selfCpu, selfCpu);
    row.deviceTotal = addSaturating(row.deviceTotal, deviceTotal[i]);
    row.selfDevice = addSaturating(row.selfDevice, selfDevice);
    table.selfCpuTotal = addSaturating(table.selfCpuTotal, selfCpu);
    const std::uint32_t parent = forest.parent[i];
    if (parent != kNoIndex) {
      childCpu[parent] = addSaturating(childCpu[parent], s.dur);
      childDevice[parent] = addSaturating(childDevice[parent], deviceTotal[i]);
      deviceTotal[parent] = addSaturating(deviceTotal[parent], deviceTotal[i]);
    }
  }

  table.rows = rows.take();
  sortOpRows(table.rows, OpSortKey::DeviceTotal);
  return table;
}

namespace {
double percent(TimeNs part, TimeNs whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}
}  // namespace

double OpTable::selfCpuPct(const OpRow& r) const { return percent(r.selfCpu, selfCpuTotal); }
double OpTable::cpuTotalPct(const OpRow& r) const { return percent(r.cpuTotal, selfCpuTotal); }
double OpTable::selfDevicePct(const OpRow& r) const { return percent(r.selfDevice, selfDeviceTotal); }
double OpTable::deviceTotalPct(const OpRow& r) const { return percent(r.deviceTotal, selfDeviceTotal); }

}  // namespace gapscope::analysis
