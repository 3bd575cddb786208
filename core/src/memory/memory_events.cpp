// Reading the "[memory]" instants: args fetched in the source's order
// (Trace::forEachArgsInSourceOrder) and parsed once, each event given the
// operator it happened in.
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "memory/memory_detail.h"

namespace gapscope::memory {
namespace {

constexpr std::string_view kMemoryEventName = "[memory]";

// An integer arg; a float is taken only when it is a whole number in range
// (some writers print every number as a double).
std::optional<std::int64_t> integerArg(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return std::nullopt;
  if (it->is_number_unsigned()) {
    const auto v = it->get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_number_float()) {
    const double v = it->get<double>();
    if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9.2e18) return static_cast<std::int64_t>(v);
  }
  return std::nullopt;
}

// Addresses are 64-bit unsigned; written as integers.
std::optional<std::uint64_t> addressArg(const nlohmann::json& args) {
  auto it = args.find("Addr");
  if (it == args.end()) return std::nullopt;
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_number_integer()) return static_cast<std::uint64_t>(it->get<std::int64_t>());
  return std::nullopt;
}

// Fills `e` from the args text; false when Bytes or Device Id is missing.
bool readArgs(const std::string& text, MemoryEvent& e) {
  const nlohmann::json args = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!args.is_object()) return false;
  const auto bytes = integerArg(args, "Bytes");
  const auto device = integerArg(args, "Device Id");
  if (!bytes || !device || *device < std::numeric_limits<std::int32_t>::min() ||
      *device > std::numeric_limits<std::int32_t>::max()) {
    return false;
  }
  e.bytes = *bytes;
  e.device = static_cast<std::int32_t>(*device);
  e.deviceType = static_cast<std::int32_t>(integerArg(args, "Device Type").value_or(-1));
  e.addr = addressArg(args);
  e.totalAllocated = integerArg(args, "Total Allocated");
  e.totalReserved = integerArg(args, "Total Reserved");
  return true;
}

}  // namespace

namespace detail {

std::uint32_t enclosingCpuOp(const Trace& trace, std::uint32_t slice) {
  for (std::uint32_t p = trace.slices[slice].parent; p != kNoIndex; p = trace.slices[p].parent) {
    if (trace.slices[p].kind == SliceKind::CpuOp) return p;
  }
  return kNoIndex;
}

std::uint32_t innermostCpuOpAt(const Trace& trace, std::uint32_t track, TimeNs ts) {
  if (track == kNoIndex) return kNoIndex;
  const Track& t = trace.tracks[track];
  const Slice* begin = trace.trackBegin(t);
  const Slice* end = trace.trackEnd(t);
  // The last slice starting at or before ts (the shortest of equal starts).
  // Slices nest, so every slice holding ts is that one or an ancestor, and
  // the ancestors holding it come after the ones that ended before ts.
  const Slice* last = std::upper_bound(begin, end, ts, [](TimeNs at, const Slice& s) { return at < s.start; });
  if (last == begin) return kNoIndex;
  for (auto i = static_cast<std::uint32_t>(last - 1 - trace.slices.data()); i != kNoIndex; i = trace.slices[i].parent) {
    const Slice& s = trace.slices[i];
    if (s.kind == SliceKind::CpuOp && ts <= s.end()) return i;
  }
  return kNoIndex;
}

}  // namespace detail

MemoryEvents readMemoryEvents(const Trace& trace) {
  MemoryEvents out;
  StringId name;
  if (!trace.strings.find(kMemoryEventName, &name)) return out;
  std::vector<std::uint32_t> memoryInstants;
  std::vector<ArgsRef> refs;
  for (std::uint32_t i = 0; i < trace.instants.size(); ++i) {
    if (trace.instants[i].name != name) continue;
    memoryInstants.push_back(i);
    refs.push_back(trace.instants[i].args);
  }
  std::vector<std::optional<MemoryEvent>> read(refs.size());
  trace.forEachArgsInSourceOrder(refs, [&](std::size_t k, const std::string& json) {
    MemoryEvent e;
    if (readArgs(json, e)) read[k] = e;
  });
  for (std::size_t k = 0; k < read.size(); ++k) {
    if (!read[k]) {
      ++out.unreadable;
      continue;
    }
    const Instant& in = trace.instants[memoryInstants[k]];
    MemoryEvent& e = *read[k];
    e.ts = in.ts;
    e.track = in.track;
    e.op = detail::innermostCpuOpAt(trace, in.track, in.ts);
    out.events.push_back(e);
  }
  return out;
}

}  // namespace gapscope::memory
