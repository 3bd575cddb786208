// A part of a whole in per cent: the one rule for the tables' and the
// comparison's shares.
#pragma once

#include "gapscope/model/types.h"

namespace gapscope::analysis {

// 100 x part / whole, 0 for an empty whole. Divided first: a part no
// larger than its whole never comes out over 100 (100 x part rounds, and
// a whole past 2^53 / 100 ns made 100.00000000000001 %).
inline double percentOf(TimeNs part, TimeNs whole) {
  return whole != 0 ? 100.0 * (static_cast<double>(part) / static_cast<double>(whole)) : 0.0;
}

}  // namespace gapscope::analysis
