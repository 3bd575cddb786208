// Small profile_memory=True traces written as Kineto JSON: cpu_op slices
// and "[memory]" instants on pid 1, times in microseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "gapscope/io/chrome_reader.h"

namespace gapscope::testing {

// The args of one "[memory]" event; absent ones are not written.
struct MemoryArgs {
  MemoryArgs(std::int64_t bytes, std::optional<std::uint64_t> addr = std::nullopt,
             std::optional<std::int64_t> totalAllocated = std::nullopt,
             std::optional<std::int64_t> totalReserved = std::nullopt, std::int32_t device = 0)
      : bytes(bytes), addr(addr), totalAllocated(totalAllocated), totalReserved(totalReserved), device(device) {}
  std::int64_t bytes;
  std::optional<std::uint64_t> addr;
  std::optional<std::int64_t> totalAllocated;
  std::optional<std::int64_t> totalReserved;
  std::int32_t device;
};

class MemoryTraceJson {
 public:
  MemoryTraceJson& slice(const std::string& name, double ts, double dur, const std::string& cat = "cpu_op",
                         int tid = 1) {
    events_.push_back({{"ph", "X"}, {"cat", cat}, {"name", name}, {"pid", 1}, {"tid", tid}, {"ts", ts}, {"dur", dur}});
    return *this;
  }
  MemoryTraceJson& memory(double ts, const MemoryArgs& a, int tid = 1) {
    nlohmann::json args{{"Device Type", a.device < 0 ? 0 : 1}, {"Device Id", a.device}, {"Bytes", a.bytes}};
    if (a.addr) args["Addr"] = *a.addr;
    if (a.totalAllocated) args["Total Allocated"] = *a.totalAllocated;
    if (a.totalReserved) args["Total Reserved"] = *a.totalReserved;
    return memoryWithArgs(ts, std::move(args), tid);
  }
  // A "[memory]" event with these args as they are (missing or odd ones).
  MemoryTraceJson& memoryWithArgs(double ts, nlohmann::json args, int tid = 1) {
    return raw({{"ph", "i"}, {"s", "t"}, {"name", "[memory]"}, {"pid", 1}, {"tid", tid}, {"ts", ts}, {"args", args}});
  }
  MemoryTraceJson& raw(nlohmann::json event) {
    events_.push_back(std::move(event));
    return *this;
  }
  std::string text() const { return nlohmann::json{{"traceEvents", events_}}.dump(); }
  Trace trace() const {
    io::LoadResult r = io::parseChromeTrace(text());
    if (!r.ok() || !r.trace) throw std::runtime_error("generated trace did not load: " + r.error);
    return std::move(*r.trace);
  }

 private:
  nlohmann::json events_ = nlohmann::json::array();
};

// The pattern most tests check (times in us, device 0 on thread 1 unless said):
//   outer [100, 200] cpu_op, inner [120, 150] cpu_op inside it, an annotation
//   [170, 190] inside outer, other [300, 350] cpu_op
//   110     +100 @0x1000  total 1100 reserved 2048  (1000 allocated before the trace)
//   115     +16  @0x10    CPU, total 16 reserved 0
//   130.25  +400 @0x2000  total 1500 reserved 4096  the peak, in inner
//   140     -400 @0x2000  total 1100
//   180     +50  @0x3000  total 1150                never freed, in outer (the annotation is no op)
//   310     -300 @0x9000  total  850                allocated before the trace
//   350     -100 @0x1000  total  750                at other's end (ends count)
//   400     +200 @0x4000  total  950                never freed, outside any op
inline MemoryTraceJson peakLeakNestedTrace() {
  MemoryTraceJson t;
  t.slice("outer", 100, 100).slice("inner", 120, 30).slice("annotation", 170, 20, "user_annotation");
  t.slice("other", 300, 50);
  t.memory(110, {100, 0x1000, 1100, 2048});
  t.memory(115, {16, 0x10, 16, 0, -1});
  t.memory(130.25, {400, 0x2000, 1500, 4096});
  t.memory(140, {-400, 0x2000, 1100, 4096});
  t.memory(180, {50, 0x3000, 1150, 4096});
  t.memory(310, {-300, 0x9000, 850, 4096});
  t.memory(350, {-100, 0x1000, 750, 4096});
  t.memory(400, {200, 0x4000, 950, 4096});
  return t;
}

}  // namespace gapscope::testing
