// The track layout of a trace as the timeline shows it: groups (one per
// process), lanes (one per thread, GPU stream, async track or counter
// series) and rows (one per nesting depth of a lane).
//
// Built once per trace. Slices of a track are sorted by start only and
// their depths interleave, so each row of a multi-row track gets its own
// index array here (a one-row track reuses the track's own range): level of
// detail and hit testing then binary-search one row at a time.
//
// Order: GPU devices, then CPU processes, each by sort index then pid;
// the profiler's own processes (Kineto's "Spans", "Traces", "CUPTI
// overhead") go last and start collapsed.
// Processes with nothing to draw (Kineto names GPUs 0..15 even when one is
// used) get no group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gapscope/memory/memory.h"
#include "gapscope/model/trace.h"
#include "gapscope/model/types.h"
#include "gapscope/timeline/edge_visits.h"
#include "gapscope/timeline/start_buckets.h"

namespace gapscope::timeline {

enum class GroupKind : std::uint8_t {
  Cpu,       // a host process
  Gpu,       // a device: its streams
  Profiler,  // Kineto's own lanes ("Spans", "Traces"): rarely wanted
};

enum class LaneKind : std::uint8_t {
  Slices,
  Counter,
  Memory,  // a device's allocated and reserved memory (addMemoryLanes)
};

// Slices of one row in start order; a cheap view (pointers into the trace
// and the layout), valid as long as both live.
class RowSlices {
 public:
  RowSlices() = default;
  RowSlices(const Slice* all, std::uint32_t first, std::uint32_t count)
      : all_(all), first_(first), count_(count) {}
  RowSlices(const Slice* all, const std::uint32_t* indices, std::uint32_t count)
      : all_(all), indices_(indices), count_(count) {}
  // Searches by start use `buckets` (built over this very row) when given.
  // `edges` (built over the same buckets) lets the level of detail read the
  // elements at bucket edges without touching the slices (edge_visits.h).
  RowSlices withBuckets(const StartBuckets* buckets, const EdgeVisits* edges = nullptr) const {
    RowSlices r = *this;
    r.buckets_ = buckets && !buckets->empty() ? buckets : nullptr;
    r.edges_ = r.buckets_ && edges && !edges->empty() ? edges : nullptr;
    return r;
  }

  std::uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Index into Trace::slices of the k-th slice of the row.
  std::uint32_t sliceIndex(std::uint32_t k) const { return indices_ ? indices_[k] : first_ + k; }
  const Slice& operator[](std::uint32_t k) const { return all_[sliceIndex(k)]; }

  // First position (at or after `from`) whose slice starts at or after t.
  std::uint32_t lowerBoundStart(TimeNs t, std::uint32_t from = 0) const;
  // The same, searching forward from `from` in growing steps (1, 2, 4, ...)
  // before bisecting: O(log distance), and the first probes hit memory just
  // read. The level-of-detail walk asks pixel after pixel, always a little
  // further on, so this beats a bisection over the whole row.
  std::uint32_t gallopStart(TimeNs t, std::uint32_t from) const;
  const StartBuckets* buckets() const { return buckets_; }
  const EdgeVisits* edges() const { return edges_; }
  // First position whose slice ends at or after t. Only for disjoint rows,
  // where ends ascend with starts.
  std::uint32_t lowerBoundEnd(TimeNs t) const;

 private:
  // Bisects [lo, hi) for the first start >= t.
  std::uint32_t bisect(TimeNs t, std::uint32_t lo, std::uint32_t hi) const;

