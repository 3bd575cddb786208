// Memory per operator on one device: the bytes each operator allocated and
// freed itself (its events' innermost operator), and the largest increment
// of one of its calls (nested calls included).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "memory/memory_detail.h"

namespace gapscope::memory::detail {
namespace {

// The device's rows, one per operator name.
class OpRows {
 public:
  OpRows(const Trace& trace, DeviceMemory& device) : trace_(trace), device_(device) {}

  // The row of the operator slice `op` (kNoIndex: outside any operator).
  OpMemory& of(std::uint32_t op) {
    const std::uint32_t key = op == kNoIndex ? kNoIndex : trace_.slices[op].name;
    auto [it, added] = index_.try_emplace(key, device_.byOp.size());
    if (added) {
      OpMemory row;
      row.name = op == kNoIndex ? std::string(kNoOperatorName) : std::string(trace_.str(key));
      row.device = device_.device;
      device_.byOp.push_back(std::move(row));
    }
    return device_.byOp[it->second];
  }

 private:
  const Trace& trace_;
  DeviceMemory& device_;
  std::unordered_map<std::uint32_t, std::size_t> index_;  // name id (kNoIndex: no operator) -> row
};

// The calls open at the current event of one thread: the event's operator
// and its cpu_op ancestors, outermost first. A call closes when an event
// falls outside it and hands its running sum and highest rise to its
// parent, so each call is pushed and popped once per thread: linear in the
// events and the calls they touch.
class OpenCalls {
 public:
  OpenCalls(const Trace& trace, OpRows& rows) : trace_(trace), rows_(rows) {}

  void add(const MemoryEvent& e) {
    path_.clear();
    std::uint32_t op = e.op;
    for (; op != kNoIndex && !open_.count(op); op = enclosingCpuOp(trace_, op)) path_.push_back(op);
    while (!stack_.empty() && stack_.back().slice != op) close();
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      stack_.push_back({*it, 0, 0});
      open_.insert(*it);
    }
    if (stack_.empty()) return;
    Call& top = stack_.back();
    top.sum = addSaturating(top.sum, e.bytes);
    top.highest = std::max(top.highest, top.sum);
  }

  void closeAll() {
    while (!stack_.empty()) close();
  }

 private:
  struct Call {
    std::uint32_t slice;
    std::int64_t sum;      // Bytes of its events so far
    std::int64_t highest;  // the highest `sum` reached, at least 0
  };

  void close() {
    const Call call = stack_.back();
    stack_.pop_back();
    open_.erase(call.slice);
    OpMemory& row = rows_.of(call.slice);
    row.peakIncrement = std::max(row.peakIncrement, call.highest);
    if (stack_.empty()) return;
    Call& parent = stack_.back();
    parent.highest = std::max(parent.highest, addSaturating(parent.sum, call.highest));
    parent.sum = addSaturating(parent.sum, call.sum);
  }

  const Trace& trace_;
  OpRows& rows_;
  std::vector<Call> stack_;
  std::unordered_set<std::uint32_t> open_;
  std::vector<std::uint32_t> path_;
};

// The device's events grouped by thread, each group in time order.
std::vector<std::uint32_t> byThread(const std::vector<MemoryEvent>& events, std::vector<std::uint32_t> ofDevice) {
  std::stable_sort(ofDevice.begin(), ofDevice.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return events[a].track < events[b].track; });
  return ofDevice;
}

void sortRows(std::vector<OpMemory>& rows) {
  std::sort(rows.begin(), rows.end(), [](const OpMemory& a, const OpMemory& b) {
    if (a.allocated.bytes != b.allocated.bytes) return a.allocated.bytes > b.allocated.bytes;
    if (a.peakIncrement != b.peakIncrement) return a.peakIncrement > b.peakIncrement;
    return a.name < b.name;
  });
}

}  // namespace

void addMemoryByOp(const Trace& trace, const std::vector<MemoryEvent>& events,
                   const std::vector<std::uint32_t>& ofDevice, DeviceMemory& device) {
  OpRows rows(trace, device);
  for (std::uint32_t i : ofDevice) {
    const MemoryEvent& e = events[i];
    if (e.bytes > 0) addTo(rows.of(e.op).allocated, e.bytes);
    if (e.bytes < 0) addTo(rows.of(e.op).freed, freedBytes(e));
  }
  const std::vector<std::uint32_t> grouped = byThread(events, ofDevice);
  for (std::size_t from = 0; from < grouped.size();) {
    std::size_t to = from;
    OpenCalls calls(trace, rows);
    for (; to < grouped.size() && events[grouped[to]].track == events[grouped[from]].track; ++to) {
      calls.add(events[grouped[to]]);
    }
    calls.closeAll();
    from = to;
  }
  sortRows(device.byOp);
}

}  // namespace gapscope::memory::detail
