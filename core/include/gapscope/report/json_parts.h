// Parts of JSON more than one document writes, one definition each: idle
// by cause (the comparison, the ranks document, `diff` of two runs of a
// job), the step-time test of a comparison (compare/step_spread.h;
// docs/compare.md, "Beyond the steps' spread") and the recordings of each
// side ("Several recordings of each side").
#pragma once

#include <nlohmann/json.hpp>

#include "gapscope/analysis/gaps.h"
#include "gapscope/compare/compare.h"
#include "gapscope/compare/step_spread.h"

namespace gapscope::report {

// {"launch_overhead": ns, "synchronization": ns, "queued": ns, "other": ns}
nlohmann::ordered_json idleJson(const analysis::IdleByCause& idle);

nlohmann::ordered_json stepSpreadJson(const compare::StepSpreadTest& t);

// Several recordings a side: {"a": [...], "b": [...]}, each {"file",
// "steps", "step_time_ns", "typical"} (docs/compare.md).
nlohmann::ordered_json recordingsJson(const std::array<std::vector<compare::Recording>, 2>& recordings);

}  // namespace gapscope::report