  const Slice* all_ = nullptr;
  const std::uint32_t* indices_ = nullptr;
  const StartBuckets* buckets_ = nullptr;
  const EdgeVisits* edges_ = nullptr;
  std::uint32_t first_ = 0;
  std::uint32_t count_ = 0;
};

struct LayoutRow {
  std::uint32_t lane = kNoIndex;
  std::uint16_t depth = 0;
  bool spill = false;     // a row for slices that overlapped without nesting
  bool disjoint = true;   // no two slices of the row overlap
  TimeNs maxDuration = 0; // longest slice of the row: bounds backward searches
  std::uint32_t first = 0;               // contiguous range (when indices is empty)
  std::uint32_t count = 0;
  std::vector<std::uint32_t> indices;    // slice indices, sorted by start
  StartBuckets buckets;                  // for rows of many slices
  EdgeVisits edges;                      // at the buckets' edges, for disjoint rows with buckets
};

struct Lane {
  LaneKind kind = LaneKind::Slices;
  std::uint32_t group = kNoIndex;
  std::uint32_t track = kNoIndex;    // Slices lanes: index into Trace::tracks
  std::uint32_t counter = kNoIndex;  // Counter lanes: index into Trace::counters
  std::string name;
  std::uint32_t firstRow = 0;  // into TimelineLayout::rows()
  std::uint32_t rowCount = 0;
  std::uint32_t memory = kNoIndex;   // Memory lanes: index into TimelineLayout::memoryLanes()
  double counterMin = 0;  // Counter and Memory lanes: value range, for scaling
  double counterMax = 0;
  // Drawn as a curve (a counter's or memory's), one row of counterHeight.
  bool curve() const { return kind != LaneKind::Slices; }
};

// A device's memory as two counters: allocated and reserved bytes after
// each "[memory]" event (memory.h), and the allocated peak.
struct MemoryLane {
  std::int32_t device = -1;
  CounterSeries allocated;
  CounterSeries reserved;  // empty when no event states Total Reserved
  std::int64_t peakAllocated = 0;
  TimeNs peakAllocatedTs = 0;
};

struct Group {
  GroupKind kind = GroupKind::Cpu;
  std::uint32_t process = kNoIndex;  // index into Trace::processes
  std::string name;                  // e.g. "python3 (pid 495)", "GPU 0 (python3)"
  bool collapsedByDefault = false;
  std::int32_t device = -1;          // Gpu groups: the device id of their streams
  std::vector<std::uint32_t> lanes;  // indices into TimelineLayout::lanes()
};

// A stable colour class for a slice: a palette index from a hash of its
// name (so a name keeps its colour across traces), or one of the fixed
// classes below. The app maps classes to colours.
inline constexpr std::uint16_t kNamePaletteSize = 20;
inline constexpr std::uint16_t kColourMemcpy = kNamePaletteSize;
inline constexpr std::uint16_t kColourMemset = kNamePaletteSize + 1;
inline constexpr std::uint16_t kColourLaunch = kNamePaletteSize + 2;  // runtime/driver launch calls
inline constexpr std::uint16_t kColourClasses = kNamePaletteSize + 3;

// First position of a row whose slice may end at or after t: a binary
// search on disjoint rows, else a search back by the row's longest slice.
std::uint32_t firstReaching(const RowSlices& row, const LayoutRow& info, TimeNs t);

class TimelineLayout {
 public:
  static TimelineLayout build(const Trace& trace);

  const std::vector<Group>& groups() const { return groups_; }
  const std::vector<Lane>& lanes() const { return lanes_; }
  const std::vector<LayoutRow>& rows() const { return rows_; }

  // Adds a Memory lane per device of `memory` under that device's GPU
  // lanes (the CPU's under the first CPU process; a device without lanes
  // gets a group of its own).
  void addMemoryLanes(const memory::MemoryAnalysis& memory);
  const std::vector<MemoryLane>& memoryLanes() const { return memoryLanes_; }

  RowSlices rowSlices(const Trace& trace, std::uint32_t row) const;
  // The lane showing a track; kNoIndex when the track has none.
  std::uint32_t laneOfTrack(std::uint32_t track) const;
  // The row a slice is drawn in; kNoIndex when its track has no lane.
  std::uint32_t rowOfSlice(const Trace& trace, std::uint32_t slice) const;
  std::uint16_t colourClass(const Slice& s) const;
  // The class of a name (what colourClass gives a slice of that name that
  // is no memcpy or memset): the flame graph colours frames by it.
  std::uint16_t nameColourClass(StringId name) const { return name < nameColour_.size() ? nameColour_[name] : 0; }

  // The time range the lanes hold (slices and counter samples); "fit all"
  // shows this, and times are labelled from its start. Trace::minTime()
  // and maxTime() also count instants and dropped events, which some
  // writers stamp far from the events (in another clock domain).
  TimeNs contentStart() const { return contentStart_; }
  TimeNs contentEnd() const { return contentEnd_; }

 private:
  void setContentRange(const Trace& trace);
  void buildEdgeVisits(const Trace& trace);

  std::vector<Group> groups_;
  std::vector<Lane> lanes_;
  std::vector<LayoutRow> rows_;
  std::vector<MemoryLane> memoryLanes_;
  std::vector<std::uint32_t> laneOfTrack_;
  std::vector<std::uint8_t> nameColour_;  // per StringId
  TimeNs contentStart_ = 0;
  TimeNs contentEnd_ = 0;
};

// The profiler's own process ("Spans", "Traces", or one holding only
// category "overhead" slices, Kineto's "CUPTI overhead")?
bool isProfilerProcess(const Trace& trace, const Process& p);

}  // namespace gapscope::timeline
