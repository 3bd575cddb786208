// Internal state of TraceBuilder: events as they came, in file order, before
// finish() sorts and links them. `seq` is the file order (unique, increasing
// across merged builders) and breaks every tie so results are deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gapscope/model/trace_builder.h"

namespace gapscope::detail {

struct TrackKey {
  ChromeId pid;
  ChromeId tid;
  bool operator==(const TrackKey&) const = default;
};

struct IdHash {
  std::size_t operator()(const ChromeId& id) const noexcept {
    return std::hash<std::int64_t>()(id.num) * 31 + id.label;
  }
  std::size_t operator()(const TrackKey& k) const noexcept {
    return (*this)(k.pid) * 1000003u ^ (*this)(k.tid);
  }
};

// Each distinct launch configuration once: open addressing, each slot an
// index into the configurations and their hash, so a probe compares two
// configurations only when the hashes match and growing never reads them
// (when every kernel's configuration differs, as in gapscope-gen-trace's
// traces, reading them at random doubled the merge's time). 8 bytes a
// slot, at most three quarters full.
class KernelInfoSet {
 public:
  // The index in `infos` of a configuration equal to `info`, appended first if new.
  std::uint32_t intern(std::vector<KernelInfo>& infos, const KernelInfo& info);

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t index = kNoIndex;  // kNoIndex: empty
  };
  static std::uint32_t hashOf(const KernelInfo& k);
  void grow();
  std::vector<Slot> slots_;  // a power of two of them
  std::size_t used_ = 0;
};

struct RawTrack {
  TrackKey key;
  StringId name = kEmptyString;
  std::optional<std::int64_t> sortIndex;
};

struct RawProcess {
  ChromeId pid;
  StringId name = kEmptyString;
  StringId labels = kEmptyString;
  std::optional<std::int64_t> sortIndex;
};

// B or E on a thread, matched in finish() in (ts, seq) order.
struct BeginEnd {
  std::uint32_t track;
  TimeNs ts;
  std::uint64_t seq;
  std::uint64_t offset;
  std::uint32_t slice;  // index of the pending slice for B; kNoIndex for E
};

struct PendingAsync {
  AsyncEvent event;
  std::uint64_t seq;
};

// A flow event (s/t/f) until finish(): 48 bytes instead of a FlowEvent's
// 72 plus bookkeeping (a Kineto trace has one per launch and one per
// kernel). pid/tid live on as `track`; file order is the vector order.
struct PendingFlow {
  std::uint64_t id;
  TimeNs ts;
  std::uint64_t offset;
  std::uint32_t track;
  StringId category;
  StringId name;
  std::uint32_t order = 0;         // file order, set in finish()
  std::uint32_t slice = kNoIndex;  // the slice it binds to, set in finish()
  char phase;
  bool bindEnclosing;
};

struct PendingBind {  // flow v2
  std::uint32_t slice;
  std::uint64_t bindId;
  bool in;
  bool out;
};

struct PendingInstant {
  InstantEvent event;
  std::uint32_t track;  // kNoIndex unless thread scope
};

struct PendingCounterPoint {
  ChromeId pid;
  StringId series;
  TimeNs ts;
  double value;
};

struct BuilderState {
  StringTable strings;
  std::vector<RawTrack> tracks;
  std::unordered_map<TrackKey, std::uint32_t, IdHash> trackIndex;
  std::vector<RawProcess> processes;
  std::unordered_map<ChromeId, std::uint32_t, IdHash> processIndex;

  std::vector<Slice> slices;           // pending, file order; .track is a raw track id
  std::vector<std::uint64_t> offsets;  // byte offset of each pending slice's event
  std::vector<KernelInfo> kernelInfos;  // each distinct launch configuration once
  KernelInfoSet kernelInfoSet;
  // Merging: whether chunks' configurations are still interned (below).
  bool kernelInfosRepeat = true;
  std::uint32_t mergedKernelInfos = 0;
  std::uint32_t mergedKernelInfosFound = 0;
  std::vector<BeginEnd> beginEnds;
  std::vector<PendingAsync> asyncs;
  std::vector<PendingFlow> flows;
  std::vector<PendingBind> binds;
  std::vector<PendingInstant> instants;
  std::vector<PendingCounterPoint> counterPoints;

  TraceMetadata metadata;
  ImportIssues issues;
  std::uint64_t eventCount = 0;
  std::uint64_t nextSeq = 0;
  TimeNs minTime = INT64_MAX;
  TimeNs maxTime = INT64_MIN;

  std::uint32_t trackFor(ChromeId pid, ChromeId tid);
  std::uint32_t processFor(ChromeId pid);
  SliceKind kindOf(StringId category);
  std::uint32_t internKernelInfo(const KernelInfo& info);
  // A later chunk's configuration, at the merge: interned while
  // configurations repeat across chunks, appended once the first 4,096 of
  // them found under one in eight again (every kernel's differs, as in
  // gapscope-gen-trace's traces): there the set's probes cost the one merge
  // thread more than the copies they save (docs/performance.md).
  std::uint32_t mergeKernelInfo(const KernelInfo& info);

  // Per-event lookups, cached: events come in runs on one thread (the two
  // tracks asked for last are kept, as a thread's events and its GPU
  // stream's alternate in Kineto's files), and a trace has a handful of
  // categories.
  TrackKey lastTrackKey{};
  std::uint32_t lastTrack = kNoIndex;
  TrackKey previousTrackKey{};
  std::uint32_t previousTrack = kNoIndex;
  std::vector<std::int8_t> kindByCategory;  // -1: not looked up yet
  void note(TimeNs t) {
    if (t < minTime) minTime = t;
    if (t > maxTime) maxTime = t;
  }
};

// finish() steps, in trace_finish.cpp.
Trace finishTrace(BuilderState& state, std::shared_ptr<const ArgsSource> args, int threads);

}  // namespace gapscope::detail

namespace gapscope {
struct TraceBuilder::Impl : detail::BuilderState {};
}  // namespace gapscope
