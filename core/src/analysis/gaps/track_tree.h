// Parent links of CPU tracks for the CPU-op attribution (cpu_blame.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope::analysis::gaps_detail {

// Parent links of one CPU track's slices (local indices), one word per
// slice: the parent's index, or kNoParent, with kSpilled set when the
// slice overlaps a sibling without nesting. A spilled slice gets no self
// time; its parent is the innermost slice open at its start, so ancestor
// walks pass through it. (Slice indices stay far below 2^31: a slice is 64
// bytes.)
struct TrackTree {
  static constexpr std::uint32_t kSpilled = 1u << 31;
  static constexpr std::uint32_t kNoParent = kSpilled - 1;
  std::vector<std::uint32_t> links;
};

// Builds a TrackTree one slice at a time, in track order.
class TrackTreeBuilder {
 public:
  TrackTreeBuilder(const Slice* first, std::uint32_t count, TrackTree& tree)
      : first_(first), tree_(tree) {
    tree_.links.resize(count);
  }
  void add(std::uint32_t i) {
    const Slice& s = first_[i];
    while (!open_.empty() && first_[open_.back()].end() <= s.start) open_.pop_back();
    bool nests = open_.empty() || first_[open_.back()].end() >= s.end();
    std::uint32_t parent = open_.empty() ? TrackTree::kNoParent : open_.back();
    tree_.links[i] = nests ? parent : parent | TrackTree::kSpilled;
    if (nests) open_.push_back(i);
  }

 private:
  const Slice* first_;
  TrackTree& tree_;
  std::vector<std::uint32_t> open_;  // nested slices still running, innermost last
};
TrackTree buildTrackTree(const Slice* first, std::uint32_t count);

}  // namespace gapscope::analysis::gaps_detail
