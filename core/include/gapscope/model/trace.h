// The in-memory trace model: what every reader produces and every analysis,
// view and writer consumes. Built only through TraceBuilder (trace_builder.h);
// read-only afterwards.
//
// Layout: all slices live in one vector, grouped by track and sorted by
// (start asc, dur desc) inside a track; a Track names its [firstSlice,
// firstSlice + sliceCount) range. Depth is the nesting level on its track;
// slices that overlap without nesting (seen on real GPU streams) are never
// dropped: they get rows below the nested ones and the "overlap_spilled"
// import issue counts them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gapscope/model/correlation_index.h"
#include "gapscope/model/import_issues.h"
#include "gapscope/model/string_table.h"
#include "gapscope/model/types.h"

namespace gapscope {

namespace detail {
struct TraceAccess;
}

enum SliceFlags : std::uint8_t {
  kSliceSpilled = 1 << 0,    // overlapped a sibling without nesting: extra row
  kSliceUnclosed = 1 << 1,   // a B (or async b) never closed: ends at trace end
  kSliceFromBegin = 1 << 2,  // came from a B/E pair rather than an X event
};

struct Slice {
  TimeNs start = 0;
  TimeNs dur = 0;
  std::int64_t correlation = kNoCorrelation;  // args.correlation (launch <-> GPU op)
  ArgsRef args;
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  StringId shapes = kEmptyString;   // args["Input Dims"] as raw JSON text
  std::uint32_t track = kNoIndex;
  std::uint32_t kernelInfo = kNoIndex;  // index into Trace::kernelInfos (shared by kernels launched alike)
  // The enclosing slice on the same track (a global slice index), set once
  // by TraceBuilder::finish(); kNoIndex for roots and on async tracks. A
  // nested slice's parent is the innermost slice that contains it. A
  // spilled slice (kSliceSpilled: it overlaps a sibling without nesting)
  // gets the innermost nested slice open at its start, which need not
  // contain it whole, so ancestor walks pass through it; it is never a
  // parent itself.
  std::uint32_t parent = kNoIndex;
  std::uint16_t depth = 0;  // nesting level; spilled slices: their extra row
  std::uint8_t flags = 0;
  SliceKind kind = SliceKind::Other;

  TimeNs end() const { return start + dur; }
};
static_assert(sizeof(Slice) == 64, "a slice is one cache line: memory per slice is a product target");

// Launch configuration of a kernel, from Kineto's or CUPTI's kernel args.
// Kernels share a few configurations: each distinct one is kept once, and
// every kernel launched with it points at it.
struct KernelInfo {
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registersPerThread = -1;  // -1: unknown
  std::int64_t sharedMemory = -1;        // bytes, -1: unknown
  float blocksPerSm = -1.f;
  float warpsPerSm = -1.f;
  float occupancyPct = -1.f;  // "est. achieved occupancy %", -1: unknown
  std::int32_t device = -1;
  std::int64_t stream = -1;

