// What the level-of-detail walk reads of a row next to each edge of the
// row's time buckets (start_buckets.h), kept in one small array.
//
// Zoomed out, the walk jumps from pixel to pixel through the bucket index
// and reads the element just before the edge it lands on and the one at it:
// two reads per pixel at random places in a model of gigabytes (cache and
// TLB misses: about 1 us a pixel on a 10M-slice trace, and tens of
// milliseconds for a row's first frame, nothing cached). A copy of those two
// elements per edge (48 bytes; at most 1.5 bytes a slice, 3 MiB a row) puts
// every such read in a few megabytes that stay cached. The walk's result is
// the same with or without it.
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/types.h"
#include "gapscope/timeline/start_buckets.h"

namespace gapscope::timeline {

// One element of a row as the walk sees it.
struct IntervalVisit {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t id = 0;      // a slice (or gap) index
  std::uint16_t colour = 0;  // its colour class
};

class EdgeVisits {
 public:
  struct AtEdge {
    IntervalVisit before;  // position firstAtEdge(e) - 1, when there is one
    IntervalVisit at;      // position firstAtEdge(e), when there is one
  };

  // `visitAt(k)` gives position k of the row `buckets` was built over (of
  // `count` elements).
  template <class VisitAt>
  void build(const StartBuckets& buckets, std::uint32_t count, VisitAt visitAt) {
    edges_.clear();
    if (buckets.empty()) return;
    edges_.resize(buckets.edges());
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      const std::uint32_t first = buckets.firstAtEdge(e);
      if (first > 0) edges_[e].before = visitAt(first - 1);
      if (first < count) edges_[e].at = visitAt(first);
    }
    edges_.shrink_to_fit();
  }

  bool empty() const { return edges_.empty(); }
  const AtEdge& at(std::size_t edge) const { return edges_[edge]; }
  std::size_t memoryBytes() const { return edges_.capacity() * sizeof(AtEdge); }

 private:
  std::vector<AtEdge> edges_;
};

}  // namespace gapscope::timeline
