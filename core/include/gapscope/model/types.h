// Basic value types of the trace model. Time is always int64 nanoseconds:
// Kineto writes `ts` as "us.nnn" with 16+ significant digits, which a double
// cannot hold, so readers parse the decimal text straight into nanoseconds.
#pragma once

#include <cstdint>
#include <limits>

namespace gapscope {

using TimeNs = std::int64_t;
using StringId = std::uint32_t;

// StringId 0 is always the empty string.
inline constexpr StringId kEmptyString = 0;
inline constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();
// A half-open time range [start, end): a range the user selected, a step.
struct TimeRange {
  TimeNs start = 0;
  TimeNs end = 0;
  TimeNs duration() const { return end - start; }
  bool contains(TimeNs t) const { return t >= start && t < end; }
  bool overlaps(TimeNs s, TimeNs e) const { return s < end && e > start; }
};

// Correlation ids are positive in Kineto and CUPTI; 0 means "none".
inline constexpr std::int64_t kNoCorrelation = 0;

// What a slice is, decided once from its category so analyses never compare
// strings. Old (PyTorch 1.8-era) Kineto categories map to the same kinds.
enum class SliceKind : std::uint8_t {
  Other = 0,
  CpuOp,              // "cpu_op", old "Operator"
  UserAnnotation,     // "user_annotation" (record_function, ProfilerStep#N)
  PythonFunction,     // "python_function"
  CudaRuntime,        // "cuda_runtime", old "Runtime"
  CudaDriver,         // "cuda_driver"
  Kernel,             // "kernel", old "Kernel"
  Memcpy,             // "gpu_memcpy", old "Memcpy"
  Memset,             // "gpu_memset", old "Memset"
  GpuUserAnnotation,  // "gpu_user_annotation"
  Async,              // from async b/e phases
};

// True for the GPU work that occupies a stream (not annotations).
constexpr bool isGpuActivity(SliceKind k) {
  return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset;
}
constexpr bool isGpuKind(SliceKind k) {
  return isGpuActivity(k) || k == SliceKind::GpuUserAnnotation;
}

enum class TrackKind : std::uint8_t {
  CpuThread,  // a pid/tid pair with CPU events
  GpuStream,  // a pid/tid pair (device/stream in Kineto) with GPU events
  Async,      // async (b/e/n) slices of one process and name
};

// Chrome trace pids and tids are numbers or strings ("Spans", "stream 7").
// A string id keeps its text in `label` and gets a synthetic `num`.
struct ChromeId {
  std::int64_t num = 0;
  StringId label = kEmptyString;  // non-empty when the file used a string
  friend bool operator==(const ChromeId&, const ChromeId&) = default;
};

// Where an event's raw `args` object lives, for fetching on demand.
// `offset` is the byte offset of the args text in the (decompressed) source,
// or an offset into Trace's args arena when the source cannot be re-read.
// 12 bytes on a 4-byte boundary, not 16 on an 8-byte one: the padding is
// where Slice keeps its parent, so a slice stays 64 bytes (one cache line;
// a big trace holds tens of millions).
struct __attribute__((packed, aligned(4))) ArgsRef {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;  // 0: the event had no args
};
static_assert(sizeof(ArgsRef) == 12);

enum class Severity : std::uint8_t { Info, Warning, Error };

}  // namespace gapscope