  bool operator==(const KernelInfo&) const = default;
};

struct Track {
  TrackKind kind = TrackKind::CpuThread;
  ChromeId pid;
  ChromeId tid;
  std::uint32_t process = kNoIndex;  // index into Trace::processes
  StringId name = kEmptyString;      // thread_name metadata, or derived
  std::int64_t sortIndex = 0;        // thread_sort_index, else tid
  std::int32_t device = -1;          // GPU tracks: device id
  std::int64_t stream = -1;          // GPU tracks: stream id
  std::uint32_t firstSlice = 0;
  std::uint32_t sliceCount = 0;
  std::uint16_t nestedRows = 0;  // rows used by properly nested slices
  std::uint16_t rows = 0;        // nestedRows + spill rows
};

struct Process {
  ChromeId pid;
  StringId name = kEmptyString;    // process_name metadata
  StringId labels = kEmptyString;  // process_labels metadata
  std::int64_t sortIndex = 0;      // process_sort_index, else pid
  bool isGpu = false;              // holds GPU stream tracks
  std::vector<std::uint32_t> tracks;  // indices into Trace::tracks
};

enum class FlowKind : std::uint8_t {
  LaunchToGpu,  // Kineto "ac2g" (and old "async" launch flows)
  FwdBwd,       // Kineto "fwdbwd"
  Other,        // any other v1 (s/t/f) or v2 (bind_id / flow_in / flow_out) flow
};

struct Flow {
  std::uint32_t from = kNoIndex;  // slice index
  std::uint32_t to = kNoIndex;    // slice index
  std::uint64_t id = 0;
  StringId category = kEmptyString;
  StringId name = kEmptyString;
  FlowKind kind = FlowKind::Other;
};

struct Instant {
  TimeNs ts = 0;
  StringId name = kEmptyString;
  StringId category = kEmptyString;
  std::uint32_t process = kNoIndex;  // kNoIndex: global scope
  std::uint32_t track = kNoIndex;    // kNoIndex: process or global scope
  char scope = 't';                  // 'g', 'p' or 't'
  ArgsRef args;
};

// One counter series: a C event's name plus one numeric key of its args
// ("name" alone when the only key is "value"... or always "name key").
struct CounterSeries {
  std::uint32_t process = kNoIndex;
  StringId name = kEmptyString;
  std::vector<TimeNs> ts;
  std::vector<double> values;
};

struct DeviceProperties {
  std::int32_t id = -1;
  std::string name;
  std::int32_t numSms = 0;
  std::int32_t computeMajor = 0;
  std::int32_t computeMinor = 0;
  std::int32_t maxThreadsPerMultiprocessor = 0;
  std::int32_t regsPerMultiprocessor = 0;
  std::int64_t sharedMemPerMultiprocessor = 0;
  std::int64_t totalGlobalMem = 0;
  std::string rawJson;  // the whole entry as written
};

struct TraceMetadata {
  std::string sourcePath;
  std::uint64_t sourceBytes = 0;        // size of the file as stored
  std::uint64_t decompressedBytes = 0;  // size of the JSON text
  std::int64_t baseTimeNanoseconds = 0;
  std::string displayTimeUnit;  // "ms" (default) or "ns": display only, ts is always us
  std::vector<DeviceProperties> devices;
  std::string distributedInfoJson;  // raw, empty when absent
  // Other top-level scalar keys (schemaVersion, trace_id, ...), raw JSON values.
  std::vector<std::pair<std::string, std::string>> otherKeys;
};

// Fetches raw args text for an ArgsRef (from the source file or an arena).
class ArgsSource {
 public:
  virtual ~ArgsSource() = default;
  // Returns the raw JSON text of the args object, or "" when none.
  virtual std::string fetch(const ArgsRef& ref) const = 0;
  // Whether fetching out of the text's order costs far more than in it (a
  // .json.gz inflates again from an index point each time it goes back).
  virtual bool slowOutOfOrder() const { return false; }
  // Up to `length` bytes of the source text from `offset` (fewer at its
  // end), for showing an event as written (source_event.h); "" where only
  // the args were kept (text in memory, a .gz read from a pipe).
  virtual std::string sourceText(std::uint64_t offset, std::uint32_t length) const {
    (void)offset;
    (void)length;
    return {};
  }
  // Whether sourceText reads the source (a file, plain or gzipped).
  virtual bool keepsSource() const { return false; }
};

class Trace {
 public:
  Trace() = default;
  Trace(Trace&&) noexcept = default;
  Trace& operator=(Trace&&) noexcept = default;

  StringTable strings;
  std::vector<Slice> slices;
  std::vector<Track> tracks;
  std::vector<Process> processes;
  std::vector<Flow> flows;
  std::vector<Instant> instants;
  std::vector<CounterSeries> counters;
  std::vector<KernelInfo> kernelInfos;
  TraceMetadata metadata;
  ImportIssues issues;
  std::uint64_t eventCount = 0;  // trace events read, all phases
  std::shared_ptr<const ArgsSource> argsSource;

  std::string_view str(StringId id) const { return strings.view(id); }
  std::string argsJson(const Slice& s) const;
  std::string argsJson(const ArgsRef& ref) const;
  // The args of many events, visited as fn(index in refs, json) in the order
  // their text lies in the source: one pass over a .json.gz where fetching
  // them in another order would inflate it again and again. Events without
  // args are skipped.
  void forEachArgsInSourceOrder(const std::vector<ArgsRef>& refs,
                                const std::function<void(std::size_t, const std::string&)>& fn) const;

  // The slices of one track, sorted by start.
  const Slice* trackBegin(const Track& t) const { return slices.data() + t.firstSlice; }
  const Slice* trackEnd(const Track& t) const { return trackBegin(t) + t.sliceCount; }

  // Earliest start and latest end over all slices, instants and counters.
  TimeNs minTime() const { return minTime_; }
  TimeNs maxTime() const { return maxTime_; }

  // Slice index of the kernel/memcpy/memset launched by a runtime/driver call
  // with this correlation id, and the reverse. kNoIndex when absent.
  std::uint32_t gpuOpForCorrelation(std::int64_t correlation) const;
  std::uint32_t launchForCorrelation(std::int64_t correlation) const;

  std::size_t memoryBytes() const;

 private:
  friend struct detail::TraceAccess;
  TimeNs minTime_ = 0;
  TimeNs maxTime_ = 0;
  CorrelationIndex gpuByCorrelation_;
  CorrelationIndex launchByCorrelation_;
};

SliceKind sliceKindForCategory(std::string_view category);
const char* sliceKindName(SliceKind k);
// True for runtime/driver calls that launch GPU work (kernel, graph, memcpy, memset).
bool isLaunchCallName(std::string_view name);
// A pid or tid as the file wrote it: its string, else its number.
std::string chromeIdText(const Trace& trace, const ChromeId& id);

}  // namespace gapscope
