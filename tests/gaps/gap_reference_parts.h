// The pieces of the reference analysis (gap_reference.h), shared by its files.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <type_traits>
#include <vector>

#include "gap_reference.h"

namespace gapscope::gaps_test::reference {

inline constexpr std::int64_t kAnyStream = -2;

struct Call {
  TimeNs start, end;
  std::uint32_t slice, track;
  StringId name;
  analysis::LaunchKind kind;
};
struct SyncCall {
  TimeNs start, end;
  std::uint32_t slice;
};
struct WaitCall {
  TimeNs start;
  std::uint32_t slice;
  std::int64_t stream;  // kAnyStream when no cuda_sync marker names it
};

struct CpuSide {
  std::vector<Call> calls;
  std::map<std::int64_t, std::uint32_t> byCorrelation;  // the first call with the id
  std::map<std::uint32_t, std::vector<SyncCall>> syncs;  // by track, in track order
  std::map<std::uint32_t, std::vector<WaitCall>> waits;  // by track, in track order
  std::vector<std::uint32_t> steps;                      // ProfilerStep#N, by start
  std::uint64_t launchCallsWithoutCorrelation = 0;
};

struct Op {
  TimeNs start, end;
  std::uint32_t slice, call;
};
struct Block {
  TimeNs start, end;
  std::uint32_t firstSlice, firstCall, lastSlice, lastCall;
};
struct Stream {
  std::int32_t device;
  std::int64_t stream;
  std::vector<Op> ops;
  std::vector<Block> blocks;
};
struct Device {
  std::int32_t device;
  std::vector<std::size_t> streams;
  std::vector<Block> blocks;
  std::uint64_t ops;
};
struct GpuSide {
  std::vector<Stream> streams;  // by (device, stream)
  std::vector<Device> devices;
  std::uint64_t opsWithCorrelation = 0;
  std::uint64_t orphanOps = 0;
};

CpuSide readCpuSide(const Trace& trace);
GpuSide readGpuSide(const Trace& trace, const CpuSide& cpu);

// Maximal busy intervals of ops or blocks in start order: the next one
// joins the current block when it starts no later than the block's end.
template <typename It>
std::vector<Block> mergeIntoBlocks(It first, It last) {
  std::vector<Block> blocks;
  for (It it = first; it != last; ++it) {
    Block b;
    if constexpr (std::is_same_v<std::decay_t<decltype(*it)>, Op>)
      b = {it->start, it->end, it->slice, it->call, it->slice, it->call};
    else
      b = *it;
    if (blocks.empty() || b.start > blocks.back().end) {
      blocks.push_back(b);
    } else if (b.end > blocks.back().end) {
      blocks.back().end = b.end;
      blocks.back().lastSlice = b.lastSlice;
      blocks.back().lastCall = b.lastCall;
    }
  }
  return blocks;
}

analysis::Gap classify(const CpuSide& cpu, const analysis::GapOptions& options, const Block& before,
                       const Block& after, const std::int64_t* stream);

// Self time inside [start, end) of every CPU op of a track (time in the
// slice minus time in its children, both clipped), by name, and the time
// in no slice as the untraced entry; unsorted, zero entries included.
class SelfTimes {
 public:
  explicit SelfTimes(const Trace& trace) : trace_(trace) {}
  std::vector<analysis::CpuOpBlame> operator()(std::uint32_t track, TimeNs start, TimeNs end);

 private:
  // A track's nesting: each slice's parent (the innermost slice that
  // contains it), whether it overlaps a sibling without nesting (it then
  // gets no self time) and the latest end up to each slice.
  struct Nesting {
    std::vector<std::uint32_t> parent;
    std::vector<bool> spilled;
    std::vector<TimeNs> maxEndSoFar;
  };
  const Nesting& nesting(std::uint32_t track);
  const Trace& trace_;
  std::map<std::uint32_t, Nesting> nestings_;
};
// Sums lists of entries by name (the untraced entries together).
std::vector<analysis::CpuOpBlame> sumByName(const std::vector<std::vector<analysis::CpuOpBlame>>& lists);
// Positive entries, largest first (ties: by name, the untraced entry
// last), at most maxOps of them (0: all).
std::vector<analysis::CpuOpBlame> largestFirst(std::vector<analysis::CpuOpBlame> entries, std::size_t maxOps);

void fillLaunches(const CpuSide& cpu, const GpuSide& gpu, const analysis::GapOptions& options,
                  ReferenceAnalysis& out);

}  // namespace gapscope::gaps_test::reference
