// The args text of every slice and instant of a trace, for code that writes
// them all out in an order of its own (the writer, the dump). Where the
// source reads out of order slowly (a .json.gz inflates again from an index
// point each time it goes back), every args text is fetched first, once, in
// the order it lies in the file (Trace::forEachArgsInSourceOrder), and held
// while this lives: about the size of the args. Other sources are read as
// each is asked for.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gapscope/model/trace.h"

namespace gapscope {

class EventArgs {
 public:
  explicit EventArgs(const Trace& trace);
  // `s` and `in` must be the trace's own (their index is their address).
  std::string slice(const Slice& s) const;
  std::string instant(const Instant& in) const;

 private:
  struct Place {
    std::size_t at = 0;
    std::size_t length = 0;
  };
  std::string get(std::size_t index, const ArgsRef& ref) const;

  const Trace& trace_;
  std::string text_;          // prefetched: every args text, one after another
  std::vector<Place> where_;  // prefetched: by slice index, then instant index
};

}  // namespace gapscope
