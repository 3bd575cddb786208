// The device-gap and stream-gap walks (gap_walks.h).
#include "gap_walks.h"

#include <optional>

#include "gapscope/model/time_limits.h"

namespace gapscope::analysis::gaps_detail {
namespace {

// A stream's or device's busy time and active window, as GpuBusy has them;
// the walks add the idle time.
UtilizationStats busyStats(const BusyRow& row) {
  UtilizationStats stats;
  stats.device = row.device;
  stats.stream = row.stream;
  stats.activeStart = row.firstStart;
  stats.activeEnd = row.lastEnd;
  stats.busyNs = row.busy;
  stats.gpuOps = row.activities;
  return stats;
}

void addToStats(const Gap& g, UtilizationStats& stats) {
  stats.idle[g.cause] = addSaturating(stats.idle[g.cause], g.dur);
  stats.hta[g.hta] = addSaturating(stats.hta[g.hta], g.dur);
  ++stats.gapCount;
}

// A listed stream gap whose CPU ops are those of a listed device gap (same
// window, same thread) says so with this count and the device gap's
// position in out.gaps as its begin, until pointStreamGapsAtCpuOps copies
// them over.
constexpr std::uint32_t kSameAsDeviceGap = kNoIndex;

// The stream gaps of every device. The streams of a device are walked
// together, block by block in the order the device's blocks are merged, so
// the device gap (if any) that ends where a stream gap ends is known when
// the stream gap is: it is the device gap the stream gap shares its CPU ops
// with, or there is none and the stream gap is blamed here, into its
// stream's own pool.
class StreamGapRunner {
 public:
  // Listed stream gaps go to gaps[firstStreamGap...]; device gaps are at
  // the front of the same list.
  StreamGapRunner(const Context& c, Gap* gaps,
                  std::size_t firstStreamGap)
      : c_(c), gaps_(gaps), next_(firstStreamGap) {
    if (c.options.blameCpuOps) blamer_.emplace(c.trace, c.options);
    side_.pools.resize(c.gpu.streams.size());
    side_.stats.resize(c.gpu.streams.size());
  }

  StreamSide run() {
    for (const DeviceTimeline& d : c_.gpu.devices) {
      runDevice(d);
      firstDeviceGap_ += d.listedGaps;
    }
    return std::move(side_);
  }

 private:
  // What the walk knows about one stream of the device.
  struct Member {
    std::uint32_t stream;  // index into gpu.streams
    StreamBlocks blocks;
    BusyBlock head;      // its next block
    BusyBlock previous;  // its last block so far
    bool live = false;
    bool started = false;
    std::size_t next = 0;  // where its next listed gap goes in out.gaps
  };

  void runDevice(const DeviceTimeline& d) {
    std::vector<Member> members;
    members.reserve(d.streams.size());
    for (std::uint32_t si : d.streams) {
      members.push_back({si, StreamBlocks(c_.gpu.streams[si].ops), {}, {}, false, false, next_});
      next_ += c_.gpu.streams[si].listedGaps;
      Member& m = members.back();
      m.live = m.blocks.next(m.head);
      side_.stats[si] = busyStats(*c_.busy.stream(d.device, c_.gpu.streams[si].stream));
    }
    deviceStarted_ = false;
    listedDeviceGaps_ = 0;
    lastDeviceGap_ = {};
    for (;;) {
      // The next block in the order DeviceBlocks merges them.
      Member* m = nullptr;
      for (Member& candidate : members)
        if (candidate.live && (!m || candidate.head.start < m->head.start)) m = &candidate;
      if (!m) break;
      const BusyBlock b = m->head;
      m->live = m->blocks.next(m->head);
      trackDevice(b);
      if (m->started) streamGap(*m, b);
      m->started = true;
      m->previous = b;
    }
  }

  // Follows the device's own blocks: a block starting after every block so
  // far has ended opens a device gap, ended by that block's first op.
  void trackDevice(const BusyBlock& b) {
    if (!deviceStarted_) {
      deviceStarted_ = true;
      deviceEnd_ = b.end;
      return;
    }
    if (b.start > deviceEnd_) {
      lastDeviceGap_.start = deviceEnd_;
      lastDeviceGap_.end = b.start;
      lastDeviceGap_.track = b.firstCall == kNoIndex ? kNoIndex : c_.calls.calls[b.firstCall].track;
      lastDeviceGap_.listed = b.start - deviceEnd_ >= c_.options.minGapNs;
      if (lastDeviceGap_.listed) lastDeviceGap_.position = firstDeviceGap_ + listedDeviceGaps_++;
    }
    deviceEnd_ = std::max(deviceEnd_, b.end);
  }

