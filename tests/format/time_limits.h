// The extreme times the format tests pin (shared by every file of the suite).
#pragma once

#include <limits>

#include "gapscope/model/types.h"

namespace gapscope::format::testing {

inline constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();
inline constexpr TimeNs kMax = std::numeric_limits<TimeNs>::max();

}  // namespace gapscope::format::testing
