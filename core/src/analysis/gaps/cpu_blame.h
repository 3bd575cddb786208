// The CPU ops blamed for a gap: self time on the launching thread inside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gapscope/analysis/gaps.h"
#include "gapscope/model/time_limits.h"
#include "gapscope/model/trace.h"

namespace gapscope::analysis::gaps_detail {

// Collects name -> self time for one gap or for many. A gap names a few
// ops, found fastest by a short linear search; past kFewNames (a long gap,
// or the totals of many gaps) an index by StringId takes over.
class BlameTotals {
 public:
  void add(StringId name, TimeNs ns) {
    if (!indexed_) {
      for (Entry& e : entries_) {
        if (e.name == name) {
          e.ns = addSaturating(e.ns, ns);
          return;
        }
      }
      entries_.push_back({name, ns});
      if (entries_.size() > kFewNames) buildIndex();
      return;
    }
    addIndexed(name, ns);
  }
  void addUntraced(TimeNs ns) { untraced_ = addSaturating(untraced_, ns); }
  // Adds every entry to byName (indexed by StringId, big enough) and
  // `untraced`; this one is unchanged.
  void addTo(std::vector<TimeNs>& byName, TimeNs& untraced) const;
  void clear();
  // Appends the entries to `pool`, largest first, at most maxOps (0: all),
  // zero entries dropped; returns how many; resets.
  std::size_t takeInto(std::vector<CpuOpBlame>& pool, std::size_t maxOps);

 private:
  static constexpr std::size_t kFewNames = 16;
  struct Entry {
    StringId name;
    TimeNs ns;
  };
  void buildIndex();
  void addIndexed(StringId name, TimeNs ns);
  std::vector<Entry> entries_;        // in the order first seen
  std::vector<std::uint32_t> index_;  // by StringId: position in entries_ + 1, 0 for none
  bool indexed_ = false;
  TimeNs untraced_ = 0;
};

// Self time of CPU ops inside time windows on one track, from the model's
// parent links (Slice::parent): a slice's self time is its time minus its
// children's; a spilled slice gets none (it is not nested in its parent).
class CpuBlamer {
 public:
  explicit CpuBlamer(const Trace& trace);
  // Adds each slice's self time clipped to [start, end) to `totals` (a
  // parent's may be negative there; totals per name never are), and the
  // time covered by no slice as untraced.
  void blame(std::uint32_t track, TimeNs start, TimeNs end, BlameTotals& totals);

 private:
  // First slice of `track` starting at or after `t`. Gaps come in time
  // order, so the search gallops forward from the previous answer.
  std::uint32_t firstStartingAt(std::uint32_t track, TimeNs t);
  const Trace& trace_;
  std::vector<std::uint32_t> hint_;      // per track: the previous answer
};

// Attributes gaps to the CPU ops of their launching thread, into pools of
// CpuOpBlame entries (and, for launch-overhead gaps, into trace-wide
// totals). One per thread.
class GapBlamer {
 public:
  GapBlamer(const Trace& trace, const GapOptions& options)
      : blamer_(trace), options_(options), nameCount_(trace.strings.size()) {}
  // Blames g's window on g.launchTrack; when `listed`, appends its entries
  // to `pool` and sets g.cpuOpsBegin (the position in `pool`) and
  // g.cpuOpsCount; adds to the overhead totals when `overhead`.
  void blame(Gap& g, bool listed, bool overhead, std::vector<CpuOpBlame>& pool);
  std::vector<CpuOpBlame> overheadCpuOps();

 private:
  CpuBlamer blamer_;
  const GapOptions& options_;
  std::size_t nameCount_;
  BlameTotals gapTotals_;
  // Launch-overhead time by CPU op name over every gap: many names, so one
  // slot per name (allocated at the first such gap).
  std::vector<TimeNs> overheadByName_;
  TimeNs overheadUntraced_ = 0;
};

}  // namespace gapscope::analysis::gaps_detail