  void streamGap(Member& m, const BusyBlock& b) {
    const StreamTimeline& st = c_.gpu.streams[m.stream];
    Gap g = c_.classifier.classify(m.previous, b, &st.stream, lookups_);
    g.device = st.device;
    g.stream = st.stream;
    addToStats(g, side_.stats[m.stream]);
    if (g.dur < c_.options.minGapNs) {
      ++side_.unlistedCount;
      return;
    }
    if (blamer_ && g.launchTrack != kNoIndex) {
      const DeviceGapSeen& d = lastDeviceGap_;
      if (d.listed && d.start == g.start && d.end == g.end() && d.track == g.launchTrack) {
        g.cpuOpsBegin = static_cast<std::uint32_t>(d.position);
        g.cpuOpsCount = kSameAsDeviceGap;
      } else {
        blamer_->blame(g, true, false, side_.pools[m.stream]);
      }
    }
    gaps_[m.next++] = g;
  }

  struct DeviceGapSeen {
    TimeNs start = 0;
    TimeNs end = -1;
    std::uint32_t track = kNoIndex;
    bool listed = false;
    std::size_t position = 0;  // in out.gaps, when listed
  };

  const Context& c_;
  Gap* gaps_;
  std::size_t next_;  // where the next stream's gaps begin in gaps_
  std::optional<GapBlamer> blamer_;
  StreamSide side_;
  GapClassifier::Lookups lookups_;
  std::size_t firstDeviceGap_ = 0;  // this device's first gap in out.gaps
  std::size_t listedDeviceGaps_ = 0;
  bool deviceStarted_ = false;
  TimeNs deviceEnd_ = 0;
  DeviceGapSeen lastDeviceGap_;
};

}  // namespace

DeviceSide walkDeviceGaps(const Context& c,
                          std::size_t cpuOpsRoom, Gap* gaps) {
  DeviceSide side;
  std::optional<GapBlamer> blamer;
  if (c.options.blameCpuOps) {
    blamer.emplace(c.trace, c.options);
    side.cpuOps.reserve(cpuOpsRoom);
  }
  GapClassifier::Lookups lookups;
  side.unlisted.resize(c.gpu.devices.size());
  std::size_t next = 0;
  for (std::size_t di = 0; di < c.gpu.devices.size(); ++di) {
    const DeviceTimeline& d = c.gpu.devices[di];
    UtilizationStats stats = busyStats(*c.busy.device(d.device));
    DeviceBlocks blocks(c.gpu, d);
    BusyBlock before, after;
    if (blocks.next(before)) {
      while (blocks.next(after)) {
        Gap g = c.classifier.classify(before, after, nullptr, lookups);
        g.device = d.device;
        addToStats(g, stats);
        bool listed = g.dur >= c.options.minGapNs;
        bool overhead = g.cause == GapCause::LaunchOverhead;
        if (blamer && g.launchTrack != kNoIndex && (listed || overhead))
          blamer->blame(g, listed, overhead, side.cpuOps);
        if (listed) {
          gaps[next++] = g;
        } else {
          ++side.unlistedCount;
          if (c.options.perStep) side.unlisted[di].push_back({g.start, g.end(), g.cause, g.hta});
        }
        before = after;
      }
    }
    side.stats.push_back(stats);
  }
  if (blamer) side.overheadCpuOps = blamer->overheadCpuOps();
  return side;
}

StreamSide walkStreamGaps(const Context& c, Gap* gaps, std::size_t firstStreamGap) {
  return StreamGapRunner(c, gaps, firstStreamGap).run();
}

std::vector<std::uint32_t> poolOffsets(const std::vector<std::vector<CpuOpBlame>>& pools,
                                       std::size_t deviceEntries) {
  std::vector<std::uint32_t> offsets;
  std::size_t next = deviceEntries;
  for (const auto& p : pools) {
    offsets.push_back(static_cast<std::uint32_t>(next));
    next += p.size();
  }
  return offsets;
}

void appendPools(std::vector<std::vector<CpuOpBlame>>& pools, std::vector<CpuOpBlame>& cpuOps) {
  std::size_t total = cpuOps.size();
  for (const auto& p : pools) total += p.size();
  cpuOps.reserve(total);
  for (auto& p : pools) {
    cpuOps.insert(cpuOps.end(), p.begin(), p.end());
    p = {};
  }
}

void pointStreamGapsAtCpuOps(const GpuTimelines& gpu, std::size_t firstStreamGap,
                             const std::vector<std::uint32_t>& offsets, GapAnalysis& out) {
  std::size_t next = firstStreamGap;
  for (std::size_t si = 0; si < gpu.streams.size(); ++si) {
    for (std::uint64_t k = 0; k < gpu.streams[si].listedGaps; ++k) {
      Gap& g = out.gaps[next++];
      if (g.launchTrack == kNoIndex) continue;
      if (g.cpuOpsCount == kSameAsDeviceGap) {
        const Gap& same = out.gaps[g.cpuOpsBegin];
        g.cpuOpsBegin = same.cpuOpsBegin;
        g.cpuOpsCount = same.cpuOpsCount;
      } else {
        g.cpuOpsBegin += offsets[si];
      }
    }
  }
}


}  // namespace gapscope::analysis::gaps_detail
