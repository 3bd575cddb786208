// The CPU side of the gap analysis: runtime/driver calls by correlation id,
// each thread's blocking sync calls and stream waits.
#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "call_table.h"

namespace gapscope::analysis::gaps_detail {

void CorrelationMap::build(const std::vector<std::int64_t>& correlations) {
  dense_.clear();
  sorted_.clear();
  if (correlations.empty()) return;
  auto [lo, hi] = std::minmax_element(correlations.begin(), correlations.end());
  auto n = static_cast<std::uint32_t>(correlations.size());
  // Dense when the table costs at most a few slots per id (ids are usually
  // consecutive integers from one process).
  auto span = static_cast<std::uint64_t>(*hi - *lo);
  if (span < 4 * static_cast<std::uint64_t>(n) + 4096) {
    base_ = *lo;
    dense_.assign(span + 1, kNoIndex);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t& slot = dense_[static_cast<std::size_t>(correlations[i] - base_)];
      if (slot == kNoIndex) slot = i;  // first call wins on duplicate ids
    }
    return;
  }
  sorted_.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) sorted_.emplace_back(correlations[i], i);
  std::stable_sort(sorted_.begin(), sorted_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::uint32_t CorrelationMap::find(std::int64_t correlation) const {
  if (correlation == kNoCorrelation) return kNoIndex;
  if (!dense_.empty()) {
    if (correlation < base_) return kNoIndex;
    auto off = static_cast<std::uint64_t>(correlation - base_);
    return off < dense_.size() ? dense_[off] : kNoIndex;
  }
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), correlation,
                             [](const auto& p, std::int64_t c) { return p.first < c; });
  return it != sorted_.end() && it->first == correlation ? it->second : kNoIndex;
}

namespace {

// Per-name facts, computed once per distinct name (names repeat millions of times).
struct NameClass {
  LaunchKind launch = LaunchKind::None;
  SyncKind sync = SyncKind::None;
  bool known = false;
};

class NameClasses {
 public:
  explicit NameClasses(const Trace& t) : trace_(t), classes_(t.strings.size()) {}
  const NameClass& of(StringId id) {
    NameClass& c = classes_[id];
    if (!c.known) {
      std::string_view name = trace_.str(id);
      c.launch = launchKindForName(name);
      c.sync = syncKindForName(name);
      c.known = true;
    }
    return c;
  }

 private:
  const Trace& trace_;
  std::vector<NameClass> classes_;
};

bool isBlocking(SyncKind k) { return k != SyncKind::None && k != SyncKind::StreamWaitEvent; }

// Kineto's cuda_sync markers (on the GPU side) name the runtime call they
// belong to by correlation id: "Stream Wait Event" says which stream waited,
// the others ("Stream Sync", "Event Sync", "Context Sync") mark a blocking call.
struct SyncMarkers {
  std::unordered_map<std::int64_t, std::int64_t> waitStreamByCorrelation;
  std::unordered_set<std::int64_t> blockingCorrelations;
};

SyncMarkers collectSyncMarkers(const Trace& trace) {
  SyncMarkers m;
  StringId cudaSync = kEmptyString;
  if (!trace.strings.find("cuda_sync", &cudaSync)) return m;
  for (const Track& t : trace.tracks) {
    std::int64_t stream = t.kind == TrackKind::GpuStream ? t.stream : t.tid.num;
    for (const Slice* s = trace.trackBegin(t); s != trace.trackEnd(t); ++s) {
      if (s->category != cudaSync || s->correlation == kNoCorrelation) continue;
      if (trace.str(s->name).find("Wait") != std::string_view::npos)
        m.waitStreamByCorrelation.emplace(s->correlation, stream);
      else
        m.blockingCorrelations.insert(s->correlation);
    }
  }
  return m;
}

bool isCall(SliceKind k) { return k == SliceKind::CudaRuntime || k == SliceKind::CudaDriver; }

// Reserves room for every slice of the CPU tracks: an upper bound that
// costs address space only, where growing would copy and fault the
// records in again.
std::size_t cpuSliceCount(const Trace& trace) {
  std::size_t n = 0;
  for (const Track& t : trace.tracks)
    if (t.kind == TrackKind::CpuThread) n += t.sliceCount;
  return n;
}

}  // namespace

CallTable buildCallTable(const Trace& trace) {
  CallTable table;
  table.threads.resize(trace.tracks.size());
  SyncMarkers markers = collectSyncMarkers(trace);
  NameClasses names(trace);
  std::vector<std::int64_t> correlations;  // of table.calls
  std::size_t bound = cpuSliceCount(trace);
  table.calls.reserve(bound);
  correlations.reserve(bound);
  for (std::uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const Track& t = trace.tracks[ti];
    if (t.kind != TrackKind::CpuThread) continue;
    ThreadCalls& thread = table.threads[ti];
    for (std::uint32_t i = t.firstSlice; i < t.firstSlice + t.sliceCount; ++i) {
      const Slice& s = trace.slices[i];
      if (!isCall(s.kind)) continue;
      const NameClass& c = names.of(s.name);
      if (s.correlation != kNoCorrelation) {
        correlations.push_back(s.correlation);
        table.calls.push_back({s.start, s.end(), i, ti, s.name, c.launch});
      } else if (c.launch != LaunchKind::None) {
        ++table.launchCallsWithoutCorrelation;
      }
      if (c.sync == SyncKind::StreamWaitEvent) {
        auto it = markers.waitStreamByCorrelation.find(s.correlation);
        thread.waits.push_back({s.start, i,
                                it == markers.waitStreamByCorrelation.end() ? kAnyStream : it->second});
      } else if (isBlocking(c.sync) || (!markers.blockingCorrelations.empty() &&
                                          markers.blockingCorrelations.count(s.correlation))) {
        thread.blockingSyncs.push_back({s.start, s.end(), i});
      }
    }
  }
  table.byCorrelation.build(correlations);
  return table;
}

}  // namespace gapscope::analysis::gaps_detail
